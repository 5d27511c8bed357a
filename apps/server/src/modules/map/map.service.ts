import { Code } from '@aed/contracts'
import type { DistrictOption, MapAddress, MapSuggestion } from '@aed/contracts/map'
import { regionChildren } from '@aed/contracts/regions'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../../context.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import { MapUnavailableError } from '../../providers/map/map-provider.ts'

/** The children of a province or city code as picker options; the provinces without a code. */
export function districtChildren(code?: string): DistrictOption[] {
  const nodes = regionChildren(code)
  if (!nodes) throw invalid('REGION_CODE_UNKNOWN')
  return nodes.map((n) => ({ value: n.code, label: n.name, is_leaf: n.children.length === 0 }))
}

/** Turns a provider's failure into code 6 with a message the console can show. */
function unavailable(err: unknown, log: FastifyBaseLogger): never {
  if (err instanceof MapUnavailableError) {
    if (!err.offline) log.warn({ err }, 'map provider failed')
    throw new AppError(Code.PROVIDER_UNAVAILABLE, err.offline ? 'MAP_REVERSE_OFFLINE' : 'MAP_PROVIDER_FAILED')
  }
  throw err
}

/** Place suggestions for a keyword. */
export async function suggestion(
  ctx: AppContext,
  log: FastifyBaseLogger,
  keyword: string,
  region?: string,
): Promise<MapSuggestion[]> {
  return ctx.map.suggestion(keyword, { region }).catch((e) => unavailable(e, log))
}

/** The address at a point. */
export async function address(
  ctx: AppContext,
  log: FastifyBaseLogger,
  lat: number,
  lon: number,
): Promise<MapAddress> {
  return ctx.map.reverse(lat, lon).catch((e) => unavailable(e, log))
}
