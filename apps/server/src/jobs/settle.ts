import { sql } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import type { DbOrTx } from '../db/client.ts'
import { many } from '../db/sql.ts'
import type { Job } from './runner.ts'

/**
 * The tables autovacuum would see to now, by its default thresholds: more dead rows than 50 +
 * 20 % of the table, or more changes since the last ANALYZE than 50 + 10 %. With `all`, every
 * table. Answers their names in order.
 */
export async function tablesToSettle(db: DbOrTx, all: boolean): Promise<string[]> {
  // The counters of the last second are still this backend's own until a flush: this statement
  // ends with one, so the next reads them.
  await db.execute(sql`SELECT pg_stat_force_next_flush()`)
  const rows = await many<{ name: string }>(
    db,
    sql`SELECT s.relname AS name FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = 'public'
          AND (${all} OR s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
               OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0))
        ORDER BY s.relname`,
  )
  return rows.map((r) => r.name)
}

const settledOnce = new WeakSet<AppContext>()

/**
 * Every ten minutes on PGlite, what autovacuum does on a PostgreSQL server: VACUUM (ANALYZE) each
 * table that changed enough. PGlite runs PostgreSQL in single-user mode, without autovacuum; left
 * alone, the tables that churn (the inbox, the outbox, device state, live pushes) only grow, the
 * lists' index-only scans lose the visibility map they rely on, and the first large read after
 * many changes sets hint bits on every page it meets (a 100,000-row export took 19 s instead of
 * 5, docs/benchmarks.md). One statement per table, so other queries take turns in between.
 * PGlite's activity counters start at zero with each process, so the first run of a process
 * settles every table once (about 2-3 s at 100,000 devices). PostgreSQL servers have their own.
 */
export const settleJob: Job = {
  name: 'settle',
  everyMs: 10 * 60_000,
  async run(ctx) {
    if (ctx.database.kind !== 'pglite') return
    for (const name of await tablesToSettle(ctx.db, !settledOnce.has(ctx)))
      await ctx.db.execute(sql`VACUUM (ANALYZE) ${sql.identifier(name)}`)
    settledOnce.add(ctx)
  },
}
