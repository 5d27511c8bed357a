import type { Lang } from '@aed/contracts'
import { DATA_DICT, labelIn } from '@aed/contracts/constants'
import {
  type DeviceStatsQuery,
  KEY_MAINTENANCE,
  type KeyMaintenance,
  MAINTENANCE_MONTHS,
  type MainStateDistribution,
  type MaintenanceMonthly,
  type RegionalDistribution,
  type StateDistribution,
} from '@aed/contracts/device-stats'
import { type RegionNode, regionChildren, regionPath, regionPrefix } from '@aed/contracts/regions'
import type { AppContext } from '../../context.ts'
import { formatDate } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import * as repo from './device-stats.repository.ts'

/** The region prefix of the query's address_code, or null for the whole scope. */
const prefixOf = (q: DeviceStatsQuery) => (q.address_code ? regionPrefix(q.address_code) : null)

/** The dashboard's status distribution of the scope's devices in the region. */
export async function stateDistribution(
  ctx: AppContext,
  auth: AuthContext,
  q: DeviceStatsQuery,
): Promise<StateDistribution> {
  return repo.stateCounts(ctx.db, auth, prefixOf(q))
}

const bandSets: repo.BandSets = {
  battery: DATA_DICT.battery_band,
  electrode_sheet_expire: DATA_DICT.expiry_band,
  battery_expire: DATA_DICT.expiry_band,
  host_expire: DATA_DICT.host_expiry_band,
}

/** Devices per band of battery level and of pads, battery and host expiry, labelled. */
export async function mainStateDistribution(
  ctx: AppContext,
  auth: AuthContext,
  q: DeviceStatsQuery,
  lang: Lang,
): Promise<MainStateDistribution> {
  const counts = await repo.bandCounts(ctx.db, auth, prefixOf(q), bandSets)
  const labelled = (k: keyof repo.BandSets) =>
    DATA_DICT[
      k === 'battery' ? 'battery_band' : k === 'host_expire' ? 'host_expiry_band' : 'expiry_band'
    ].map((b, i) => ({ value: b.value as number, label: labelIn(b.label, lang), count: counts[k][i] }))
  return {
    battery: labelled('battery'),
    electrode_sheet_expire: labelled('electrode_sheet_expire'),
    battery_expire: labelled('battery_expire'),
    host_expire: labelled('host_expire'),
  }
}

/** The asked region as 6 digits ('33' → '330000'), null for the whole country. */
const regionCodeOf = (code: string | undefined) => (code ? code.padEnd(6, '0') : null)

/**
 * The regions one level below `code`: provinces for the country, cities for a province,
 * districts for a city. A region with a single child that has children of its own (the
 * municipalities' one city-level node) answers that child's children, so Beijing shows its districts.
 */
function regionsBelow(code: string | null): RegionNode[] {
  let children = regionChildren(code) ?? []
  while (children.length === 1 && children[0].children.length > 0) children = children[0].children
  return children
}

/** Devices per region one level below the asked one (regions with devices, most first). */
export async function regionalDistribution(
  ctx: AppContext,
  auth: AuthContext,
  q: DeviceStatsQuery,
  lang: Lang,
): Promise<RegionalDistribution> {
  const code = regionCodeOf(q.address_code)
  const path = code ? regionPath(code) : []
  const name = code ? (path ? nameOf(code, path) : code) : lang === 'en-US' ? 'Whole country' : '全国'
  const children = path ? regionsBelow(code) : []
  if (children.length === 0) return { address_code: code, name, items: [] }
  const byCode = new Map(children.map((c) => [c.code, c]))
  const counts = new Map<string, number>()
  for (const row of await repo.regionCounts(ctx.db, auth, code ? regionPrefix(code) : null)) {
    // The child is the one region of the installed code's path (province, city, district) below the asked one.
    const child = (regionPath(row.address_code) ?? []).find((c) => byCode.has(c))
    if (child) counts.set(child, (counts.get(child) ?? 0) + row.n)
  }
  const items = [...counts]
    .map(([c, n]) => ({ address_code: c, name: byCode.get(c)!.name, device_count: n }))
    .sort((a, b) => b.device_count - a.device_count || a.address_code.localeCompare(b.address_code))
  return { address_code: code, name, items }
}

/** The name of a region of the tree, from its path. */
function nameOf(code: string, path: string[]) {
  let nodes = regionChildren(null) ?? []
  let node: RegionNode | undefined
  for (const c of path) {
    node = nodes.find((n) => n.code === c)
    nodes = node?.children ?? []
  }
  return node?.name ?? code
}

/** 'YYYY-MM' of a month `back` months before the month of `day` ('YYYY-MM-DD'). */
function monthBefore(day: string, back: number) {
  const total = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 - back
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`
}

/** The maintenance line: one point per month of the last MAINTENANCE_MONTHS, this month last. */
export async function maintenanceMonthly(
  ctx: AppContext,
  auth: AuthContext,
  q: DeviceStatsQuery,
): Promise<MaintenanceMonthly> {
  const today = formatDate(ctx.clock.now())
  const months = Array.from({ length: MAINTENANCE_MONTHS }, (_, i) =>
    monthBefore(today, MAINTENANCE_MONTHS - 1 - i),
  )
  const rows = await repo.monthlyMaintenance(
    ctx.db,
    auth,
    prefixOf(q),
    `${months[0]}-01`,
    `${monthBefore(today, -1)}-01`,
  )
  const byBucket = new Map(rows.map((r) => [r.bucket, r]))
  return {
    items: months.map((month, i) => {
      const r = byBucket.get(i + 1)
      return {
        month,
        register_count: r?.register_count ?? 0,
        inspect_count: r?.inspect_count ?? 0,
        change_count: r?.change_count ?? 0,
        replace_count: r?.replace_count ?? 0,
      }
    }),
  }
}

const band = (list: readonly repo.Band[], value: number) => list.find((b) => b.value === value)!

/** Expired and expiring (band 0 and 1) of the expiry bands, exhausted and low of the battery's. */
const keyConditions: repo.KeyConditions = {
  expired: band(DATA_DICT.expiry_band, 0),
  expiring: band(DATA_DICT.expiry_band, 1),
  hostExpired: band(DATA_DICT.host_expiry_band, 0),
  hostExpiring: band(DATA_DICT.host_expiry_band, 1),
  exhausted: band(DATA_DICT.battery_band, 0),
  low: band(DATA_DICT.battery_band, 1),
}

/** The key-maintenance bar: devices needing attention per reason, with the list filter of each. */
export async function keyMaintenance(
  ctx: AppContext,
  auth: AuthContext,
  q: DeviceStatsQuery,
  lang: Lang,
): Promise<KeyMaintenance> {
  const counts = await repo.keyMaintenanceCounts(ctx.db, auth, prefixOf(q), keyConditions)
  return {
    all_count: counts.all_count,
    items: KEY_MAINTENANCE.map((k) => ({
      key: k.key,
      label: labelIn(k.label, lang),
      count: counts[k.key],
      filter: k.filter,
    })),
  }
}
