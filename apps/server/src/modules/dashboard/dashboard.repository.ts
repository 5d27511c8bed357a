import { MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many, one } from '../../db/sql.ts'
import { installationsIn } from '../device/device-stats.port.ts'

// The dashboard map's reads. The device layer is one statement over the installations alone, as
// the statistics are (device-stats.repository.ts): a registered device's status is copied onto
// its installation by triggers (migration 0011), and migration 0014's index holds every column
// the layer reads, so the whole network is an index-only walk without a join of the devices.
// The database writes the layer's JSON itself: 100,000 points are one text value, not 100,000
// rows decoded into objects and serialised again.

/** The status the lists show: normal when the installation hides abnormal states. */
const shownStatus = sql`CASE WHEN i.disable_abnormal_display = 1 THEN 0 ELSE i.device_status END`

/**
 * A point the map can draw: a real latitude and longitude, not the 0,0 an import leaves when
 * it had none (NaN and infinities fail the ranges too).
 */
const placed = (lat: SQL, lon: SQL) =>
  sql`(${lat} BETWEEN -90 AND 90 AND ${lon} BETWEEN -180 AND 180 AND (${lat} <> 0 OR ${lon} <> 0))`

/** True when a coordinate pair is a drawable point (the `placed` test, for rows already read). */
export const isPlaced = (lat: number | null, lon: number | null) =>
  lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (lat !== 0 || lon !== 0)

/**
 * A coordinate rounded to 5 decimals as JSON text. float8 division of the rounded integer gives
 * the double nearest the decimal, which PostgreSQL prints in its shortest form (120.1307, not
 * 120.13070): no numeric arithmetic per row, and the text is valid JSON.
 */
const fixed5 = (v: SQL) => sql`(round(${v} * 100000) / 100000)`

/**
 * The device layer's `data` as JSON text: registered devices of the scope (under the region
 * prefix when given) of the asked shown statuses (null: all), as [device_id, lon, lat] per
 * status key, and how many have no point. One statement; the statuses are validated integers.
 */
export async function deviceLocationJson(
  db: DbOrTx,
  scope: Scope,
  prefix: string | null,
  statuses: readonly number[] | null,
): Promise<string> {
  const where: SQL[] = [await installationsIn(db, scope, prefix)]
  if (statuses) {
    where.push(
      sql`${shownStatus} IN (${sql.join(
        statuses.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    )
  }
  const point = sql`CASE WHEN ${placed(sql`i.lat`, sql`i.lon`)}
    THEN '[' || i.device_id || ',' || ${fixed5(sql`i.lon`)} || ',' || ${fixed5(sql`i.lat`)} || ']' END`
  const layers = MAP_DEVICE_STATUSES.map(
    (s, k) =>
      sql`${sql.raw(`'${k === 0 ? '{' : '],'}"${s}":['`)} || coalesce(string_agg(p, ',') FILTER (WHERE s = ${sql.raw(String(s))}), '')`,
  )
  const row = await one<{ json: string }>(
    db,
    sql`SELECT ${sql.join(layers, sql` || `)} || '],"unplaced":' || count(*) FILTER (WHERE p IS NULL) || '}' AS json
        FROM (SELECT ${shownStatus} AS s, ${point} AS p FROM installations i
              WHERE ${sql.join(where, sql` AND `)}) x`,
  )
  return row!.json
}

/** A rescue of the rescue layer, with its place (the event's, else its installation's). */
export type RescueRow = {
  id: number
  device_id: number
  device_sn: string
  location: string | null
  lon: number
  lat: number
  event_time: Date
  ended_at: Date | null
  /** Rescues matching, before the limit. */
  total: number
}

/**
 * Rescues of the scope (by the organisation path the event keeps) at installations in the region, in
 * progress or ended at or after `since`, with a drawable place, newest first, at most `limit`.
 * The two kinds are read by their own indexes (in progress: migration 0007's open index; ended:
 * migration 0014's), so neither grows with the rescues of past years.
 */
export function rescueLocations(db: DbOrTx, scope: Scope, prefix: string | null, since: Date, limit: number) {
  const lat = sql`CASE WHEN r.event_lat IS NOT NULL AND r.event_lon IS NOT NULL THEN r.event_lat ELSE i.lat END`
  const lon = sql`CASE WHEN r.event_lat IS NOT NULL AND r.event_lon IS NOT NULL THEN r.event_lon ELSE i.lon END`
  return many<RescueRow>(
    db,
    sql`SELECT r.id, r.device_id, d.device_sn, COALESCE(r.event_location, i.location) AS location,
               ${lon} AS lon, ${lat} AS lat, r.event_time, r.ended_at, count(*) OVER () AS total
        FROM rescue_events r
        JOIN devices d ON d.id = r.device_id
        LEFT JOIN installations i ON i.id = r.installation_id
        WHERE (r.ended_at IS NULL OR r.ended_at >= ${since.toISOString()}::timestamptz)
          AND ${pathInScope(scope, sql`r.index_link`)}
          ${prefix ? sql`AND i.address_code LIKE ${`${prefix}%`}` : sql``}
          AND ${placed(lat, lon)}
        ORDER BY r.event_time DESC, r.id DESC
        LIMIT ${limit}`,
  )
}

/** What the dashboard highlights of one event: when, what, where, and its message's id. */
export type FocusRow = {
  id: number
  event_time: Date
  end_time: Date | null
  device_id: number | null
  device_sn: string | null
  cabinet_sn: string | null
  agency_name: string
  location: string | null
  lat: number | null
  lon: number | null
  /** Offsets: metres from the installation (the message's title says it). */
  offset_distance: number | null
  /** The message of (type, event): messages are unique by (msg_type, event_id). */
  message_id: number | null
}

const messageOf = (type: number, eventId: SQL) =>
  sql`(SELECT m.id FROM messages m WHERE m.msg_type = ${type} AND m.event_id = ${eventId} AND m.event_type = ${type})`

/**
 * An event the dashboard highlights: its own columns (`select`: id, times, device, cabinet,
 * location, offset distance, message id), its organisation, and its point: its own where `own`
 * holds, else its installation's (`i`). `from` joins the event, agencies `g` and installations `i`.
 */
function focusRow(db: DbOrTx, q: { select: SQL; own: SQL; lat: SQL; lon: SQL; from: SQL; where: SQL }) {
  return one<FocusRow>(
    db,
    sql`SELECT ${q.select}, g.name AS agency_name,
               CASE WHEN ${q.own} THEN ${q.lat} ELSE i.lat END AS lat,
               CASE WHEN ${q.own} THEN ${q.lon} ELSE i.lon END AS lon
        ${q.from} WHERE ${q.where}`,
  )
}

/** A call of the scope (type 1): its own place always (a call has no installation). */
export function callFocus(db: DbOrTx, scope: Scope, id: number) {
  return focusRow(db, {
    select: sql`c.id, c.call_time AS event_time, c.closed_at AS end_time, NULL::bigint AS device_id, NULL AS device_sn,
                NULL AS cabinet_sn, c.location, NULL::int AS offset_distance, ${messageOf(1, sql`c.id`)} AS message_id`,
    own: sql`TRUE`,
    lat: sql`c.lat`,
    lon: sql`c.lon`,
    from: sql`FROM call_events c JOIN agencies g ON g.id = c.agency_id LEFT JOIN installations i ON FALSE`,
    where: sql`c.id = ${id} AND ${pathInScope(scope, sql`c.index_link`)}`,
  })
}

/** A rescue of the scope; its place is where it happened, else its installation. */
export function rescueFocus(db: DbOrTx, scope: Scope, id: number) {
  return focusRow(db, {
    select: sql`r.id, r.event_time, r.ended_at AS end_time, r.device_id, d.device_sn, NULL AS cabinet_sn,
                COALESCE(r.event_location, i.location) AS location, NULL::int AS offset_distance,
                ${messageOf(2, sql`r.id`)} AS message_id`,
    own: sql`r.event_lat IS NOT NULL AND r.event_lon IS NOT NULL`,
    lat: sql`r.event_lat`,
    lon: sql`r.event_lon`,
    from: sql`FROM rescue_events r JOIN devices d ON d.id = r.device_id JOIN agencies g ON g.id = r.agency_id
              LEFT JOIN installations i ON i.id = r.installation_id`,
    where: sql`r.id = ${id} AND ${pathInScope(scope, sql`r.index_link`)}`,
  })
}

/**
 * A location offset of the scope (device_events of kind offset: the id a type 3 message keeps);
 * its place is where the device was found, else its installation.
 */
export function offsetFocus(db: DbOrTx, scope: Scope, id: number) {
  const found = sql`e.offset_lat IS NOT NULL AND e.offset_lon IS NOT NULL`
  return focusRow(db, {
    select: sql`e.id, e.event_time, e.closed_at AS end_time, e.device_id, d.device_sn, NULL AS cabinet_sn,
                CASE WHEN ${found} THEN COALESCE(e.offset_location, e.install_location, i.location)
                     ELSE COALESCE(e.install_location, i.location) END AS location,
                e.offset_distance, ${messageOf(3, sql`e.id`)} AS message_id`,
    own: found,
    lat: sql`e.offset_lat`,
    lon: sql`e.offset_lon`,
    from: sql`FROM device_events e JOIN devices d ON d.id = e.device_id JOIN agencies g ON g.id = e.agency_id
              LEFT JOIN installations i ON i.id = e.installation_id`,
    where: sql`e.id = ${id} AND e.kind = 'offset' AND ${pathInScope(scope, sql`e.index_link`)}`,
  })
}

/**
 * A cabinet door event of the scope; its place is the cabinet's reported position, else the
 * installation of the AED bound at the time.
 */
export function doorFocus(db: DbOrTx, scope: Scope, id: number) {
  return focusRow(db, {
    select: sql`e.id, e.opened_at AS event_time, e.closed_at AS end_time, e.device_id, d.device_sn, c.cabinet_sn,
                COALESCE(e.location, c.location, i.location) AS location, NULL::int AS offset_distance,
                ${messageOf(4, sql`e.id`)} AS message_id`,
    own: sql`c.lat IS NOT NULL AND c.lon IS NOT NULL`,
    lat: sql`c.lat`,
    lon: sql`c.lon`,
    from: sql`FROM cabinet_door_events e JOIN cabinets c ON c.id = e.cabinet_id JOIN agencies g ON g.id = e.agency_id
              LEFT JOIN devices d ON d.id = e.device_id
              LEFT JOIN installations i ON i.device_id = e.device_id AND i.removed_at IS NULL`,
    where: sql`e.id = ${id} AND ${pathInScope(scope, sql`e.index_link`)}`,
  })
}
