import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'
import type { Job } from '../../jobs/runner.ts'

/** An outbox row as a handler gets it. */
export type OutboxRecord = {
  id: number
  topic: 'live' | 'message' | 'sms' | 'webhook'
  dedupe_key: string
  agency_id: number | null
  index_link: string | null
  payload: Record<string, unknown>
  attempts: number
  create_time: Date
}

/**
 * Delivers one row. It runs inside the drain's transaction (a savepoint): database effects
 * commit with the row's `done_at`, so a row is done exactly once; outside effects (an SMS
 * vendor, a webhook) must use `dedupe_key` as their idempotency key.
 */
export type OutboxHandler = (ctx: AppContext, tx: DbOrTx, row: OutboxRecord) => Promise<void>

/** Retry backoff: 5 s doubling per attempt, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(3600_000, 5000 * 2 ** Math.max(0, attempts - 1))
}

/** The bus channel live pushes go out on (the live channel subscribes to it). */
export const LIVE_CHANNEL = 'live'

/**
 * Who delivers each topic. Live pushes go on the event bus at commit; the message centre, SMS
 * and webhooks are delivered by the alerting feature, which adds its handlers here. Rows of a
 * topic without a handler wait.
 */
export const outboxHandlers: Partial<Record<OutboxRecord['topic'], OutboxHandler>> = {
  live: async (ctx, tx, row) => {
    await ctx.events.publishIn(tx, LIVE_CHANNEL, {
      outbox_id: row.id,
      index_link: row.index_link,
      ...row.payload,
    })
  },
}

/**
 * Takes due rows of the topics with a handler (FOR UPDATE SKIP LOCKED: instances share the
 * work without waiting on each other), delivers each, marks it done, or counts the attempt
 * and schedules the retry. Answers how many were delivered.
 */
export async function drainOutbox(ctx: AppContext, handlers = outboxHandlers, limit = 200): Promise<number> {
  const topics = Object.keys(handlers)
  if (topics.length === 0) return 0
  const now = ctx.clock.now()
  return ctx.db.transaction(async (tx) => {
    const rows = await many<OutboxRecord>(
      tx,
      sql`
      SELECT id, topic, dedupe_key, agency_id, index_link, payload, attempts, create_time FROM outbox
      WHERE done_at IS NULL AND available_at <= ${now.toISOString()}::timestamptz
        AND topic IN (${sql.join(
          topics.map((t) => sql`${t}`),
          sql`, `,
        )})
      ORDER BY id LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`,
    )
    let delivered = 0
    for (const row of rows) {
      const handle = handlers[row.topic] as OutboxHandler
      try {
        await tx.transaction((sp) => handle(ctx, sp, row))
        await tx.execute(sql`UPDATE outbox SET done_at = ${now.toISOString()}::timestamptz, attempts = attempts + 1
                             WHERE id = ${row.id}`)
        delivered++
      } catch (e) {
        const retry = new Date(now.getTime() + backoffMs(row.attempts + 1))
        await tx.execute(sql`
          UPDATE outbox SET attempts = attempts + 1, available_at = ${retry.toISOString()}::timestamptz,
            last_error = ${(e instanceof Error ? e.message : String(e)).slice(0, 500)}
          WHERE id = ${row.id}`)
      }
    }
    return delivered
  })
}

/** Delivers what is due and retries what failed, every few seconds, once per cluster. */
export const outboxJob: Job = {
  name: 'outbox',
  everyMs: 5000,
  async run(ctx) {
    // Bounded, so one tick never holds the other jobs for long.
    for (let i = 0; i < 10 && (await drainOutbox(ctx)) === 200; i++) {}
  },
}
