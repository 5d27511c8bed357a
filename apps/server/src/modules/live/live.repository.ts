import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'

/** A push as stored: its id on the wire, its type, who may hear it and its facts. */
export type StoredPush = {
  id: number
  data_type: number
  agency_id: number | null
  index_link: string
  data: Record<string, unknown>
  create_time: Date
}

/** A push to write: its type, whose subtree hears it (the organisation's path) and its facts. */
export type NewPush = {
  data_type: number
  agency_id: number | null
  index_link: string
  data: Record<string, unknown>
}

/** The advisory lock (class, key) that orders pushes: see insertPush. */
const PUSH_ORDER_LOCK = [720303, 1] as const

/**
 * Stores a push in the caller's transaction and answers it with its id. Ids must follow commit
 * order, or a console that got push 8 would take the later-committed push 7 for one it had
 * (and a reconnect's `after` would skip it): the transaction takes a lock held until it ends
 * before it draws an id, so whoever draws a smaller id has committed before a larger one exists.
 */
export async function insertPush(tx: DbOrTx, p: NewPush, now: Date): Promise<StoredPush> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUSH_ORDER_LOCK[0]}, ${PUSH_ORDER_LOCK[1]})`)
  const row = await one<StoredPush>(
    tx,
    sql`INSERT INTO live_pushes (data_type, agency_id, index_link, data, create_time)
        VALUES (${p.data_type}, ${p.agency_id}, ${p.index_link}, ${JSON.stringify(p.data)}::jsonb,
                ${now.toISOString()}::timestamptz)
        RETURNING id::int, data_type, agency_id::int, index_link, data, create_time`,
  )
  return row as StoredPush
}

/**
 * Takes the push-order lock until the transaction ends, for writers whose own ids must follow
 * commit order as the pushes' do (webhook deliveries): one lock for both, so they never wait on
 * each other in opposite orders.
 */
export async function lockPushOrder(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUSH_ORDER_LOCK[0]}, ${PUSH_ORDER_LOCK[1]})`)
}

/** insertPush for many pushes in one statement, answered in id order (the order given). */
export async function insertPushes(tx: DbOrTx, pushes: NewPush[], now: Date): Promise<StoredPush[]> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUSH_ORDER_LOCK[0]}, ${PUSH_ORDER_LOCK[1]})`)
  const col = <T>(f: (p: NewPush) => T) => sql.param(pushes.map(f))
  const rows = await many<StoredPush>(
    tx,
    sql`INSERT INTO live_pushes (data_type, agency_id, index_link, data, create_time)
        SELECT t, a, l, d, ${now.toISOString()}::timestamptz
        FROM unnest(${col((p) => p.data_type)}::smallint[], ${col((p) => p.agency_id)}::bigint[],
          ${col((p) => p.index_link)}::text[], ${col((p) => JSON.stringify(p.data))}::jsonb[])
          WITH ORDINALITY AS u (t, a, l, d, n)
        ORDER BY n
        RETURNING id::int, data_type, agency_id::int, index_link, data, create_time`,
  )
  return rows.sort((a, b) => a.id - b.id)
}

/** One push by id (when its NOTIFY was too large to carry it). */
export function findPush(db: DbOrTx, id: number) {
  return one<StoredPush>(
    db,
    sql`SELECT id::int, data_type, agency_id::int, index_link, data, create_time FROM live_pushes WHERE id = ${id}`,
  )
}

/** What a reconnecting console missed: pushes after `after`, since `since`, in its subtree, in order. */
export function pushesAfter(db: DbOrTx, indexLink: string, after: number, since: Date, limit = 5000) {
  return many<StoredPush>(
    db,
    sql`SELECT id::int, data_type, agency_id::int, index_link, data, create_time FROM live_pushes
        WHERE id > ${after} AND create_time >= ${since.toISOString()}::timestamptz
          AND index_link LIKE ${`${indexLink}%`}
        ORDER BY id LIMIT ${limit}`,
  )
}

/** Forgets pushes older than `before` (a reconnect asks for one day at most). */
export async function prunePushes(db: DbOrTx, before: Date) {
  await db.execute(sql`DELETE FROM live_pushes WHERE create_time < ${before.toISOString()}::timestamptz`)
}

/** The newest push's id (0 when none): where a console that did not say `after` starts. */
export async function newestPushId(db: DbOrTx): Promise<number> {
  const r = await one<{ id: number }>(db, sql`SELECT coalesce(max(id), 0)::int AS id FROM live_pushes`)
  return r?.id ?? 0
}
