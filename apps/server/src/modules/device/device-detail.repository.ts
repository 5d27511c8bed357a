import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { type DeviceEventKind, deviceInspections } from '../../db/schema.ts'
import { agencyIdInScope, pathInScope, type Scope } from '../../db/scope.ts'
import { many, one, type PageRequest, pageOf } from '../../db/sql.ts'
import { betweenDates } from '../../lib/time.ts'

/** A registered device of the scope, by serial: its installation and organisation. */
export type InstallationRow = {
  id: number
  device_sn: string
  installation_id: number
  agency_id: number
  index_link: string
}

/** The registered device with this serial whose installation lies in the scope. */
export function registeredBySerial(db: DbOrTx, scope: Scope, sn: string) {
  return one<InstallationRow>(
    db,
    sql`SELECT d.id, d.device_sn, i.id AS installation_id, i.agency_id, g.index_link
        FROM devices d JOIN installations i ON i.id = d.installation_id JOIN agencies g ON g.id = i.agency_id
        WHERE d.device_sn = ${sn} AND d.deleted_at IS NULL AND ${pathInScope(scope, sql`g.index_link`)}`,
  )
}

/**
 * The live device with this serial, when it is registered in the scope or belongs to the
 * scope's factory list; its row is locked, as the gateway locks it to process a message.
 */
export function lockDeviceBySerial(db: DbOrTx, scope: Scope, sn: string) {
  return one<{ id: number; device_sn: string; status: number }>(
    db,
    sql`SELECT d.id, d.device_sn, d.status FROM devices d
        JOIN agencies o ON o.id = d.agency_id
        LEFT JOIN installations i ON i.id = d.installation_id
        LEFT JOIN agencies g ON g.id = i.agency_id
        WHERE d.device_sn = ${sn} AND d.deleted_at IS NULL
          AND (${pathInScope(scope, sql`o.index_link`)} OR ${pathInScope(scope, sql`g.index_link`)})
        FOR UPDATE OF d`,
  )
}

/** The time span of a rescue of the device (a live device by serial) in the scope. */
export function rescueSpan(db: DbOrTx, scope: Scope, sn: string, rescueEventId: string) {
  return one<{ id: number; event_time: Date; ended_at: Date | null }>(
    db,
    sql`SELECT r.id, r.event_time, r.ended_at FROM rescue_events r JOIN devices d ON d.id = r.device_id
        WHERE d.device_sn = ${sn} AND d.deleted_at IS NULL AND r.rescue_event_id = ${rescueEventId}
          AND ${pathInScope(scope, sql`r.index_link`)}`,
  )
}

/** Records of a rescue's span only: from its start to its end (to now while it is under way). */
export type Span = { from: Date; to: Date | null }

const within = (column: SQL, span: Span | undefined): SQL[] =>
  span ? [sql`${column} >= ${span.from}`, ...(span.to ? [sql`${column} <= ${span.to}`] : [])] : []

/** The live device of a record, by serial. */
const ofSerial = (alias: SQL, sn: string) =>
  sql`${alias}.device_id IN (SELECT id FROM devices WHERE device_sn = ${sn} AND deleted_at IS NULL)`

/**
 * One page of a device's records (table alias `a`, the live device by serial), newest first by
 * `time`, under the scope's and the caller's conditions.
 */
function newestFirst<T>(
  db: DbOrTx,
  r: { a: string; columns: string; from: SQL; time: string; sn: string; where: SQL[] },
  page: PageRequest,
) {
  const a = sql.raw(r.a)
  return pageOf<T>(db, {
    select: sql`SELECT ${sql.raw(r.columns)} ${r.from}`,
    from: r.from,
    where: [ofSerial(a, r.sn), ...r.where],
    orderBy: [sql`${sql.raw(r.time)} DESC`, sql`${a}.id DESC`],
    ...page,
  })
}

export type DetectionRecord = {
  id: number
  report_type: number
  check_result: number
  fault_codes: string[]
  battery: number | null
  check_time: Date
}

/** The device's self-tests in the scope, newest first. */
export function detections(db: DbOrTx, scope: Scope, sn: string, page: PageRequest, span?: Span) {
  const columns = 'x.id, x.report_type, x.check_result, x.fault_codes, x.battery, x.check_time'
  const where = [pathInScope(scope, sql`x.index_link`), ...within(sql`x.check_time`, span)]
  const from = sql`FROM device_detections x`
  return newestFirst<DetectionRecord>(db, { a: 'x', columns, from, time: 'x.check_time', sn, where }, page)
}

export type EventRecord = {
  id: number
  code: string
  content: string | null
  event_time: Date
  closed_at: Date | null
  report_type: number | null
  handler_name: string | null
  handle_note: string | null
  handle_time: Date | null
  install_location: string | null
  offset_location: string | null
  offset_lat: number | null
  offset_lon: number | null
  offset_distance: number | null
}

/** The device's events of one kind in the scope, open and closed, newest first. */
export function events(
  db: DbOrTx,
  scope: Scope,
  sn: string,
  kind: DeviceEventKind,
  page: PageRequest,
  span?: Span,
) {
  const columns = `e.id, e.code, e.content, e.event_time, e.closed_at, e.report_type, e.handler_name,
    e.handle_note, e.handle_time, e.install_location, e.offset_location, e.offset_lat, e.offset_lon, e.offset_distance`
  const where = [
    pathInScope(scope, sql`e.index_link`),
    sql`e.kind = ${kind}`,
    ...within(sql`e.event_time`, span),
  ]
  const from = sql`FROM device_events e`
  return newestFirst<EventRecord>(db, { a: 'e', columns, from, time: 'e.event_time', sn, where }, page)
}

export type InspectionRecord = {
  id: number
  inspect_status: number
  process_content: string
  inspector_name: string
  inspect_time: Date
  imgs: string[]
}

/** The device's inspections recorded by the scope's organisations, newest first. */
export function inspections(db: DbOrTx, scope: Scope, sn: string, page: PageRequest, span?: Span) {
  const columns = 'n.id, n.inspect_status, n.process_content, n.inspector_name, n.inspect_time, n.imgs'
  const where = [agencyIdInScope(scope, sql`n.agency_id`), ...within(sql`n.inspect_time`, span)]
  const from = sql`FROM device_inspections n`
  return newestFirst<InspectionRecord>(db, { a: 'n', columns, from, time: 'n.inspect_time', sn, where }, page)
}

export type UsageLogRecord = {
  id: number
  rescue_event_id: string
  event_desc: string
  event_para: string | null
  event_time: Date
}

/** The device's usage log (of one rescue when given) in the scope, newest first. */
export function usageLogs(db: DbOrTx, scope: Scope, sn: string, page: PageRequest, rescueEventId?: string) {
  const columns = 'u.id, u.rescue_event_id, u.event_desc, u.event_para, u.event_time'
  const where = [
    pathInScope(scope, sql`r.index_link`),
    ...(rescueEventId === undefined ? [] : [sql`u.rescue_event_id = ${rescueEventId}`]),
  ]
  const from = sql`FROM device_usage_logs u JOIN rescue_events r ON r.id = u.rescue_id`
  return newestFirst<UsageLogRecord>(db, { a: 'u', columns, from, time: 'u.event_time', sn, where }, page)
}

export async function insertInspection(db: DbOrTx, values: typeof deviceInspections.$inferInsert) {
  const [row] = await db.insert(deviceInspections).values(values).returning()
  return row
}

/** The date range of a clean-up, on the column that says when a record happened. */
const inRange = (column: SQL, range: { start?: string; end?: string }) =>
  betweenDates(column, range.start, range.end) ?? sql`TRUE`

type Range = { start?: string; end?: string }

/** Deletes the device's events of these kinds in the scope and range; answers how many of each. */
export async function deleteEvents(
  db: DbOrTx,
  scope: Scope,
  deviceId: number,
  kinds: DeviceEventKind[],
  range: Range,
) {
  if (kinds.length === 0) return new Map<DeviceEventKind, number>()
  const rows = await many<{ kind: DeviceEventKind; n: number }>(
    db,
    sql`WITH gone AS (
          DELETE FROM device_events e
          WHERE e.device_id = ${deviceId} AND ${pathInScope(scope, sql`e.index_link`)}
            AND e.kind IN (${sql.join(
              kinds.map((k) => sql`${k}`),
              sql`, `,
            )})
            AND ${inRange(sql`e.event_time`, range)}
          RETURNING e.kind)
        SELECT kind, count(*) AS n FROM gone GROUP BY kind`,
  )
  return new Map(rows.map((r) => [r.kind, r.n]))
}

/** Deletes the device's rows of a table in the scope and range (by its `time` column); answers how many. */
async function deleteInRange(
  db: DbOrTx,
  table: 'rescue_events' | 'device_detections',
  time: 'event_time' | 'check_time',
  scope: Scope,
  deviceId: number,
  range: Range,
) {
  const row = await one<{ n: number }>(
    db,
    sql`WITH gone AS (
          DELETE FROM ${sql.identifier(table)} t
          WHERE t.device_id = ${deviceId} AND ${pathInScope(scope, sql`t.index_link`)}
            AND ${inRange(sql.raw(`t.${time}`), range)}
          RETURNING t.id)
        SELECT count(*) AS n FROM gone`,
  )
  return row?.n ?? 0
}

/** Deletes the device's rescues (and with them their usage logs) in the scope and range. */
export const deleteRescues = (db: DbOrTx, scope: Scope, deviceId: number, range: Range) =>
  deleteInRange(db, 'rescue_events', 'event_time', scope, deviceId, range)

/** Deletes the device's self-tests in the scope and range (faults they found keep their rows). */
export const deleteDetections = (db: DbOrTx, scope: Scope, deviceId: number, range: Range) =>
  deleteInRange(db, 'device_detections', 'check_time', scope, deviceId, range)

/** The kinds of the device's open events (every organisation's: status is the device's own). */
export async function openKinds(db: DbOrTx, deviceId: number) {
  const rows = await many<{ kind: DeviceEventKind }>(
    db,
    sql`SELECT DISTINCT kind FROM device_events WHERE device_id = ${deviceId} AND closed_at IS NULL`,
  )
  return rows.map((r) => r.kind)
}
