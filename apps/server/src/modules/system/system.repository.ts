import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'

/** Throws unless the database answers. */
export async function ping(db: DbOrTx) {
  await db.execute(sql`SELECT 1`)
}

/** Pending outbox rows per topic (not done), and the oldest one's creation: one pass over the pending index. */
export function outboxBacklog(db: DbOrTx) {
  return many<{ topic: string; backlog: number; oldest: Date | string }>(
    db,
    sql`SELECT topic, count(*)::int AS backlog, min(create_time) AS oldest
        FROM outbox WHERE done_at IS NULL GROUP BY topic`,
  )
}

/** When the oldest device message still waiting to be applied (stored, or failed and retried) came in. */
export async function oldestUnapplied(db: DbOrTx): Promise<Date | null> {
  const row = await one<{ received_at: Date | string }>(
    db,
    sql`SELECT received_at FROM device_inbox
        WHERE processed_at IS NULL OR outcome = 'failed' ORDER BY id LIMIT 1`,
  )
  return row ? new Date(row.received_at) : null
}
