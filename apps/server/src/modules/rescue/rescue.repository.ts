import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, many, one, type PageRequest, paginate } from '../../db/sql.ts'

/** A rescue with its device, installation, organisation, answered call and cabinet door. */
export type RescueRecord = {
  id: number
  rescue_event_id: string
  event_location: string | null
  event_time: Date
  ended_at: Date | null
  device_id: number
  device_sn: string
  location: string | null
  location_desc: string | null
  agency_id: number
  agency_name: string
  event_lat: number | null
  event_lon: number | null
  ecg_file_url: string | null
  call_id: number | null
  call_time: Date | null
  call_location: string | null
  return_state: 'out' | 'returned' | 'not_returned' | null
}

/** The list's filters as the repository applies them. */
export type RescueFilters = {
  device_sn?: string
  /** The region's code prefix (regionPrefix): the installation's address_code starts with it. */
  region?: string
  start_time?: string
  end_time?: string
}

// The AED's way back, from the door opening it left through (cabinet_door_events): back in the
// cabinet, past its due time (the sweep's not_returned_at), or still out.
const returnState = sql`CASE WHEN de.id IS NULL THEN NULL
  WHEN de.aed_back_at IS NOT NULL THEN 'returned'
  WHEN de.not_returned_at IS NOT NULL THEN 'not_returned'
  ELSE 'out' END`

const newestFirst = sql`r.event_time DESC, r.id DESC`
const oldestFirst = sql`r.event_time, r.id`

/**
 * One page of the scope's rescues, newest first, in one statement (and a count when the page is
 * full). The page is chosen from rescue_events alone (the scope and the times are conditions on
 * its newest-first walk, rescue_events_time_idx; a filter joins only its own table), and only its
 * rows are joined to their device, installation, organisation, call and door event, by key: joined
 * before the limit, a page of the whole network hashed all devices and installations (890 ms at
 * 100,000 devices). Past the middle of the list the page is read from the oldest end: an offset is
 * walked row by row, and the last page of 100,000 took 54 ms on PGlite from the newest end. The
 * call shows only when it lies in the scope too: a call of another branch that a device of this
 * one answered stays that branch's.
 */
export async function listRescues(db: DbOrTx, scope: Scope, f: RescueFilters, p: PageRequest) {
  const where: SQL[] = [pathInScope(scope, sql`r.index_link`)]
  const joins: SQL[] = []
  if (f.start_time) where.push(sql`r.event_time >= ${f.start_time}::timestamptz`)
  if (f.end_time) where.push(sql`r.event_time <= ${f.end_time}::timestamptz`)
  if (f.device_sn) {
    where.push(sql`fd.device_sn ILIKE ${containsPattern(f.device_sn)}`)
    joins.push(sql`JOIN devices fd ON fd.id = r.device_id`)
  }
  if (f.region) {
    where.push(sql`fi.address_code LIKE ${`${f.region}%`}`)
    joins.push(sql`JOIN installations fi ON fi.id = r.installation_id`)
  }
  const matching = sql`FROM rescue_events r ${sql.join(joins, sql` `)} WHERE ${sql.join(where, sql` AND `)}`
  const rows = (order: SQL, limit: number, offset: number) =>
    many<RescueRecord>(
      db,
      sql`SELECT r.id, r.rescue_event_id, r.event_location, r.event_time, r.ended_at, r.device_id,
            d.device_sn, i.location, i.location_desc, r.agency_id, g.name AS agency_name, r.event_lat,
            r.event_lon, r.ecg_file_url, c.id AS call_id, c.call_time, c.location AS call_location,
            ${returnState} AS return_state
          FROM (SELECT r.* ${matching} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) r
          JOIN devices d ON d.id = r.device_id
          JOIN agencies g ON g.id = r.agency_id
          LEFT JOIN installations i ON i.id = r.installation_id
          LEFT JOIN call_events c ON c.rescue_id = r.id AND ${pathInScope(scope, sql`c.index_link`)}
          LEFT JOIN cabinet_door_events de ON de.id = r.cabinet_door_event_id
          ORDER BY ${newestFirst}`,
    )
  const total = async () => (await one<{ n: number }>(db, sql`SELECT count(*) AS n ${matching}`))?.n ?? 0
  if (p.page === 1) return paginate(p, (limit, offset) => rows(newestFirst, limit, offset), total)
  const count = await total()
  const offset = (p.page - 1) * p.page_size
  // The rescues from this page's first to the oldest: fewer than those before it, walk those.
  const rest = count - offset
  if (rest <= 0) return { count, rows: [] }
  if (offset <= rest) return { count, rows: await rows(newestFirst, p.page_size, offset) }
  const n = Math.min(p.page_size, rest)
  return { count, rows: await rows(oldestFirst, n, rest - n) }
}

/** The rescue a download names, when the scope holds it: its device's serial and its file. */
export type RescueFileRecord = {
  id: number
  device_sn: string
  rescue_event_id: string
  ecg_file_url: string | null
}

/**
 * The scope's rescue with the device's own id of it (of that serial when given: the id is the
 * device's, so two devices may share one), the newest when several match.
 */
export function rescueFile(db: DbOrTx, scope: Scope, q: { device_sn?: string; rescue_event_id: string }) {
  return one<RescueFileRecord>(
    db,
    sql`SELECT r.id, d.device_sn, r.rescue_event_id, r.ecg_file_url
        FROM rescue_events r JOIN devices d ON d.id = r.device_id
        WHERE r.rescue_event_id = ${q.rescue_event_id} AND ${pathInScope(scope, sql`r.index_link`)}
          ${q.device_sn ? sql`AND d.device_sn = ${q.device_sn}` : sql``}
        ORDER BY r.event_time DESC, r.id DESC LIMIT 1`,
  )
}
