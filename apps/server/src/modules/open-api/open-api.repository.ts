import { type SQL, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client.ts'
import { type LocalTime, openAt } from '../../db/opening-hours.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many, one, type PageRequest, pageOf } from '../../db/sql.ts'

/** An installed AED with its site, organisation, engine state and cabinet, as the open API reads it. */
export type OpenAedRow = {
  id: number
  sn: string
  model: string
  status: number
  disable_abnormal_display: number
  readiness: 'ready' | 'not_ready' | 'unknown'
  readiness_reasons: string[]
  last_pass_at: Date | null
  battery: number | null
  lat: number
  lon: number
  location: string
  location_desc: string | null
  address_code: string | null
  chest_shot_img: string
  long_shot_img: string
  open_state: number
  open_day: number[]
  open_time_period: [string, string][]
  agency_id: number
  agency_name: string
  cabinet_sn: string | null
  cabinet_door_status: number | null
  /** null: the cabinet never reported (or there is none). */
  cabinet_offline: boolean | null
  update_time: Date
  /** True for an AED that left the network (the status feed's removed rows); absent or false otherwise. */
  removed?: boolean
}

/** A nearby answer's row: the AED and its distance in metres (mean Earth radius). */
export type NearbyRow = OpenAedRow & { distance: number }

/** A device event with its device's serial. */
export type OpenEventRow = {
  id: number
  kind: 'fault' | 'warning' | 'offset' | 'offline'
  code: string
  sn: string
  agency_id: number
  event_time: Date
  closed_at: Date | null
  update_time: Date
}

/**
 * The Earth radius the answers' distances use (the mean radius, as the engine's distanceM and any
 * haversine an integrator writes). earthdistance's own `earth()` is 6378168 m: its distances are
 * scaled by MEAN_RADIUS / earth(), which is the same great-circle angle on the mean sphere.
 */
export const MEAN_RADIUS_M = 6371008.8

/**
 * When an AED's state last changed: its device row, its site (the register's edits) or the
 * engine's state (every applied message, the offline sweep). Each has an index from 0021.
 */
const changedAt = sql`greatest(d.update_time, i.update_time, s.update_time)`

// The live installation of a live device: both sides point at each other (installing sets both,
// removing clears both in one transaction).
function aedColumnsAt(updateTime: SQL) {
  return sql`
  d.id, d.device_sn AS sn, d.model, d.status, i.disable_abnormal_display, d.readiness, d.readiness_reasons,
  d.last_pass_at, d.battery, i.lat, i.lon, i.location, i.location_desc, i.address_code, i.chest_shot_img,
  i.long_shot_img, i.open_state, i.open_day, i.open_time_period, i.agency_id, g.name AS agency_name,
  c.cabinet_sn, c.door_status AS cabinet_door_status, cs.offline AS cabinet_offline, ${updateTime} AS update_time`
}
const aedColumns = aedColumnsAt(changedAt)
const aedJoins = sql`
  JOIN agencies g ON g.id = i.agency_id
  LEFT JOIN device_states s ON s.device_id = d.id
  LEFT JOIN cabinets c ON c.device_id = d.id AND c.deleted_at IS NULL
  LEFT JOIN cabinet_states cs ON cs.cabinet_id = c.id`
const aedFrom = sql`FROM devices d
  JOIN installations i ON i.id = d.installation_id AND i.device_id = d.id AND i.removed_at IS NULL
  ${aedJoins}`
const live = sql`d.deleted_at IS NULL`

export type { LocalTime }

/**
 * The AEDs of the scope ready now, open at `at` and shown to the public (xcx_display 1) within
 * `radius` metres of a GCJ-02 point, nearest first. The GiST index installations_earth_idx (0020)
 * serves both the box and the order: its predicate is stated as is, and the order is the cube
 * distance `<->` (the chord, in the order of the distance on the ground) alone: a second sort key
 * (an id for ties) made PostgreSQL 15 sort the whole box instead of walking the index in order.
 */
export function nearbyAeds(db: Db, scope: Scope, q: NearbyAt) {
  return withNearbyPlanner(db, (tx) => many<NearbyRow>(tx, nearbySql(scope, q)))
}

/**
 * Runs `fn` where the planner walks the GiST index in distance order. Its estimate of `@>` on a
 * cube is a constant (a box holds about 0.1 % of the rows), so on its own it prefers a bitmap scan
 * of the whole box and a sort: in a city's centre the 5 km box holds some 10,000 installations,
 * each joined before the sort (340 ms at 100,000 AEDs), where the ordered walk reads a dozen
 * (under 1 ms). Without bitmap scans it still chooses the organisation's own installations by
 * their agency index when the scope is small. SET LOCAL: for this transaction only.
 */
function withNearbyPlanner<T>(db: Db, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_bitmapscan = off`)
    return fn(tx)
  })
}

/** The plan of nearbyAeds as it runs (EXPLAIN, with ANALYZE when asked): the tests and the benchmark read it. */
export async function explainNearby(db: Db, scope: Scope, q: NearbyAt, analyze = false) {
  const rows = await withNearbyPlanner(db, (tx) =>
    many<{ 'QUERY PLAN': string }>(
      tx,
      sql`EXPLAIN ${sql.raw(analyze ? '(ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' : '')}${nearbySql(scope, q)}`,
    ),
  )
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}

/** Where and when a nearby search looks: a GCJ-02 point, metres, rows, and China's time. */
export type NearbyAt = { lat: number; lon: number; radius: number; limit: number; at: LocalTime }

/** The SQL of nearbyAeds. */
function nearbySql(scope: Scope, q: NearbyAt): SQL {
  const here = sql`ll_to_earth(${q.lat}::float8, ${q.lon}::float8)`
  const there = sql`ll_to_earth(i.lat, i.lon)`
  const distance = sql`(earth_distance(${there}, ${here}) * ${MEAN_RADIUS_M}::float8 / earth())`
  return sql`
    SELECT ${aedColumns}, ${distance} AS distance
    FROM installations i
    JOIN devices d ON d.id = i.device_id AND d.installation_id = i.id
    ${aedJoins}
    WHERE i.removed_at IS NULL AND i.device_id IS NOT NULL
      AND earth_box(${here}, ${q.radius}::float8 * earth() / ${MEAN_RADIUS_M}::float8) @> ${there}
      AND ${distance} <= ${q.radius}::float8
      AND ${live} AND d.readiness = 'ready' AND i.xcx_display = 1
      AND ${openAt(q.at)}
      AND ${pathInScope(scope, sql`g.index_link`)}
    ORDER BY ${there} <-> ${here}
    LIMIT ${q.limit}`
}

/** One installed AED of the scope by its serial, whatever its readiness. */
export function aedBySn(db: DbOrTx, scope: Scope, sn: string) {
  return one<OpenAedRow>(
    db,
    sql`SELECT ${aedColumns} ${aedFrom}
        WHERE d.device_sn = ${sn} AND ${live} AND ${pathInScope(scope, sql`g.index_link`)}`,
  )
}

/** Installed AEDs by device id, in no scope (the caller has chosen them), in the ids' order. */
export async function aedsByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  const rows = await many<OpenAedRow>(
    db,
    sql`SELECT ${aedColumns} ${aedFrom}
        WHERE d.id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) AND ${live}`,
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/**
 * A page of the scope's installed AEDs whose state changed at or after `since`, oldest change
 * first (then by id), so a poller pages forward. The candidates come from the three change
 * times' own indexes (0021) before the join. With `since`, the AEDs of the scope that left the
 * network at or after it (removed: true, at the time they left) are paged with them.
 */
export function aedsChangedSince(db: DbOrTx, scope: Scope, since: Date | null, page: PageRequest) {
  const inScope = pathInScope(scope, sql`g.index_link`)
  const where: SQL[] = [inScope, live]
  if (!since) {
    return changeFeed<OpenAedRow>(
      db,
      { columns: aedColumns, from: aedFrom, where, changedAt, id: sql`d.id` },
      page,
    )
  }
  const at = sql`${since.toISOString()}::timestamptz`
  where.push(sql`d.id IN (
    SELECT device_id FROM device_states WHERE update_time >= ${at}
    UNION SELECT id FROM devices WHERE update_time >= ${at} AND deleted_at IS NULL
    UNION SELECT device_id FROM installations
      WHERE update_time >= ${at} AND removed_at IS NULL AND device_id IS NOT NULL)`)
  where.push(sql`${changedAt} >= ${at}`)
  // Both parts in one paged query: the live AEDs changed since, and those that left since.
  const from = sql`FROM (
    SELECT ${aedColumns}, false AS removed ${aedFrom} WHERE ${sql.join(where, sql` AND `)}
    UNION ALL
    SELECT ${aedColumnsAt(removedAt)}, true AS removed ${removedFrom}
    WHERE ${inScope} AND ${removedAt} >= ${at}
      AND (d.deleted_at IS NOT NULL OR d.installation_id IS NULL)
      AND d.id IN (${removedSince(at)})
  ) f`
  return pageOf<OpenAedRow>(db, {
    select: sql`SELECT f.* ${from}`,
    from,
    where: [],
    orderBy: [sql`f.update_time`, sql`f.id`],
    ...page,
  })
}

/**
 * An AED that left the network: a device deleted, or one with no live installation. Its place is
 * the installation it left: the one it still points at (deleted while installed), else the last
 * one whose install information was deleted with it in it (the change record's old_device_sn:
 * uninstalling clears the installation's device_id). It left at the later of the two times.
 */
const removedFrom = sql`FROM devices d
  JOIN LATERAL (
    SELECT li.* FROM installations li WHERE li.id = d.installation_id
    UNION ALL
    (SELECT li.* FROM installation_changes ic JOIN installations li ON li.id = ic.installation_id
     WHERE d.installation_id IS NULL AND ic.update_type = 5 AND ic.old_device_sn = d.device_sn
       AND li.removed_at IS NOT NULL
     ORDER BY li.removed_at DESC LIMIT 1)
  ) i ON TRUE
  ${aedJoins}`
const removedAt = sql`greatest(d.deleted_at, i.removed_at)`

/** The devices deleted or uninstalled at or after `at`, from 0023's indexes. */
function removedSince(at: SQL): SQL {
  return sql`SELECT id FROM devices WHERE deleted_at >= ${at}
    UNION SELECT dd.id FROM installations ri
      JOIN installation_changes ric ON ric.installation_id = ri.id AND ric.update_type = 5
      JOIN devices dd ON dd.device_sn = ric.old_device_sn
      WHERE ri.removed_at >= ${at}`
}

/** A change feed's page: oldest change first (`changedAt`), then by id, so a poller pages forward. */
function changeFeed<T>(
  db: DbOrTx,
  q: { columns: SQL; from: SQL; where: SQL[]; changedAt: SQL; id: SQL },
  page: PageRequest,
) {
  const { columns, from, where, changedAt: at, id } = q
  return pageOf<T>(db, { select: sql`SELECT ${columns} ${from}`, from, where, orderBy: [at, id], ...page })
}

/**
 * When a device event last changed: opened, closed or handled (the expression of 0021's
 * device_events_changed_idx).
 */
const eventChangedAt = sql`greatest(e.event_time, e.closed_at, e.handle_time)`
const eventColumns = sql`e.id, e.kind, e.code, d.device_sn AS sn, e.agency_id, e.event_time, e.closed_at,
  ${eventChangedAt} AS update_time`
const eventFrom = sql`FROM device_events e JOIN devices d ON d.id = e.device_id`

/** A page of the scope's device events (by the path stored on each) changed at or after `since`, oldest change first. */
export function eventsChangedSince(db: DbOrTx, scope: Scope, since: Date | null, page: PageRequest) {
  const where: SQL[] = [pathInScope(scope, sql`e.index_link`)]
  if (since) where.push(sql`${eventChangedAt} >= ${since.toISOString()}::timestamptz`)
  const feed = { columns: eventColumns, from: eventFrom, where, changedAt: eventChangedAt, id: sql`e.id` }
  return changeFeed<OpenEventRow>(db, feed, page)
}

/** Device events by id, in one query and no scope (the caller has chosen them). */
export function eventsByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return many<OpenEventRow>(
    db,
    sql`SELECT ${eventColumns} ${eventFrom} WHERE e.id = ANY(${sql.param(ids)}::bigint[])`,
  )
}

/** A classroom item as a mini-program lists it. */
export type OpenClassroomRow = {
  id: number
  category: number
  title: string
  describe: string
  link: string
  illustration: string | null
  content_type: number
  create_time: Date
}

/**
 * A page of the classroom items the organisation sees, newest first: those owned in its subtree,
 * as the console's classroom list shows its members.
 */
export function classroomPage(db: DbOrTx, scope: Scope, q: PageRequest & { category?: number }) {
  const from = sql`FROM classrooms c JOIN agencies g ON g.id = c.agency_id`
  const where: SQL[] = [pathInScope(scope, sql`g.index_link`)]
  if (q.category !== undefined) where.push(sql`c.category = ${q.category}`)
  return pageOf<OpenClassroomRow>(db, {
    select: sql`SELECT c.id, c.category, c.title, c.describe, c.link, c.illustration, c.content_type,
      c.create_time ${from}`,
    from,
    where,
    orderBy: [sql`c.create_time DESC`, sql`c.id DESC`],
    page: q.page,
    page_size: q.page_size,
  })
}
