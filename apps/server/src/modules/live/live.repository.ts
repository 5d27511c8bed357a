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

/** The advisory lock (class, key) that orders pushes: see insertPushes. */
const PUSH_ORDER_LOCK = [720303, 1] as const

/**
 * Stores pushes in the caller's transaction, in the order given. Ids must follow commit order, or
 * a console that got push 8 would take the later-committed push 7 for one it had (and a
 * reconnect's `after` would skip it). So the id drawn here is provisional: as the transaction
 * commits, a deferred trigger (migration 0030) takes the push-order lock, gives each push its id
 * and announces it on the live channel. The lock is held for the commit alone, not for the rest
 * of the writer's transaction.
 */
export async function insertPushes(tx: DbOrTx, pushes: NewPush[], now: Date): Promise<void> {
  if (pushes.length === 0) return
  const col = <T>(f: (p: NewPush) => T) => sql.param(pushes.map(f))
  await tx.execute(
    sql`INSERT INTO live_pushes (data_type, agency_id, index_link, data, create_time)
        SELECT t, a, l, d, ${now.toISOString()}::timestamptz
        FROM unnest(${col((p) => p.data_type)}::smallint[], ${col((p) => p.agency_id)}::bigint[],
          ${col((p) => p.index_link)}::text[], ${col((p) => JSON.stringify(p.data))}::jsonb[])
          WITH ORDINALITY AS u (t, a, l, d, n)
        ORDER BY n`,
  )
}

/**
 * Takes the push-order lock until the transaction ends, for writers whose own ids must follow
 * commit order as the pushes' do (webhook deliveries): one lock for both, so they never wait on
 * each other in opposite orders.
 */
export async function lockPushOrder(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PUSH_ORDER_LOCK[0]}, ${PUSH_ORDER_LOCK[1]})`)
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
