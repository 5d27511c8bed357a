import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import type { messageEscalations, messages } from '../../db/schema.ts'
import type { Scope } from '../../db/scope.ts'
import { many, one } from '../../db/sql.ts'

/** A message as stored, with its organisation's name: what the presenter turns into the wire shape. */
export type MessageDbRow = Pick<
  typeof messages.$inferSelect,
  | 'id'
  | 'msg_type'
  | 'event_type'
  | 'event_id'
  | 'device_id'
  | 'device_sn'
  | 'cabinet_sn'
  | 'location'
  | 'agency_id'
  | 'index_link'
  | 'detail'
  | 'is_confirm'
  | 'confirmed_name'
  | 'escalation_level'
> & {
  agency_name: string
  /** ISO text (COLUMNS), so a pushed row and a fetched one are the same JSON. */
  msg_time: string
  confirm_time: string | null
}

/** A new message: the facts of its event and who may see it, and when it escalates first. */
export type NewMessage = Omit<
  MessageDbRow,
  'id' | 'agency_name' | 'msg_time' | 'is_confirm' | 'confirmed_name' | 'confirm_time' | 'escalation_level'
> & { msg_time: Date; escalate_at: Date | null }

// Times travel as ISO text so a pushed row and a fetched one are the same JSON.
const COLUMNS = sql`m.id::int, m.msg_type, m.event_type, m.event_id::int, m.device_id::int, m.device_sn,
  m.cabinet_sn, m.location, m.agency_id::int, a.name AS agency_name, m.index_link,
  to_char(m.msg_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS msg_time, m.detail, m.is_confirm,
  m.confirmed_name,
  to_char(m.confirm_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS confirm_time, m.escalation_level`

const inScope = (scope: Scope) => sql`m.index_link LIKE ${`${scope.index_link}%`}`

/** Writes a message once per (type, event): answers it, or null when it exists already. */
export async function insertMessage(tx: DbOrTx, m: NewMessage): Promise<MessageDbRow | null> {
  const created = await one<{ id: number }>(
    tx,
    sql`INSERT INTO messages (msg_type, event_type, event_id, device_id, device_sn, cabinet_sn, location,
          agency_id, index_link, msg_time, detail, escalate_at)
        VALUES (${m.msg_type}, ${m.event_type}, ${m.event_id}, ${m.device_id}, ${m.device_sn}, ${m.cabinet_sn},
          ${m.location}, ${m.agency_id}, ${m.index_link}, ${m.msg_time.toISOString()}::timestamptz,
          ${JSON.stringify(m.detail)}::jsonb, ${m.escalate_at?.toISOString() ?? null}::timestamptz)
        ON CONFLICT (msg_type, event_id) DO NOTHING
        RETURNING id::int`,
  )
  return created ? findMessage(tx, created.id) : null
}

/** One message by id (no scope: the caller checks it, or it is the system's own work). */
export function findMessage(db: DbOrTx, id: number) {
  return one<MessageDbRow>(
    db,
    sql`SELECT ${COLUMNS} FROM messages m JOIN agencies a ON a.id = m.agency_id WHERE m.id = ${id}`,
  )
}

/** One message of the scope. */
export function findMessageInScope(db: DbOrTx, scope: Scope, id: number) {
  return one<MessageDbRow>(
    db,
    sql`SELECT ${COLUMNS} FROM messages m JOIN agencies a ON a.id = m.agency_id
        WHERE m.id = ${id} AND ${inScope(scope)}`,
  )
}

/** A page of the scope's messages, newest first, and how many there are. */
export async function listMessages(
  db: DbOrTx,
  scope: Scope,
  q: { page: number; page_size: number; is_confirm?: number },
) {
  const where = sql.join(
    [inScope(scope), q.is_confirm === undefined ? undefined : sql`m.is_confirm = ${q.is_confirm}`].filter(
      (w) => w !== undefined,
    ),
    sql` AND `,
  )
  const [rows, total] = await Promise.all([
    many<MessageDbRow>(
      db,
      sql`SELECT ${COLUMNS} FROM messages m JOIN agencies a ON a.id = m.agency_id WHERE ${where}
          ORDER BY m.msg_time DESC, m.id DESC LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
    ),
    one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM messages m WHERE ${where}`),
  ])
  return { count: total?.n ?? 0, rows }
}

/** How many of the scope's messages nobody has confirmed. */
export async function unconfirmedCount(db: DbOrTx, indexLink: string): Promise<number> {
  const r = await one<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM messages WHERE is_confirm = 0 AND index_link LIKE ${`${indexLink}%`}`,
  )
  return r?.n ?? 0
}

/** Confirms for everyone, once: answers true when this call confirmed it; stops its escalation. */
export async function confirmMessage(
  tx: DbOrTx,
  id: number,
  by: { member_id: number; name: string },
  now: Date,
): Promise<boolean> {
  const r = await one<{ id: number }>(
    tx,
    sql`UPDATE messages SET is_confirm = 1, confirmed_by = ${by.member_id}, confirmed_name = ${by.name},
          confirm_time = ${now.toISOString()}::timestamptz, escalate_at = NULL
        WHERE id = ${id} AND is_confirm = 0 RETURNING id::int`,
  )
  return r !== null
}

/** The escalation steps of messages, oldest first. */
export function escalationsOf(db: DbOrTx, messageIds: number[]) {
  if (messageIds.length === 0) return Promise.resolve([])
  return many<
    Pick<
      typeof messageEscalations.$inferSelect,
      'message_id' | 'level' | 'agency_name' | 'recipients' | 'create_time'
    >
  >(
    db,
    sql`SELECT message_id::int, level, agency_name, recipients, create_time FROM message_escalations
        WHERE message_id IN (${sql.join(
          messageIds.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY message_id, level`,
  )
}

/** What a rescue's or an offset event's message says of it: the device, where and when. */
type EventFacts = {
  id: number
  device_id: number
  device_sn: string
  agency_id: number
  index_link: string
  event_time: Date
  location: string | null
}

/** The facts of a rescue for its message and alarm. */
export function rescueFacts(db: DbOrTx, rescueId: number) {
  return one<EventFacts>(
    db,
    sql`SELECT r.id::int, r.device_id::int, d.device_sn, r.agency_id::int, r.index_link, r.event_time,
          COALESCE(r.event_location, i.location) AS location
        FROM rescue_events r JOIN devices d ON d.id = r.device_id
        LEFT JOIN installations i ON i.id = r.installation_id
        WHERE r.id = ${rescueId}`,
  )
}

/** The facts of a location-offset event for its message. */
export function offsetFacts(db: DbOrTx, eventId: number) {
  return one<EventFacts & { offset_distance: number | null }>(
    db,
    sql`SELECT e.id::int, e.device_id::int, d.device_sn, e.agency_id::int, e.index_link, e.event_time,
          COALESCE(e.install_location, i.location) AS location, e.offset_distance
        FROM device_events e JOIN devices d ON d.id = e.device_id
        LEFT JOIN installations i ON i.id = e.installation_id
        WHERE e.id = ${eventId} AND e.kind = 'offset'`,
  )
}

/** The facts of a cabinet door event for its message and alarm (type 4). */
export function doorFacts(db: DbOrTx, doorEventId: number) {
  return one<{
    id: number
    cabinet_sn: string
    device_id: number | null
    device_sn: string | null
    agency_id: number
    index_link: string
    opened_at: Date
    location: string | null
  }>(
    db,
    sql`SELECT e.id::int, c.cabinet_sn, e.device_id::int, d.device_sn, e.agency_id::int, e.index_link,
          e.opened_at, COALESCE(e.location, c.location) AS location
        FROM cabinet_door_events e JOIN cabinets c ON c.id = e.cabinet_id
        LEFT JOIN devices d ON d.id = e.device_id
        WHERE e.id = ${doorEventId}`,
  )
}

/** The facts of a call for its message and alarm (type 1): where, who called, and its owner. */
export function callFacts(db: DbOrTx, callId: number) {
  return one<{
    id: number
    agency_id: number
    index_link: string
    call_time: Date
    location: string
    phone: string
  }>(
    db,
    sql`SELECT id, agency_id, index_link, call_time, location, phone FROM call_events WHERE id = ${callId}`,
  )
}
