import type { Lang } from '@aed/contracts'
import type {
  ChangedSinceQuery,
  NearbyAed,
  NearbyQuery,
  NearbyThirdParty,
  OpenAed,
  OpenEvent,
} from '@aed/contracts/open-api'
import type { Config } from '../../config.ts'
import type { Db, DbOrTx } from '../../db/client.ts'
import { chinaTime } from '../../db/opening-hours.ts'
import type { Scope } from '../../db/scope.ts'
import { notFound } from '../../lib/errors.ts'
import { toGcj02 } from '../engine/gcj02.ts'
import { nearbyThirdParty } from '../review/review.service.ts'
import {
  type Coord,
  nearbyAedObject,
  openAedObject,
  openClassroomObject,
  openEventObject,
  type PresentOptions,
  publicFileUrl,
} from './open-api.presenter.ts'
import * as repo from './open-api.repository.ts'

export type { Coord, PresentOptions } from './open-api.presenter.ts'

export { chinaTime }

/**
 * The origin relative file URLs are made absolute with: PUBLIC_FILES_URL's when it is absolute,
 * else the request's own (`https://host` as the client reached this server), else none.
 */
export function filesOrigin(config: Pick<Config, 'PUBLIC_FILES_URL'>, requestOrigin: string | null = null) {
  const m = /^(https?:\/\/[^/\s]+)/i.exec(config.PUBLIC_FILES_URL)
  return m ? m[1] : requestOrigin
}

/** Ready AEDs of the scope open now and shown to the public, near a point, nearest first. */
export async function nearby(
  db: Db,
  scope: Scope,
  q: NearbyQuery,
  now: Date,
  origin: string | null,
): Promise<{ resource: (NearbyAed | NearbyThirdParty)[] }> {
  const here = q.coord === 'wgs84' ? toGcj02(q.lat, q.lon) : { lat: q.lat, lon: q.lon }
  const rows = await repo.nearbyAeds(db, scope, {
    ...here,
    radius: q.radius,
    limit: q.limit,
    at: chinaTime(now),
  })
  const o: PresentOptions = { coord: q.coord, filesOrigin: origin }
  const ours = rows.map((r) => nearbyAedObject(r, o))
  // Someone else's AEDs when 后台配置 shows them: up to `limit` of their own, never displacing ours.
  const theirs = await nearbyThirdParty(db, here, q.radius, q.limit, q.coord)
  if (theirs.length === 0) return { resource: ours }
  const merged: (NearbyAed | NearbyThirdParty)[] = [
    ...ours,
    ...theirs.map((t) => ({ ...t, photos: t.photos.map((u) => publicFileUrl(u, origin)) })),
  ]
  return { resource: merged.sort((a, b) => a.distance - b.distance) }
}

/** One installed AED of the scope by its serial (whatever its readiness), or null. */
export async function openAedBySn(
  db: DbOrTx,
  scope: Scope,
  sn: string,
  coord: Coord = 'gcj02',
  origin: string | null = null,
): Promise<OpenAed | null> {
  const row = await repo.aedBySn(db, scope, sn)
  return row ? openAedObject(row, { coord, filesOrigin: origin }) : null
}

/** Installed AEDs by device id as the open API presents them (webhook payloads), in the ids' order; no scope. */
export async function openAedsByIds(
  db: DbOrTx,
  ids: number[],
  coord: Coord = 'gcj02',
  origin: string | null = null,
): Promise<OpenAed[]> {
  const rows = await repo.aedsByIds(db, ids)
  return rows.map((r) => openAedObject(r, { coord, filesOrigin: origin }))
}

/** Device events by id as the open API presents them (webhook payloads), one query for all; no scope. */
export async function openEventsByIds(db: DbOrTx, ids: number[], lang: Lang = 'zh-CN'): Promise<OpenEvent[]> {
  return (await repo.eventsByIds(db, ids)).map((row) => openEventObject(row, lang))
}

/** GET /open-api/v1/aed/:sn: another organisation's AED is as unknown as a serial nobody made. */
export async function aedDetail(db: DbOrTx, scope: Scope, sn: string, coord: Coord, origin: string | null) {
  const aed = await openAedBySn(db, scope, sn, coord, origin)
  if (!aed) throw notFound('OPEN_API_AED_NOT_FOUND')
  return aed
}

const sinceOf = (q: ChangedSinceQuery) => (q.changed_since ? new Date(q.changed_since) : null)

/** AEDs of the scope whose state changed at or after changed_since, oldest change first. */
export async function aedStatuses(db: DbOrTx, scope: Scope, q: ChangedSinceQuery, origin: string | null) {
  const { count, rows } = await repo.aedsChangedSince(db, scope, sinceOf(q), q)
  const o: PresentOptions = { coord: q.coord, filesOrigin: origin }
  return { count, resource: rows.map((r) => openAedObject(r, o)) }
}

/** Device events of the scope, open and closed, changed at or after changed_since, oldest change first. */
export async function events(db: DbOrTx, scope: Scope, q: ChangedSinceQuery, lang: Lang) {
  const { count, rows } = await repo.eventsChangedSince(db, scope, sinceOf(q), q)
  return { count, resource: rows.map((r) => openEventObject(r, lang)) }
}

/** The classroom items the organisation sees (those owned in its subtree), newest first. */
export async function classroom(
  db: DbOrTx,
  scope: Scope,
  q: { page: number; page_size: number; category?: number },
) {
  const { count, rows } = await repo.classroomPage(db, scope, q)
  return { count, resource: rows.map(openClassroomObject) }
}
