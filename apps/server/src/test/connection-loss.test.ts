import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { AppContext } from '../context.ts'
import { many } from '../db/sql.ts'
import { createJobRunner, JOB_LOCK_CLASS, type Job } from '../jobs/runner.ts'
import { TestClock } from '../lib/clock.ts'
import { openTestDatabase } from './databases.ts'

// A PostgreSQL connection that breaks while the server holds it out of the pool (the job
// runner's lock through a job, a transaction between statements) fails what is asked of it next,
// and nothing else: it used to emit an 'error' nobody heard, which stopped the process (both
// instances of the fault suite's cluster died at a PostgreSQL restart).

const onPostgres = process.env.TEST_DB === 'postgres'
let t: Awaited<ReturnType<typeof openTestDatabase>>

beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(async () => {
  await t?.close()
})

/** Waits until `ok()` holds, at most 10 s. */
async function until(ok: () => Promise<boolean>) {
  const deadline = Date.now() + 10_000
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('condition not met in 10 s')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const alive = async (pid: number) =>
  (await many(t.database.db, sql`SELECT 1 FROM pg_stat_activity WHERE pid = ${pid}`)).length > 0

it.skipIf(!onPostgres)(
  'a job whose lock connection is killed mid-job fails that tick and runs again on the next',
  async () => {
    const clock = new TestClock('2026-03-01T08:00:00.000Z')
    const ctx = { database: t.database, db: t.database.db, clock } as unknown as AppContext
    let runs = 0
    const job: Job = {
      name: 'connection-loss',
      everyMs: 60_000,
      async run() {
        runs++
        if (runs > 1) return
        const [holder] = await many<{ pid: number }>(
          t.database.db,
          sql`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = ${JOB_LOCK_CLASS} AND granted`,
        )
        await t.database.db.execute(sql`SELECT pg_terminate_backend(${holder.pid})`)
        await until(async () => !(await alive(holder.pid)))
        // One more round trip, so the closed socket's events are handled while the job still runs.
        await t.database.db.execute(sql`SELECT 1`)
        await new Promise((r) => setImmediate(r))
      },
    }
    const log = { error: vi.fn(), debug: vi.fn() }
    const runner = createJobRunner(ctx, [job], { log })
    expect(await runner.tick()).toEqual({ 'connection-loss': 'failed' })
    expect(await runner.tick()).toEqual({ 'connection-loss': 'ran' })
    expect(runs).toBe(2)
    await runner.stop()
  },
)

it.skipIf(!onPostgres)(
  'a transaction whose connection is killed between statements is refused, and the pool goes on',
  async () => {
    const attempt = t.database.db.transaction(async (tx) => {
      const [{ pid }] = await many<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`)
      await t.database.db.execute(sql`SELECT pg_terminate_backend(${pid})`)
      await until(async () => !(await alive(pid)))
      await t.database.db.execute(sql`SELECT 1`)
      await new Promise((r) => setImmediate(r))
      await tx.execute(sql`SELECT 1`)
    })
    await expect(attempt).rejects.toThrow()
    expect(await many(t.database.db, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }])
  },
)
