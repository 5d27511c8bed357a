import { sql } from 'drizzle-orm'
import type { OutboxRecord, OutboxTopic } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

// The outbox's SQL: rows written by the engine (and the message centre's callers), taken by the
// drains (outbox.ts), marked done or put back for a retry.

const iso = (d: Date) => d.toISOString()

/** One outbox row; a second write with the same key is dropped. */
export type OutboxRow = {
  topic: OutboxTopic
  key: string
  agencyId: number
  indexLink: string
  payload: unknown
}

/** The INSERT of outbox rows (a statement of its own, or a CTE of a larger one: commitDevice). */
export function outboxInsert(rows: OutboxRow[], now: Date) {
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.topic}, ${r.key}, ${r.agencyId}, ${r.indexLink}, ${JSON.stringify(r.payload)}::jsonb, ${iso(now)}::timestamptz, ${iso(now)}::timestamptz)`,
    ),
    sql`, `,
  )
  return sql`
    INSERT INTO outbox (topic, dedupe_key, agency_id, index_link, payload, create_time, available_at)
    VALUES ${values} ON CONFLICT (dedupe_key) DO NOTHING`
}

/** Writes outbox rows (none: nothing). */
export async function insertOutbox(tx: DbOrTx, rows: OutboxRow[], now: Date) {
  if (rows.length) await tx.execute(outboxInsert(rows, now))
}

const RECORD_COLUMNS = sql`id, topic, dedupe_key, agency_id, index_link, payload, attempts, create_time`

/**
 * Due rows of some topics, locked for this drain (FOR UPDATE SKIP LOCKED: instances share the
 * work without waiting on each other). Messages (and the alarms they carry) first: an alarm must
 * not wait behind a backlog of status pushes (a mass reconnect, a network's first reports).
 */
export function takeDueOutbox(tx: DbOrTx, topics: OutboxTopic[], now: Date, limit: number) {
  return many<OutboxRecord>(
    tx,
    sql`
    SELECT ${RECORD_COLUMNS} FROM outbox
    WHERE done_at IS NULL AND available_at <= ${iso(now)}::timestamptz
      AND topic = ANY(${sql.param(topics)}::text[])
    ORDER BY (topic = 'message') DESC, id LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`,
  )
}

/** The rows of these keys not delivered yet, in their order (a transaction's own rows). */
export function undeliveredOutbox(tx: DbOrTx, keys: string[]) {
  return many<OutboxRecord>(
    tx,
    sql`SELECT ${RECORD_COLUMNS} FROM outbox
        WHERE dedupe_key = ANY(${sql.param(keys)}::text[]) AND done_at IS NULL ORDER BY id`,
  )
}

/** Counts a failed delivery and puts the row back until `at`. */
export async function retryOutboxAt(tx: DbOrTx, id: number, at: Date, error: string) {
  await tx.execute(sql`
    UPDATE outbox SET attempts = attempts + 1, available_at = ${iso(at)}::timestamptz,
      last_error = ${error.slice(0, 500)}
    WHERE id = ${id}`)
}

/** Marks delivered rows done. */
export async function markOutboxDone(tx: DbOrTx, ids: number[], now: Date) {
  if (ids.length === 0) return
  await tx.execute(sql`UPDATE outbox SET done_at = ${iso(now)}::timestamptz, attempts = attempts + 1
                       WHERE id = ANY(${sql.param(ids)}::bigint[])`)
}
