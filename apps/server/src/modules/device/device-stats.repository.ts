import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { agencyIdInScope, agencyScopeTest, pathInScope, type Scope } from '../../db/scope.ts'
import { many, one } from '../../db/sql.ts'
import { TIME_ZONE } from '../../lib/time.ts'

// Every statistic is one SQL statement over the registered devices of the scope, counting with
// FILTER or GROUP BY; no query runs per row. Registered devices are the device list's: a live
// device in a live installation. Their status and battery are copied onto the installation by
// triggers (migration 0011), so every count reads the installations alone, index-only (the
// partial indexes of migration 0011 hold what the counts read): no join of 100,000 devices. The
// scope is agencyIdInScope on the installation's organisation (a semi-join: a small subtree reads
// its own rows by index), left out when the scope holds every organisation (the system
// organisation's members): the whole network then needs no test per row.

/** A band of the data dictionary: a value v is in it when min < v <= max. */
export type Band = { value: number | null; min?: number; max?: number }

/**
 * The condition for live installations of the scope with a registered device, under the region
 * prefix when one is given (the statistics and the dashboard map count the same installations).
 */
export async function installationsIn(db: DbOrTx, scope: Scope, prefix: string | null): Promise<SQL> {
  const where: SQL[] = [
    sql`i.removed_at IS NULL`,
    sql`i.device_id IS NOT NULL`,
    // The device's copy: set exactly while a live device sits in the installation (migration 0011).
    sql`i.device_status IS NOT NULL`,
  ]
  const inScope = await agencyScopeTest(db, scope, sql`i.agency_id`)
  if (inScope) where.push(inScope)
  // Region prefixes are digits only (regionPrefix of a validated code): no LIKE escaping needed.
  if (prefix) where.push(sql`i.address_code LIKE ${`${prefix}%`}`)
  return sql.join(where, sql` AND `)
}

/** The registered devices of the scope in the region: installations `i` with their device's copy. */
async function registered(db: DbOrTx, scope: Scope, prefix: string | null): Promise<SQL> {
  return sql`FROM installations i WHERE ${await installationsIn(db, scope, prefix)}`
}

/** The status the lists show: normal when the installation hides abnormal states. */
const shownStatus = sql`CASE WHEN i.disable_abnormal_display = 1 THEN 0 ELSE i.device_status END`

/** `value` lies in the band (min < value <= max; a missing bound is open). */
function inBand(value: SQL, band: Band): SQL {
  const parts: SQL[] = []
  if (band.min !== undefined) parts.push(sql`${value} > ${band.min}`)
  if (band.max !== undefined) parts.push(sql`${value} <= ${band.max}`)
  return parts.length ? sql.join(parts, sql` AND `) : sql`${value} IS NOT NULL`
}

/** Days in a month, as the device list's expiry filters count months ((date - today) / 30.4375). */
const MONTH_DAYS = 30.4375

/**
 * Today plus a number of months, as the last day the list's test counts within them (see
 * inExpiryBand); a sub-select, so it is computed once per query, not once per row.
 */
const inMonths = (months: number) => sql`(SELECT current_date + ${Math.floor(months * MONTH_DAYS)}::int)`

/**
 * A date column lies in an expiry band of months left. The list's test, (date - today) / 30.4375
 * > m, holds for a whole number of days exactly when date > today + floor(m * 30.4375): the same
 * devices, compared as dates (no numeric division per row, and an index can serve it).
 */
function inExpiryBand(column: SQL, band: Band): SQL {
  const parts: SQL[] = []
  if (band.min !== undefined) parts.push(sql`${column} > ${inMonths(band.min)}`)
  if (band.max !== undefined) parts.push(sql`${column} <= ${inMonths(band.max)}`)
  return parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`
}

export type StateCounts = {
  all_count: number
  rescue_event_count: number
  normal_count: number
  warn_event_count: number
  error_report_count: number
  offset_event_count: number
  disconnect_count: number
}

/**
 * Devices per shown status, and the rescue events recorded in the scope (by the organisation
 * path the event keeps) at installations in the region.
 */
export async function stateCounts(db: DbOrTx, scope: Scope, prefix: string | null) {
  const rescues = prefix
    ? sql`SELECT count(*) FROM rescue_events r JOIN installations ri ON ri.id = r.installation_id
          WHERE ${pathInScope(scope, sql`r.index_link`)} AND ri.address_code LIKE ${`${prefix}%`}`
    : sql`SELECT count(*) FROM rescue_events r WHERE ${pathInScope(scope, sql`r.index_link`)}`
  const row = await one<StateCounts>(
    db,
    sql`SELECT count(*) AS all_count,
               (${rescues}) AS rescue_event_count,
               count(*) FILTER (WHERE s = 0) AS normal_count,
               count(*) FILTER (WHERE s = 1) AS warn_event_count,
               count(*) FILTER (WHERE s = 2) AS error_report_count,
               count(*) FILTER (WHERE s = 3) AS offset_event_count,
               count(*) FILTER (WHERE s = 4) AS disconnect_count
        FROM (SELECT ${shownStatus} AS s ${await registered(db, scope, prefix)}) x`,
  )
  return row!
}

/** The four banded measures of a device, by the key the answer uses. */
export type BandSets = {
  battery: Band[]
  electrode_sheet_expire: Band[]
  battery_expire: Band[]
  host_expire: Band[]
}

/** Each measure: its value, and "at most this band bound" as SQL. */
const measures: Record<keyof BandSets, { value: SQL; atMost: (bound: number) => SQL }> = {
  battery: { value: sql`i.device_battery`, atMost: (b) => sql`i.device_battery <= ${b}` },
  electrode_sheet_expire: {
    value: sql`i.electrode_sheet_expire`,
    atMost: (b) => sql`i.electrode_sheet_expire <= ${inMonths(b)}`,
  },
  battery_expire: { value: sql`i.battery_expire`, atMost: (b) => sql`i.battery_expire <= ${inMonths(b)}` },
  host_expire: { value: sql`i.host_expire`, atMost: (b) => sql`i.host_expire <= ${inMonths(b)}` },
}

/** Bands that tile the line in order: the first open below, each starting where the last ended. */
function assertContiguous(bands: Band[]) {
  bands.forEach((b, i) => {
    const from = i === 0 ? undefined : bands[i - 1].max
    if (b.min !== from || (i < bands.length - 1 && b.max === undefined)) {
      throw new Error(`bands are not contiguous at ${JSON.stringify(b)}`)
    }
  })
}

/**
 * Devices per band of each measure: `counts[measure][i]` for the i-th band of `bands[measure]`.
 * The bands of a measure tile its values, so the query counts cumulatively (values at most each
 * band's upper bound, and all values) and the bands are differences: one comparison per bound
 * and row instead of two per band.
 */
export async function bandCounts(
  db: DbOrTx,
  scope: Scope,
  prefix: string | null,
  bands: BandSets,
): Promise<Record<keyof BandSets, number[]>> {
  const keys = Object.keys(measures) as (keyof BandSets)[]
  const columns = keys.flatMap((k) => {
    assertContiguous(bands[k])
    return [
      sql`count(${measures[k].value}) AS ${sql.identifier(`${k}_all`)}`,
      ...bands[k].flatMap((b, i) =>
        b.max === undefined
          ? []
          : [sql`count(*) FILTER (WHERE ${measures[k].atMost(b.max)}) AS ${sql.identifier(`${k}_${i}`)}`],
      ),
    ]
  })
  const row = (await one<Record<string, number>>(
    db,
    sql`SELECT ${sql.join(columns, sql`, `)} ${await registered(db, scope, prefix)}`,
  ))!
  const upTo = (k: keyof BandSets, i: number) =>
    i < 0 ? 0 : bands[k][i].max === undefined ? row[`${k}_all`] : row[`${k}_${i}`]
  return Object.fromEntries(
    keys.map((k) => [k, bands[k].map((_, i) => upTo(k, i) - upTo(k, i - 1))]),
  ) as Record<keyof BandSets, number[]>
}

/** Devices per installed region code (devices without one are left out); the installations alone. */
export async function regionCounts(db: DbOrTx, scope: Scope, prefix: string | null) {
  return many<{ address_code: string; n: number }>(
    db,
    sql`SELECT i.address_code, count(*) AS n FROM installations i
        WHERE ${await installationsIn(db, scope, prefix)} AND i.address_code IS NOT NULL
        GROUP BY i.address_code`,
  )
}

export type MonthRow = {
  /** 1 for the first month asked, 2 for the next ... */
  bucket: number
  register_count: number
  inspect_count: number
  change_count: number
  replace_count: number
}

/**
 * Per month from the day `start` to before the day `end` ('YYYY-MM-01', months of the
 * organisations' time zone): registrations (installations by register time), inspections (by
 * the organisation they were recorded under), routine changes and moves, and replacements (of the
 * installations of the scope, by their organisation now), in the region. Months without any are
 * absent. The month of a row is its bucket among the month starts (width_bucket), computed once.
 */
export async function monthlyMaintenance(
  db: DbOrTx,
  scope: Scope,
  prefix: string | null,
  start: string,
  end: string,
) {
  const instant = (day: string) => sql`(${day}::date)::timestamp AT TIME ZONE ${TIME_ZONE}`
  const inScope = await agencyScopeTest(db, scope, sql`i.agency_id`)
  if (!inScope && !prefix) {
    // The whole network: each month's rows counted as ranges of the time indexes (migration
    // 0008), index-only, without a join or a bucket computed per row. Every installation and
    // inspection belongs to the network, so no row needs a test.
    return many<MonthRow>(
      db,
      sql`SELECT m.bucket,
                 (SELECT count(*) FROM installations i WHERE i.register_time >= m.s AND i.register_time < m.e) AS register_count,
                 (SELECT count(*) FROM device_inspections n WHERE n.inspect_time >= m.s AND n.inspect_time < m.e) AS inspect_count,
                 c.change_count, c.replace_count
          FROM (SELECT g.k AS bucket, (g.d::date)::timestamp AT TIME ZONE ${TIME_ZONE} AS s,
                       ((g.d + interval '1 month')::date)::timestamp AT TIME ZONE ${TIME_ZONE} AS e
                FROM generate_series(${start}::date, ${end}::date - interval '1 month', interval '1 month')
                     WITH ORDINALITY g(d, k)) m
          CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE c.update_type IN (1, 2)) AS change_count,
                   count(*) FILTER (WHERE c.update_type = 3) AS replace_count
            FROM installation_changes c
            WHERE c.update_type IN (1, 2, 3) AND c.update_time >= m.s AND c.update_time < m.e) c`,
    )
  }
  const within = (column: SQL) => sql`${column} >= ${instant(start)} AND ${column} < ${instant(end)}`
  const bucket = (column: SQL) => sql`width_bucket(${column}, (SELECT e FROM edges))`
  const region = prefix ? sql`AND i.address_code LIKE ${`${prefix}%`}` : sql``
  const inspectedIn = prefix
    ? sql`AND n.installation_id IN (SELECT id FROM installations WHERE address_code LIKE ${`${prefix}%`})`
    : sql``
  const scoped = (agencyId: SQL) => (inScope ? sql`AND ${agencyIdInScope(scope, agencyId)}` : sql``)
  return many<MonthRow>(
    db,
    sql`WITH edges AS (
          SELECT array_agg((m::date)::timestamp AT TIME ZONE ${TIME_ZONE} ORDER BY m) AS e
          FROM generate_series(${start}::date, ${end}::date, interval '1 month') m
        )
        SELECT bucket,
               count(*) FILTER (WHERE k = 0) AS register_count,
               count(*) FILTER (WHERE k = -1) AS inspect_count,
               count(*) FILTER (WHERE k IN (1, 2)) AS change_count,
               count(*) FILTER (WHERE k = 3) AS replace_count
        FROM (
          SELECT ${bucket(sql`i.register_time`)} AS bucket, 0 AS k FROM installations i
          WHERE ${within(sql`i.register_time`)} ${scoped(sql`i.agency_id`)} ${region}
          UNION ALL
          SELECT ${bucket(sql`c.update_time`)}, c.update_type
          FROM installation_changes c JOIN installations i ON i.id = c.installation_id
          WHERE c.update_type IN (1, 2, 3) AND ${within(sql`c.update_time`)}
            ${scoped(sql`i.agency_id`)} ${region}
          UNION ALL
          SELECT ${bucket(sql`n.inspect_time`)}, -1 FROM device_inspections n
          WHERE ${within(sql`n.inspect_time`)} ${scoped(sql`n.agency_id`)} ${inspectedIn}
        ) x
        GROUP BY bucket`,
  )
}

/** The key-maintenance reasons as conditions over the registered devices. */
export type KeyConditions = {
  expired: Band
  expiring: Band
  hostExpired: Band
  hostExpiring: Band
  exhausted: Band
  low: Band
}

/** Devices needing attention, per reason (a device may count under several), and all devices. */
export async function keyMaintenanceCounts(
  db: DbOrTx,
  scope: Scope,
  prefix: string | null,
  c: KeyConditions,
): Promise<Record<string, number>> {
  const pads = sql`i.electrode_sheet_expire`
  const cell = sql`i.battery_expire`
  const host = sql`i.host_expire`
  const row = await one<Record<string, number>>(
    db,
    sql`SELECT count(*) AS all_count,
               count(*) FILTER (WHERE ${inExpiryBand(pads, c.expired)}) AS electrode_sheet_expired,
               count(*) FILTER (WHERE ${inExpiryBand(pads, c.expiring)}) AS electrode_sheet_expiring,
               count(*) FILTER (WHERE ${inExpiryBand(cell, c.expired)}) AS battery_expired,
               count(*) FILTER (WHERE ${inExpiryBand(cell, c.expiring)}) AS battery_expiring,
               count(*) FILTER (WHERE ${inExpiryBand(host, c.hostExpired)}) AS host_expired,
               count(*) FILTER (WHERE ${inExpiryBand(host, c.hostExpiring)}) AS host_expiring,
               count(*) FILTER (WHERE ${inBand(sql`i.device_battery`, c.exhausted)}) AS battery_exhausted,
               count(*) FILTER (WHERE ${inBand(sql`i.device_battery`, c.low)}) AS battery_low,
               count(*) FILTER (WHERE ${shownStatus} = 2) AS fault,
               count(*) FILTER (WHERE ${shownStatus} = 4) AS offline
        ${await registered(db, scope, prefix)}`,
  )
  return row!
}
