import { randomUUID } from 'node:crypto'
import type { DeviceListQuery } from '@aed/contracts/device'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many } from '../../db/sql.ts'
import { invalid } from '../../lib/errors.ts'
import { betweenDates, TIME_ZONE } from '../../lib/time.ts'
import { type Band, cableVoltageShown, registeredWhere } from './device.repository.ts'

// Exports read their rows in batches and hand each batch to the spreadsheet writer before the
// next is read, so an export of any size holds one batch. Each row travels as one JSON array:
// both drivers decode one text field per row several times faster than twenty typed ones
// (PGlite most of all), and decoding is most of an export's database time.

/** A field of an export row: its name and its SQL (over the query's table aliases). */
type Field<T> = readonly [name: keyof T & string, expr: SQL]

const jsonRow = (values: SQL[]) => sql`json_build_array(${sql.join(values, sql`, `)})::text`

/** A row object from its array of values (values past the fields are left out). */
function fromValues<T>(fields: readonly Field<T>[], values: unknown[]): T {
  const row: Record<string, unknown> = {}
  for (let i = 0; i < fields.length; i++) row[fields[i][0]] = values[i]
  return row as T
}

/**
 * A moment as the local time of the organisations' time zone; inside the JSON row it reads
 * 'YYYY-MM-DDTHH:mm:ss.ffffff' whatever the session's DateStyle (see `localTime` to show it).
 */
const atLocalTime = (column: SQL) => sql`(${column} AT TIME ZONE ${TIME_ZONE})`

/** 'YYYY-MM-DD HH:mm:ss' of an `atLocalTime` value, as formatDateTime writes it. */
export const localTime = (v: string) => `${v.slice(0, 10)} ${v.slice(11, 19)}`

/**
 * One term of a keyset order over the query's tables: its SQL type (the last value travels as
 * text and is cast back, so timestamps keep their microseconds), its direction, and whether it
 * can be NULL (PostgreSQL sorts NULL last ascending, first descending). `alias` is a column
 * joined equal to it (d.installation_id for i.id): the seek is repeated there, so the planner
 * starts both sides of the join at the last row instead of scanning one from its end.
 */
export type KeysetKey = {
  expr: SQL
  type: 'timestamptz' | 'date' | 'text' | 'integer' | 'bigint'
  desc?: boolean
  nullable?: boolean
  alias?: SQL
}

const castBack = (k: KeysetKey, v: string) => sql`CAST(${v} AS ${sql.raw(k.type)})`

/** The key sorts after `v`. Null: nothing sorts after it ascending. */
function beyond(k: KeysetKey, v: string | null): SQL | null {
  if (k.desc) return v === null ? sql`${k.expr} IS NOT NULL` : sql`${k.expr} < ${castBack(k, v)}`
  if (v === null) return null
  return k.nullable
    ? sql`(${k.expr} > ${castBack(k, v)} OR ${k.expr} IS NULL)`
    : sql`${k.expr} > ${castBack(k, v)}`
}

const same = (k: KeysetKey, v: string | null) =>
  v === null ? sql`${k.expr} IS NULL` : sql`${k.expr} = ${castBack(k, v)}`

/** The rows after `last` in the order of `keys`: a row comparison when it can be one, else the OR ladder. */
export function after(keys: KeysetKey[], last: (string | null)[]): SQL {
  const uniform = keys.every((k) => !k.nullable && Boolean(k.desc) === Boolean(keys[0].desc))
  let seek: SQL
  if (uniform && last.every((v) => v !== null)) {
    const left = sql.join(
      keys.map((k) => k.expr),
      sql`, `,
    )
    const right = sql.join(
      keys.map((k, i) => castBack(k, last[i] as string)),
      sql`, `,
    )
    seek = keys[0].desc ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`
  } else {
    const ladder: SQL[] = []
    for (let i = 0; i < keys.length; i++) {
      const step = beyond(keys[i], last[i])
      if (!step) continue
      const equalBefore = keys.slice(0, i).map((k, j) => same(k, last[j]))
      ladder.push(sql`(${sql.join([...equalBefore, step], sql` AND `)})`)
    }
    seek = ladder.length ? sql`(${sql.join(ladder, sql` OR `)})` : sql`FALSE`
  }
  const [first] = keys
  if (first.alias && !first.nullable && last[0] !== null) {
    // Every later row's first key is at or beyond the last one's: a loose bound on the alias.
    const bound = castBack(first, last[0])
    seek = sql`${seek} AND ${first.alias} ${first.desc ? sql`<=` : sql`>=`} ${bound}`
  }
  return seek
}

/** What an export reads: its fields, and `FROM ...` with the conditions, the tenancy one first. */
type ExportQuery<T> = { fields: readonly Field<T>[]; from: SQL; where: SQL[] }

/**
 * Reads an export in keyset batches of `size` in the order of `keys` (the last one unique): each
 * batch starts after the last row of the one before, so no OFFSET is paid and, with an index on
 * the keys, every batch costs the same.
 */
export async function* keysetBatches<T>(
  db: DbOrTx,
  q: ExportQuery<T>,
  keys: KeysetKey[],
  size: number,
): AsyncGenerator<T[]> {
  // The keys travel as text at the end of each row's array (one field a row, not one per key:
  // each field is a decode of its own in the drivers); only the last row's are read.
  const row = jsonRow([...q.fields.map((f) => f[1]), ...keys.map((k) => sql`(${k.expr})::text`)])
  const order = sql.join(
    keys.map((k) => (k.desc ? sql`${k.expr} DESC` : sql`${k.expr} ASC`)),
    sql`, `,
  )
  const n = q.fields.length
  let last: (string | null)[] | null = null
  for (;;) {
    const where = sql.join(last ? [...q.where, after(keys, last)] : q.where, sql` AND `)
    const rows = await many<{ r: string }>(
      db,
      sql`SELECT ${row} AS r ${q.from} WHERE ${where} ORDER BY ${order} LIMIT ${size}`,
    )
    if (rows.length === 0) return
    const values = rows.map((r) => JSON.parse(r.r) as unknown[])
    last = values[values.length - 1].slice(n) as (string | null)[]
    yield values.map((v) => fromValues(q.fields, v))
    if (rows.length < size) return
  }
}

/**
 * Reads an export in an order no index serves: the ids in that order first (one sort, numbers
 * only), then the rows by id, a batch at a time. A keyset over such an order would sort every
 * remaining row again for each batch. `aliases` are columns joined equal to the id.
 */
export async function* sortedBatches<T>(
  db: DbOrTx,
  q: ExportQuery<T>,
  id: SQL,
  aliases: SQL[],
  order: SQL[],
  size: number,
): AsyncGenerator<T[]> {
  const where = sql.join(q.where, sql` AND `)
  const ids = (
    await many<{ id: number }>(
      db,
      sql`SELECT ${id} AS id ${q.from} WHERE ${where} ORDER BY ${sql.join(order, sql`, `)}`,
    )
  ).map((r) => r.id)
  for (let i = 0; i < ids.length; i += size) {
    const chunk = ids.slice(i, i + size)
    const list = sql`${`{${chunk.join(',')}}`}::bigint[]`
    const byIds = sql.join(
      [id, ...aliases].map((c) => sql`${c} = ANY(${list})`),
      sql` AND `,
    )
    const rows = await many<{ id: number; r: string }>(
      db,
      sql`SELECT ${id} AS id, ${jsonRow(q.fields.map((f) => f[1]))} AS r ${q.from} WHERE ${where} AND ${byIds}`,
    )
    const byId = new Map(rows.map((r) => [r.id, r.r]))
    // Rows gone since the ids were read are left out.
    yield chunk.flatMap((x) => {
      const r = byId.get(x)
      return r === undefined ? [] : [fromValues(q.fields, JSON.parse(r) as unknown[])]
    })
  }
}

/**
 * Reads an export in an order no index serves through a cursor WITH HOLD, for PGlite: the query
 * runs once, sorted once, and the database keeps its result after the statement's own
 * transaction (a tuplestore, spilled to a temporary file past work_mem), so no transaction stays
 * open while the batches are fetched and other work goes on between them. Reading the rows back
 * by id (sortedBatches) costs PGlite an index probe per row: 100,000 sorted by battery took
 * 3.6-4.2 s that way, 2.2-2.4 s through the cursor. PostgreSQL cannot use it through a pool: a
 * cursor belongs to the connection that declared it.
 */
export async function* heldCursorBatches<T>(
  db: DbOrTx,
  q: ExportQuery<T>,
  order: SQL[],
  size: number,
): AsyncGenerator<T[]> {
  const cursor = sql.raw(`export_${randomUUID().replaceAll('-', '')}`)
  const where = sql.join(q.where, sql` AND `)
  await db.execute(
    sql`DECLARE ${cursor} NO SCROLL CURSOR WITH HOLD FOR
        SELECT ${jsonRow(q.fields.map((f) => f[1]))} AS r ${q.from} WHERE ${where}
        ORDER BY ${sql.join(order, sql`, `)}`,
  )
  try {
    for (;;) {
      const rows = await many<{ r: string }>(db, sql`FETCH FORWARD ${sql.raw(String(size))} FROM ${cursor}`)
      if (rows.length === 0) return
      yield rows.map((row) => fromValues(q.fields, JSON.parse(row.r) as unknown[]))
      if (rows.length < size) return
    }
  } finally {
    // Also when the export stops early (an error, a client gone): the result is freed now.
    await db.execute(sql`CLOSE ${cursor}`)
  }
}

/**
 * Reads the next batch while the consumer writes this one: on PostgreSQL the query runs in the
 * database server meanwhile, so reading and writing overlap instead of taking turns.
 */
export async function* prefetched<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]()
  let pending = it.next()
  try {
    for (;;) {
      const r = await pending
      if (r.done) return
      pending = it.next()
      // A consumer that stops early never awaits it: its failure must not go unhandled.
      pending.catch(() => {})
      yield r.value
    }
  } finally {
    // Stopped early (an error, or the consumer's own return): end the reader once its read is in.
    pending
      .then(
        () => it.return?.(),
        () => undefined,
      )
      .catch(() => {})
  }
}

/** Stops a batch reader with 导出数据过多 once it has given more than `limit` rows. */
export async function* capped<T>(batches: AsyncIterable<T[]>, limit: number): AsyncGenerator<T[]> {
  let n = 0
  for await (const batch of batches) {
    n += batch.length
    if (n > limit) throw invalid('EXPORT_TOO_LARGE')
    yield batch
  }
}

/** A registered device as the export writes it. */
export type ExportDeviceRow = {
  device_sn: string
  model: string
  /** As the list shows it: 0 when the installation hides abnormal states. */
  status: number
  battery: number | null
  agency_name: string
  address_code: string | null
  location: string
  location_desc: string | null
  manager_name: string | null
  manager_phone: string | null
  open_state: number
  battery_expire: string
  electrode_sheet_expire: string
  host_expire: string
  fw_version: string | null
  register_code: string
  /** Local time, 'YYYY-MM-DDTHH:mm:ss.ffffff' (see localTime). */
  register_time: string
  /** What the gateway last heard (device_states). */
  rssi: number | null
  positioning_type: string | null
  cable_voltage: number | null
}

const shownStatus = sql`CASE WHEN i.disable_abnormal_display = 1 THEN 0 ELSE d.status END`

/** A row as read: the manager's id, whose name and phone are looked up once per batch. */
type DeviceReadRow = Omit<ExportDeviceRow, 'manager_name' | 'manager_phone'> & { manager_id: number | null }

const deviceFields: readonly Field<DeviceReadRow>[] = [
  ['device_sn', sql`d.device_sn`],
  ['model', sql`d.model`],
  ['status', shownStatus],
  ['battery', sql`d.battery`],
  ['agency_name', sql`g.name`],
  ['address_code', sql`i.address_code`],
  ['location', sql`i.location`],
  ['location_desc', sql`i.location_desc`],
  ['manager_id', sql`i.device_manager_id`],
  ['open_state', sql`i.open_state`],
  ['battery_expire', sql`i.battery_expire`],
  ['electrode_sheet_expire', sql`i.electrode_sheet_expire`],
  ['host_expire', sql`i.host_expire`],
  ['fw_version', sql`d.fw_version`],
  ['register_code', sql`i.register_code`],
  ['register_time', atLocalTime(sql`i.register_time`)],
  ['rssi', sql`st.rssi`],
  ['positioning_type', sql`st.positioning_type`],
  ['cable_voltage', cableVoltageShown],
]

/**
 * The device list's FROM (the aliases its filters use). The managers are not joined: two joins
 * per row were most of a batch's time on PGlite (116 of 166 ms per 2,000 rows); a batch's few
 * hundred managers are read by id instead (withManagers).
 */
const deviceFrom = sql`FROM devices d
  JOIN installations i ON i.id = d.installation_id
  JOIN agencies g ON g.id = i.agency_id
  LEFT JOIN device_states st ON st.device_id = d.id`

/** Each batch with its managers' names and phones, read in one query per batch. */
async function* withManagers(
  db: DbOrTx,
  batches: AsyncIterable<DeviceReadRow[]>,
): AsyncGenerator<ExportDeviceRow[]> {
  for await (const batch of batches) {
    const ids = [...new Set(batch.flatMap((r) => (r.manager_id === null ? [] : [r.manager_id])))]
    const managers = ids.length
      ? await many<{ id: number; name: string; phone: string }>(
          db,
          sql`SELECT m.id, a.name, a.phone FROM members m JOIN accounts a ON a.id = m.account_id
              WHERE m.id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
        )
      : []
    const byId = new Map(managers.map((m) => [m.id, m]))
    // Completed in place: a copy of each row (it was one) is 100,000 more objects to collect.
    const rows = batch as (DeviceReadRow & ExportDeviceRow)[]
    for (const row of rows) {
      const m = row.manager_id === null ? undefined : byId.get(row.manager_id)
      row.manager_name = m?.name ?? null
      row.manager_phone = m?.phone ?? null
    }
    yield rows
  }
}

/** The list's sort fields no index serves (read through sortedBatches). */
const sortedOnly: Record<string, SQL> = {
  status: shownStatus,
  battery: sql`d.battery`,
  battery_expire: sql`i.battery_expire`,
  electrode_sheet_expire: sql`i.electrode_sheet_expire`,
  host_expire: sql`i.host_expire`,
}

/**
 * Every registered device of the scope matching the list's filters, in the list's order, in
 * batches. Newest registration first (the default) and register_time go by the installation's
 * id, which numbers installations as they are registered and has an index; device_sn by its
 * unique index; the other sort fields through sortedBatches, or a held cursor when `held` (one
 * connection whose session stays the reader's: PGlite's).
 */
export function registeredBatches(
  db: DbOrTx,
  scope: Scope,
  f: DeviceListQuery,
  bands: { battery: Band[]; expiry: Band[]; host: Band[] },
  today: Date,
  size: number,
  held = false,
): AsyncGenerator<ExportDeviceRow[]> {
  const q = { fields: deviceFields, from: deviceFrom, where: registeredWhere(scope, f, bands, today) }
  const name = f.order_by?.replace(/^-/, '')
  const desc = Boolean(f.order_by?.startsWith('-'))
  if (!name || name === 'register_time') {
    const key = {
      expr: sql`i.id`,
      alias: sql`d.installation_id`,
      type: 'bigint',
      desc: name ? desc : true,
    } as const
    return withManagers(db, keysetBatches(db, q, [key], size))
  }
  if (name === 'device_sn')
    return withManagers(db, keysetBatches(db, q, [{ expr: sql`d.device_sn`, type: 'text', desc }], size))
  if (!Object.hasOwn(sortedOnly, name)) throw invalid('ORDER_INVALID')
  const term = desc ? sql`${sortedOnly[name]} DESC` : sql`${sortedOnly[name]} ASC`
  const order = [term, sql`i.register_time DESC`, sql`i.id DESC`]
  if (held) return withManagers(db, heldCursorBatches(db, q, order, size))
  return withManagers(db, sortedBatches(db, q, sql`i.id`, [sql`d.installation_id`], order, size))
}

/** An inspection record with its device and installation, as the export writes it. */
export type ExportInspectionRow = {
  device_sn: string
  model: string
  agency_name: string
  location: string | null
  location_desc: string | null
  inspect_status: number
  process_content: string
  inspector_name: string
  /** Local time, 'YYYY-MM-DDTHH:mm:ss.ffffff' (see localTime). */
  inspect_time: string
}

const inspectionFields: readonly Field<ExportInspectionRow>[] = [
  ['device_sn', sql`d.device_sn`],
  ['model', sql`d.model`],
  ['agency_name', sql`g.name`],
  ['location', sql`i.location`],
  ['location_desc', sql`i.location_desc`],
  ['inspect_status', sql`r.inspect_status`],
  ['process_content', sql`r.process_content`],
  ['inspector_name', sql`r.inspector_name`],
  ['inspect_time', atLocalTime(sql`r.inspect_time`)],
]

/** Inspections of the scope's organisations on the dates start..end, newest first, in batches. */
export function inspectionBatches(db: DbOrTx, scope: Scope, start: string, end: string, size: number) {
  const from = sql`FROM device_inspections r
    JOIN devices d ON d.id = r.device_id
    JOIN agencies g ON g.id = r.agency_id
    LEFT JOIN installations i ON i.id = r.installation_id`
  const where = [pathInScope(scope, sql`g.index_link`), betweenDates(sql`r.inspect_time`, start, end) as SQL]
  return keysetBatches(
    db,
    { fields: inspectionFields, from, where },
    [
      { expr: sql`r.inspect_time`, type: 'timestamptz', desc: true },
      { expr: sql`r.id`, type: 'bigint', desc: true },
    ],
    size,
  )
}

/** A self-test (detection record) with its device and installation, as the export writes it. */
export type ExportDetectionRow = {
  device_sn: string
  model: string
  agency_name: string
  location: string | null
  location_desc: string | null
  report_type: number
  check_result: number
  fault_codes: string[]
  battery: number | null
  /** Local time, 'YYYY-MM-DDTHH:mm:ss.ffffff' (see localTime). */
  check_time: string
}

const detectionFields: readonly Field<ExportDetectionRow>[] = [
  ['device_sn', sql`d.device_sn`],
  ['model', sql`d.model`],
  ['agency_name', sql`g.name`],
  ['location', sql`i.location`],
  ['location_desc', sql`i.location_desc`],
  ['report_type', sql`r.report_type`],
  ['check_result', sql`r.check_result`],
  ['fault_codes', sql`r.fault_codes`],
  ['battery', sql`r.battery`],
  ['check_time', atLocalTime(sql`r.check_time`)],
]

/** Self-tests of the scope (by the path stored on each record) on the dates start..end, newest first. */
export function detectionBatches(db: DbOrTx, scope: Scope, start: string, end: string, size: number) {
  const from = sql`FROM device_detections r
    JOIN devices d ON d.id = r.device_id
    JOIN agencies g ON g.id = r.agency_id
    LEFT JOIN installations i ON i.id = r.installation_id`
  const where = [pathInScope(scope, sql`r.index_link`), betweenDates(sql`r.check_time`, start, end) as SQL]
  return keysetBatches(
    db,
    { fields: detectionFields, from, where },
    [
      { expr: sql`r.check_time`, type: 'timestamptz', desc: true },
      { expr: sql`r.id`, type: 'bigint', desc: true },
    ],
    size,
  )
}

/** A rescue with its device, installation and manager, as the export writes it. */
export type ExportRescueRow = {
  rescue_event_id: string
  device_sn: string
  model: string
  agency_name: string
  location: string | null
  location_desc: string | null
  manager_name: string | null
  event_location: string | null
  event_lat: number | null
  event_lon: number | null
  /** Local times, 'YYYY-MM-DDTHH:mm:ss.ffffff' (see localTime); ended_at null while under way. */
  event_time: string
  ended_at: string | null
}

const rescueFields: readonly Field<ExportRescueRow>[] = [
  ['rescue_event_id', sql`r.rescue_event_id`],
  ['device_sn', sql`d.device_sn`],
  ['model', sql`d.model`],
  ['agency_name', sql`g.name`],
  ['location', sql`i.location`],
  ['location_desc', sql`i.location_desc`],
  ['manager_name', sql`ma.name`],
  ['event_location', sql`r.event_location`],
  ['event_lat', sql`r.event_lat`],
  ['event_lon', sql`r.event_lon`],
  ['event_time', atLocalTime(sql`r.event_time`)],
  ['ended_at', atLocalTime(sql`r.ended_at`)],
]

/** Rescues of the scope (by the path stored on each) that began on the dates start..end, newest first. */
export function rescueBatches(db: DbOrTx, scope: Scope, start: string, end: string, size: number) {
  const from = sql`FROM rescue_events r
    JOIN devices d ON d.id = r.device_id
    JOIN agencies g ON g.id = r.agency_id
    LEFT JOIN installations i ON i.id = r.installation_id
    LEFT JOIN members mm ON mm.id = i.device_manager_id LEFT JOIN accounts ma ON ma.id = mm.account_id`
  const where = [pathInScope(scope, sql`r.index_link`), betweenDates(sql`r.event_time`, start, end) as SQL]
  return keysetBatches(
    db,
    { fields: rescueFields, from, where },
    [
      { expr: sql`r.event_time`, type: 'timestamptz', desc: true },
      { expr: sql`r.id`, type: 'bigint', desc: true },
    ],
    size,
  )
}
