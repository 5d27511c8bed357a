import type { CallOutcome } from '@aed/contracts/call'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { callEvents } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many, one, paginate } from '../../db/sql.ts'

/** A call with its organisation and the rescue that answered it. */
export type CallRow = {
  id: number
  agency_id: number
  agency_name: string
  index_link: string
  source: 'console' | 'open_api'
  config_id: number | null
  external_id: string | null
  recorder: string | null
  phone: string
  lat: number
  lon: number
  location: string
  address_code: string | null
  description: string | null
  call_time: Date
  status: number
  outcome: CallOutcome | null
  closed_at: Date | null
  close_reason: 'integrator' | 'member' | 'timeout' | null
  remark: string | null
  create_time: Date
  rescue_id: number | null
  rescue_distance: number | null
  rescue_device_id: number | null
  rescue_device_sn: string | null
  rescue_time: Date | null
  rescue_event_id: string | null
  rescue_lat: number | null
  rescue_lon: number | null
}

const columns = sql`
  c.id, c.agency_id, g.name AS agency_name, c.index_link, c.source, c.config_id, c.external_id, c.recorder,
  c.phone, c.lat, c.lon, c.location, c.address_code, c.description, c.call_time, c.status, c.outcome,
  c.closed_at, c.close_reason, c.remark, c.create_time, c.rescue_id, c.rescue_distance,
  r.device_id AS rescue_device_id, d.device_sn AS rescue_device_sn, r.event_time AS rescue_time,
  r.rescue_event_id, coalesce(r.event_lat, ri.lat) AS rescue_lat, coalesce(r.event_lon, ri.lon) AS rescue_lon`
/** A call's organisation and the rescue that answered it (and where), joined by key. */
const joins = sql`
  JOIN agencies g ON g.id = c.agency_id
  LEFT JOIN rescue_events r ON r.id = c.rescue_id
  LEFT JOIN installations ri ON ri.id = r.installation_id
  LEFT JOIN devices d ON d.id = r.device_id`
const select = sql`SELECT ${columns} FROM call_events c ${joins}`
const newestFirst = sql`c.call_time DESC, c.id DESC`
const oldestFirst = sql`c.call_time, c.id`
const scoped = (scope: Scope) => pathInScope(scope, sql`c.index_link`)

/** The list's filters (region by its code's prefix, times as instants). */
export type CallFilter = {
  phone?: string
  status?: number
  outcome?: CallOutcome
  prefix: string | null
  start_time?: string
  end_time?: string
}

function conditions(scope: Scope, f: CallFilter): SQL[] {
  const where: SQL[] = [scoped(scope)]
  // Digits and a dash only reach here (the filter is a phone): no LIKE escaping needed beyond them.
  if (f.phone) where.push(sql`c.phone LIKE ${`%${f.phone.replace(/[^\d-]/g, '')}%`}`)
  if (f.status !== undefined) where.push(sql`c.status = ${f.status}`)
  if (f.outcome) where.push(sql`c.outcome = ${f.outcome}`)
  if (f.prefix) where.push(sql`c.address_code LIKE ${`${f.prefix}%`}`)
  if (f.start_time) where.push(sql`c.call_time >= ${f.start_time}::timestamptz`)
  if (f.end_time) where.push(sql`c.call_time <= ${f.end_time}::timestamptz`)
  return where
}

/**
 * One page of the scope's calls, newest first (and a count when the page is full). The page is
 * chosen from call_events alone and only its rows are joined to their organisation and rescue, by
 * key: joined before the limit, a deep page joined every call before its offset (the last page of
 * 50,000: 158-263 ms), and the count had no need of the organisations at all. Past the middle of
 * the list the page is read from the oldest end: an offset is walked row by row, and the last page
 * of 50,000 still took 60 ms on PGlite from the newest end.
 */
export async function listPage(
  db: DbOrTx,
  scope: Scope,
  f: CallFilter & { page: number; page_size: number },
) {
  const where = sql.join(conditions(scope, f), sql` AND `)
  const rows = (order: SQL, limit: number, offset: number) =>
    many<CallRow>(
      db,
      sql`SELECT ${columns}
          FROM (SELECT c.* FROM call_events c WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) c
          ${joins}
          ORDER BY ${newestFirst}`,
    )
  const total = async () =>
    (await one<{ n: number }>(db, sql`SELECT count(*) AS n FROM call_events c WHERE ${where}`))?.n ?? 0
  if (f.page === 1) return paginate(f, (limit, offset) => rows(newestFirst, limit, offset), total)
  const count = await total()
  const offset = (f.page - 1) * f.page_size
  // The calls from this page's first to the oldest: fewer than those before it, walk those.
  const rest = count - offset
  if (rest <= 0) return { count, rows: [] }
  if (offset <= rest) return { count, rows: await rows(newestFirst, f.page_size, offset) }
  const n = Math.min(f.page_size, rest)
  return { count, rows: await rows(oldestFirst, n, rest - n) }
}

/** A call, only when the scope sees it. */
export function findInScope(db: DbOrTx, scope: Scope, id: number) {
  return one<CallRow>(db, sql`${select} WHERE c.id = ${id} AND ${scoped(scope)}`)
}

/** Calls by id (the webhooks' objects). */
export function findByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return many<CallRow>(
    db,
    sql`${select} WHERE c.id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  )
}

/** An integrator's call by its own id. */
export function findByExternalId(db: DbOrTx, configId: number, externalId: string) {
  return one<CallRow>(db, sql`${select} WHERE c.config_id = ${configId} AND c.external_id = ${externalId}`)
}

export type NewCall = Omit<typeof callEvents.$inferInsert, 'id' | 'status' | 'create_time'>

/**
 * Writes a call; an integrator's external_id already taken writes nothing. Answers the new id, or
 * null for a repeat (the caller reads the first one).
 */
export async function insertCall(db: DbOrTx, c: NewCall, now: Date): Promise<number | null> {
  const [row] = await db
    .insert(callEvents)
    .values({ ...c, create_time: now })
    .onConflictDoNothing()
    .returning({ id: callEvents.id })
  return row?.id ?? null
}

/** Closes an open call (answers false when it was closed meanwhile). */
export async function closeCall(
  db: DbOrTx,
  id: number,
  c: {
    outcome: CallOutcome | null
    reason: 'integrator' | 'member' | 'timeout'
    by: number | null
    remark: string | null
  },
  now: Date,
) {
  const row = await one<{ id: number }>(
    db,
    sql`UPDATE call_events SET status = 0, outcome = coalesce(${c.outcome}, outcome), close_reason = ${c.reason},
          closed_by = ${c.by}, remark = ${c.remark}, closed_at = ${now.toISOString()}::timestamptz
        WHERE id = ${id} AND status = 1 RETURNING id`,
  )
  return row !== null
}

/**
 * Open calls whose time ran out, oldest first, locked for this transaction (instances share the
 * work). NO KEY UPDATE: a transaction writing a row that refers to the call (its dispatch) holds a
 * key-share lock on it, which must not make the call look taken.
 */
export function dueToClose(db: DbOrTx, now: Date, limit: number) {
  return many<{ id: number; agency_id: number; index_link: string }>(
    db,
    sql`SELECT id, agency_id, index_link FROM call_events
        WHERE status = 1 AND close_due_at <= ${now.toISOString()}::timestamptz
        ORDER BY close_due_at LIMIT ${limit} FOR NO KEY UPDATE SKIP LOCKED`,
  )
}

/** The dashboard's layer: the scope's calls in the region, open or since `since`, newest first. */
export function locations(db: DbOrTx, scope: Scope, prefix: string | null, since: Date, limit: number) {
  const region = prefix ? sql`AND c.address_code LIKE ${`${prefix}%`}` : sql``
  return many<{
    id: number
    lon: number
    lat: number
    location: string
    call_time: Date
    status: number
    total: number
  }>(
    db,
    sql`SELECT c.id, c.lon, c.lat, c.location, c.call_time, c.status, count(*) OVER () AS total
        FROM call_events c
        WHERE ${scoped(scope)} AND (c.status = 1 OR c.call_time >= ${since.toISOString()}::timestamptz) ${region}
        ORDER BY ${newestFirst} LIMIT ${limit}`,
  )
}

/**
 * Links rescues to the calls they answered: a rescue that started within `windowMs` after an open
 * call, within the call's organisation's radius (metres; `defaultRadius` when unsaved), and no
 * call yet. Each call takes its nearest such rescue, each rescue one call. Rescues of the last
 * `lookbackMs` only. Answers the linked pairs.
 */
export function linkRescues(
  db: DbOrTx,
  now: Date,
  windowMs: number,
  lookbackMs: number,
  defaultRadius: number,
) {
  const since = new Date(now.getTime() - lookbackMs).toISOString()
  return many<{ call_id: number; rescue_id: number; agency_id: number; index_link: string }>(
    db,
    sql`
    WITH pairs AS (
      SELECT c.id AS call_id, r.id AS rescue_id,
             round(earth_distance(ll_to_earth(c.lat, c.lon),
                   ll_to_earth(coalesce(r.event_lat, i.lat), coalesce(r.event_lon, i.lon))))::int AS distance,
             coalesce((st.config->>'call_radius_m')::int, ${defaultRadius}) AS radius
      FROM rescue_events r
      LEFT JOIN installations i ON i.id = r.installation_id
      JOIN call_events c ON c.status = 1 AND c.rescue_id IS NULL
        AND r.event_time >= c.call_time AND r.event_time <= c.call_time + ${windowMs} * interval '1 millisecond'
      LEFT JOIN agency_settings st ON st.agency_id = c.agency_id
      WHERE r.event_time >= ${since}::timestamptz
        AND coalesce(r.event_lat, i.lat) IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM call_events x WHERE x.rescue_id = r.id)
    ),
    near AS (
      SELECT DISTINCT ON (call_id) call_id, rescue_id, distance FROM pairs
      WHERE distance <= radius ORDER BY call_id, distance, rescue_id
    ),
    once AS (
      SELECT DISTINCT ON (rescue_id) call_id, rescue_id, distance FROM near ORDER BY rescue_id, distance, call_id
    )
    UPDATE call_events c SET rescue_id = once.rescue_id, rescue_distance = once.distance,
           outcome = coalesce(c.outcome, 'aed_used')
    FROM once WHERE c.id = once.call_id AND c.rescue_id IS NULL
    RETURNING c.id AS call_id, c.rescue_id, c.agency_id, c.index_link`,
  )
}

/** What a call's timeline reads besides the call: its message (confirmed by whom), escalations and SMS. */
export async function timelineFacts(db: DbOrTx, callId: number, agencyId: number) {
  const message = await one<{
    id: number
    msg_time: Date
    is_confirm: number
    confirmed_name: string | null
    confirm_time: Date | null
  }>(
    db,
    sql`SELECT id, msg_time, is_confirm, confirmed_name, confirm_time FROM messages
        WHERE msg_type = 1 AND event_id = ${callId}`,
  )
  const escalations = message
    ? await many<{ level: number; recipients: number; create_time: Date; agency_name: string }>(
        db,
        sql`SELECT e.level, e.recipients, e.create_time, g.name AS agency_name FROM message_escalations e
            JOIN agencies g ON g.id = e.agency_id WHERE e.message_id = ${message.id} ORDER BY e.level`,
      )
    : []
  const sms = await many<{ phone: string; status: string | null; create_time: Date; sent_at: Date | null }>(
    db,
    sql`SELECT a.phone, o.status, a.create_time, o.sent_at FROM sms_alerts a LEFT JOIN sms_outbox o ON o.id = a.sms_id
        WHERE a.agency_id = ${agencyId} AND a.dedupe_key LIKE ${`call:${callId}:%`} ORDER BY a.id`,
  )
  return { message, escalations, sms }
}
