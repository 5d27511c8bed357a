import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'

// The device inbox (device_inbox): every accepted message of an AED or a cabinet, stored once by
// (sender, message id) before it is applied, with what became of it.

const iso = (d: Date) => d.toISOString()

/** A message as the inbox holds it. */
export type InboxRow = {
  id: number
  sender_kind: 'aed' | 'cabinet'
  sender_id: number
  msg_id: string
  type: string
  boot: number
  seq: number
  event_time: Date
  received_at: Date
  data: Record<string, unknown>
  outcome: string | null
}

export type NewInboxRow = Omit<InboxRow, 'id' | 'outcome'> & {
  device_ts: Date | null
  ts_flagged: boolean
  transport: 'mqtt' | 'https'
}

/**
 * Stores a message once; null when this (sender, id) was stored before (a duplicate). With
 * `applied`, the row is stored as applied at that time: the transaction that applies it inserts
 * it so, and only the rarer outcomes (stale, ignored) update it afterwards.
 */
export async function insertInbox(tx: DbOrTx, r: NewInboxRow, applied?: Date): Promise<number | null> {
  const done = applied ? iso(applied) : null
  const row = await one<{ id: number }>(
    tx,
    sql`
    INSERT INTO device_inbox (sender_kind, sender_id, msg_id, type, boot, seq, device_ts, event_time,
      ts_flagged, received_at, transport, data, processed_at, outcome, attempts)
    VALUES (${r.sender_kind}, ${r.sender_id}, ${r.msg_id}, ${r.type}, ${r.boot}, ${r.seq},
      ${r.device_ts ? iso(r.device_ts) : null}::timestamptz, ${iso(r.event_time)}::timestamptz,
      ${r.ts_flagged}, ${iso(r.received_at)}::timestamptz, ${r.transport}, ${JSON.stringify(r.data)}::jsonb,
      ${done}::timestamptz, ${done ? 'applied' : null}, ${done ? 1 : 0})
    ON CONFLICT (sender_kind, sender_id, msg_id) DO NOTHING
    RETURNING id`,
  )
  return row?.id ?? null
}

const INBOX_COLUMNS = sql`id, sender_kind, sender_id, msg_id, type, boot, seq, event_time, received_at, data, outcome`

/** Marks an inbox row as dealt with. */
export async function finishInbox(tx: DbOrTx, id: number, outcome: string, now: Date, error?: string) {
  await tx.execute(sql`
    UPDATE device_inbox SET processed_at = ${iso(now)}::timestamptz, outcome = ${outcome},
      error = ${error ?? null}, attempts = attempts + 1
    WHERE id = ${id}`)
}

/** A stored message after a failed attempt: its sender, its id and type, and how far it got. */
export type FailedAttempt = {
  sender_kind: 'aed' | 'cabinet'
  sender_id: number
  msg_id: string
  type: string
  attempts: number
  dead: boolean
}

/**
 * Records a failed attempt to apply a stored message: 'failed' while retries are left, 'dead'
 * at the last one. Answers the row's sender and attempts, for the caller to raise the alarm; null
 * when the row is no longer waiting. A failure is recorded outside the failed transaction, on
 * another connection: by then another path (a newer message of the device applying its earlier
 * ones, another instance) may have applied the row, or the failed commit may have gone through
 * with only its answer lost. Marking such a row failed again had it applied twice.
 */
export async function failInbox(tx: DbOrTx, id: number, now: Date, error: string) {
  return one<FailedAttempt>(
    tx,
    sql`
    UPDATE device_inbox SET processed_at = ${iso(now)}::timestamptz, error = ${error},
      attempts = attempts + 1,
      outcome = CASE WHEN attempts + 1 >= ${MAX_ATTEMPTS} THEN 'dead' ELSE 'failed' END
    WHERE id = ${id} AND (processed_at IS NULL OR outcome = 'failed')
    RETURNING sender_kind, sender_id::int, msg_id, type, attempts, outcome = 'dead' AS dead`,
  )
}

/**
 * A message of the sender stored before this one (a lower id: not a later row of the same batch)
 * with the same (boot, seq) since its counters last reset:
 * whether its type and body are the same (a resend under a new id) or not (a reused pair).
 */
export async function orderTwin(
  tx: DbOrTx,
  row: Pick<InboxRow, 'id' | 'sender_kind' | 'sender_id' | 'boot' | 'seq' | 'type' | 'data'>,
): Promise<{ msg_id: string; same: boolean } | null> {
  const states = row.sender_kind === 'aed' ? sql`device_states` : sql`cabinet_states`
  const key = row.sender_kind === 'aed' ? sql`s.device_id` : sql`s.cabinet_id`
  return one<{ msg_id: string; same: boolean }>(
    tx,
    sql`
    SELECT i.msg_id, (i.type = ${row.type} AND i.data = ${JSON.stringify(row.data)}::jsonb) AS same
    FROM device_inbox i LEFT JOIN ${states} s ON ${key} = i.sender_id
    WHERE i.sender_kind = ${row.sender_kind} AND i.sender_id = ${row.sender_id}
      AND i.boot = ${row.boot} AND i.seq = ${row.seq} AND i.id < ${row.id}
      AND i.received_at >= coalesce(s.counter_reset_at, '-infinity'::timestamptz)
    ORDER BY i.id LIMIT 1`,
  )
}

/** Records that a sender's counters started again (a `hello` older than its state). */
export async function recordCounterReset(tx: DbOrTx, kind: 'aed' | 'cabinet', senderId: number, now: Date) {
  await tx.execute(
    kind === 'aed'
      ? sql`UPDATE device_states SET counter_resets = counter_resets + 1, counter_reset_at = ${iso(now)}::timestamptz
            WHERE device_id = ${senderId}`
      : sql`UPDATE cabinet_states SET counter_resets = counter_resets + 1, counter_reset_at = ${iso(now)}::timestamptz
            WHERE cabinet_id = ${senderId}`,
  )
}

/** Takes back a stored message that turned out to be refused or a duplicate: nothing of it stays. */
export async function deleteInbox(tx: DbOrTx, id: number) {
  await tx.execute(sql`DELETE FROM device_inbox WHERE id = ${id}`)
}

/** How many times the engine tries a stored message before it gives up (and says so). */
export const MAX_ATTEMPTS = 10

/** A kind of sender's inbox rows acknowledged but not applied (a crash, or a failure), oldest first. */
export async function pendingInbox(tx: DbOrTx, kind: 'aed' | 'cabinet', limit: number): Promise<InboxRow[]> {
  return many<InboxRow>(
    tx,
    sql`
    SELECT ${INBOX_COLUMNS} FROM device_inbox
    WHERE (processed_at IS NULL OR outcome = 'failed') AND sender_kind = ${kind}
    ORDER BY id LIMIT ${limit}`,
  )
}

/** A sender's messages stored before `before` and not applied yet, oldest first, locked. */
export async function waitingOf(tx: DbOrTx, kind: 'aed' | 'cabinet', senderId: number, before: number) {
  return many<InboxRow>(
    tx,
    sql`
    SELECT ${INBOX_COLUMNS} FROM device_inbox
    WHERE (processed_at IS NULL OR outcome = 'failed') AND attempts < ${MAX_ATTEMPTS}
      AND sender_kind = ${kind} AND sender_id = ${senderId} AND id < ${before}
    ORDER BY id FOR UPDATE SKIP LOCKED`,
  )
}

/** Locks one waiting inbox row of a kind of sender for processing (skipped when another instance holds it). */
export async function lockInbox(tx: DbOrTx, kind: 'aed' | 'cabinet', id: number): Promise<InboxRow | null> {
  return one<InboxRow>(
    tx,
    sql`
    SELECT ${INBOX_COLUMNS} FROM device_inbox
    WHERE id = ${id} AND sender_kind = ${kind} AND (processed_at IS NULL OR outcome = 'failed')
    FOR UPDATE SKIP LOCKED`,
  )
}

/** Forgets processed inbox rows after the duplicate window. */
export async function deleteOldInbox(db: DbOrTx, before: Date) {
  await db.execute(sql`
    DELETE FROM device_inbox WHERE processed_at IS NOT NULL AND outcome <> 'failed'
      AND received_at < ${iso(before)}::timestamptz`)
}
