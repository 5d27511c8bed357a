import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppContext } from '../context.ts'
import type { Database } from '../db/client.ts'
import { many, one } from '../db/sql.ts'
import { housekeepingJob } from '../jobs/housekeeping.ts'
import { createJobRunner, type Job } from '../jobs/runner.ts'
import { settleJob } from '../jobs/settle.ts'
import { TestClock } from '../lib/clock.ts'
import { openTestDatabase } from './databases.ts'

// The runner on the database the run uses: PGlite by default, PostgreSQL with TEST_DB=postgres
// (the server-pg project), where the two-instance test runs too. Time only moves by the clock.
let t: Awaited<ReturnType<typeof openTestDatabase>>
const clock = new TestClock('2026-03-01T08:00:00.000Z')
const log = { error: vi.fn(), debug: vi.fn() }
const onPostgres = process.env.TEST_DB === 'postgres'

/** What the runner and the jobs under test use of the context. */
function contextOn(database: Database): AppContext {
  return { database, db: database.db, clock } as unknown as AppContext
}

/** A job that counts its runs and the times it was given. */
function countingJob(
  name: string,
  everyMs: number,
  body?: (n: number) => Promise<void>,
): Job & { runs: Date[] } {
  const runs: Date[] = []
  return {
    name,
    everyMs,
    runs,
    async run(_ctx, now) {
      runs.push(now)
      await body?.(runs.length)
    },
  }
}

async function jobRow(name: string) {
  return (await one<{ last_run_at: Date | null; failures: number; last_error: string | null; runs: number }>(
    t.database.db,
    sql`SELECT last_run_at, failures, last_error, runs FROM job_runs WHERE name = ${name}`,
  ))!
}

beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(async () => {
  await t?.close()
})
beforeEach(() => {
  log.error.mockClear()
})

describe('jobs runner', () => {
  it('runs a due job once, then not again until its interval has passed on the clock, across a restart', async () => {
    const job = countingJob('count_once', 60_000)
    const runner = createJobRunner(contextOn(t.database), [job], { log })
    const start = clock.now()

    expect(await runner.tick()).toEqual({ count_once: 'ran' })
    expect(job.runs).toEqual([start])
    expect(await runner.tick()).toEqual({ count_once: 'not_due' })
    clock.advance(59_999)
    expect(await runner.tick()).toEqual({ count_once: 'not_due' })

    // A restarted server reads the last run from the table: still not due.
    const restarted = createJobRunner(contextOn(t.database), [job], { log })
    expect(await restarted.tick()).toEqual({ count_once: 'not_due' })
    expect(job.runs).toHaveLength(1)

    clock.advance(1)
    expect(await restarted.tick()).toEqual({ count_once: 'ran' })
    expect(job.runs).toEqual([start, new Date(start.getTime() + 60_000)])
    expect(await jobRow('count_once')).toMatchObject({ runs: 2, failures: 0 })
    expect(log.error).not.toHaveBeenCalled()
  })

  it('logs a failing job (its message only), keeps it due and retries it on the next tick', async () => {
    const job = countingJob('fails_once', 3_600_000, async (n) => {
      if (n === 1) throw Object.assign(new Error('sweep failed'), { detail: 'Key (secret)=(s3cr3t)' })
    })
    const runner = createJobRunner(contextOn(t.database), [job], { log })

    expect(await runner.tick()).toEqual({ fails_once: 'failed' })
    expect(log.error).toHaveBeenCalledTimes(1)
    expect(log.error).toHaveBeenCalledWith(
      { job: 'fails_once', err: { message: 'sweep failed' } },
      'job failed; retried on the next tick',
    )
    expect(JSON.stringify(log.error.mock.calls)).not.toContain('s3cr3t')
    expect(await jobRow('fails_once')).toMatchObject({
      last_run_at: null,
      failures: 1,
      last_error: 'sweep failed',
    })

    // Same clock time: a failed job is still due.
    expect(await runner.tick()).toEqual({ fails_once: 'ran' })
    expect(job.runs).toHaveLength(2)
    expect(await jobRow('fails_once')).toMatchObject({ failures: 0, last_error: null, runs: 1 })
    expect(await runner.tick()).toEqual({ fails_once: 'not_due' })
  })

  it('runs each job on its own: one failing does not stop the next', async () => {
    const bad = countingJob('always_fails', 1_000, async () => {
      throw new Error('nope')
    })
    const good = countingJob('after_the_bad_one', 1_000)
    const runner = createJobRunner(contextOn(t.database), [bad, good], { log })
    expect(await runner.tick()).toEqual({ always_fails: 'failed', after_the_bad_one: 'ran' })
    clock.advance(1_000)
    expect(await runner.tick()).toEqual({ always_fails: 'failed', after_the_bad_one: 'ran' })
    expect(bad.runs).toHaveLength(2)
    expect(await jobRow('always_fails')).toMatchObject({ failures: 2, last_run_at: null })
  })

  it('starts ticking at start(), and stop() waits for the job under way and starts no more', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    let started!: () => void
    const running = new Promise<void>((r) => {
      started = r
    })
    const job = countingJob('slow_job', 1_000, async () => {
      started()
      await gate
    })
    const runner = createJobRunner(contextOn(t.database), [job], { log, tickMs: 60_000 })
    runner.start()
    await running
    let stopped = false
    const stopping = runner.stop().then(() => {
      stopped = true
    })
    await Promise.resolve()
    expect(stopped).toBe(false)
    release()
    await stopping
    expect(await jobRow('slow_job')).toMatchObject({ runs: 1 })
    clock.advance(1_000)
    expect(await runner.tick()).toEqual({})
    expect(job.runs).toHaveLength(1)
  })

  it('refuses two jobs of one name', () => {
    const a = countingJob('same', 1_000)
    expect(() => createJobRunner(contextOn(t.database), [a, a], { log })).toThrow('Two jobs are named same')
  })
})

describe.runIf(onPostgres)('jobs runner on two server instances (PostgreSQL)', () => {
  let second: Database
  beforeAll(async () => {
    second = await t.connect()
  })

  it('runs a job once per due tick however the two instances tick', async () => {
    let release!: () => void
    let gate = Promise.resolve()
    let started!: () => void
    let running = Promise.resolve()
    const arm = () => {
      gate = new Promise<void>((r) => {
        release = r
      })
      running = new Promise<void>((r) => {
        started = r
      })
    }
    arm()
    const job = countingJob('cluster_once', 10_000, async () => {
      started()
      await gate
    })
    const a = createJobRunner(contextOn(t.database), [job], { log })
    const b = createJobRunner(contextOn(second), [job], { log })

    // A runs it and holds the lock: B finds it running.
    const first = a.tick()
    await running
    expect(await b.tick()).toEqual({ cluster_once: 'locked' })
    release()
    expect(await first).toEqual({ cluster_once: 'ran' })
    // A has recorded the run: B finds it not due.
    expect(await b.tick()).toEqual({ cluster_once: 'not_due' })
    expect(job.runs).toHaveLength(1)

    // Both tick together, round after round: one run per round.
    gate = Promise.resolve()
    started = () => {}
    for (let round = 2; round <= 6; round++) {
      clock.advance(10_000)
      const outcomes = await Promise.all([a.tick(), b.tick()])
      expect(outcomes.filter((o) => o.cluster_once === 'ran')).toHaveLength(1)
      expect(job.runs).toHaveLength(round)
    }
    expect(await jobRow('cluster_once')).toMatchObject({ runs: 6 })
  })
})

describe('housekeeping job', () => {
  it('deletes SMS codes older than two days, expired sign-in states, nonces older than 30 minutes, live pushes older than 26 hours delivered outbox rows older than a week and settled SMS older than 90 days', async () => {
    const now = clock.now()
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
    const later = new Date(now.getTime() + 60_000).toISOString()
    const db = t.database.db
    await db.execute(sql`
      INSERT INTO sms_codes (phone, scene, code_hash, create_time, expire_time) VALUES
        ('13900000001', 'login', 'old', ${ago(49 * 3600_000)}::timestamptz, ${ago(49 * 3600_000 - 300_000)}::timestamptz),
        ('13900000002', 'login', 'day', ${ago(23 * 3600_000)}::timestamptz, ${ago(23 * 3600_000 - 300_000)}::timestamptz),
        ('13900000003', 'login', 'live', ${ago(60_000)}::timestamptz, ${later}::timestamptz)`)
    await db.execute(sql`
      INSERT INTO oauth_states (state, purpose, expire_time) VALUES
        ('gone', 'login', ${ago(1_000)}::timestamptz), ('kept', 'login', ${later}::timestamptz)`)
    await db.execute(sql`
      INSERT INTO device_nonces (device_sn, nonce, seen_at) VALUES
        ('AED1', 'old-nonce-0123456789', ${ago(31 * 60_000)}::timestamptz),
        ('AED1', 'new-nonce-0123456789', ${ago(29 * 60_000)}::timestamptz)`)
    // An integrator's nonces are kept 15 minutes (the timestamp may be 5 minutes off either way).
    await db.execute(sql`
      INSERT INTO open_api_nonces (config_id, nonce, seen_at) VALUES
        (1, 'oldintegratornonce1', ${ago(16 * 60_000)}::timestamptz),
        (1, 'newintegratornonce1', ${ago(14 * 60_000)}::timestamptz)`)

    await db.execute(sql`
      INSERT INTO live_pushes (data_type, index_link, data, create_time) VALUES
        (2, '/1/', '{"k":"gone"}', ${ago(27 * 3600_000)}::timestamptz),
        (2, '/1/', '{"k":"kept"}', ${ago(25 * 3600_000)}::timestamptz)`)

    await db.execute(sql`
      INSERT INTO outbox (topic, dedupe_key, payload, create_time, done_at) VALUES
        ('live', 'hk:done-old', '{}', ${ago(8 * 86_400_000)}::timestamptz, ${ago(8 * 86_400_000)}::timestamptz),
        ('sms', 'hk:pending-old', '{}', ${ago(8 * 86_400_000)}::timestamptz, NULL),
        ('webhook', 'hk:webhook-old', '{}', ${ago(8 * 86_400_000)}::timestamptz, NULL),
        ('live', 'hk:done-new', '{}', ${ago(86_400_000)}::timestamptz, ${ago(86_400_000)}::timestamptz)`)

    await db.execute(sql`
      INSERT INTO sms_outbox (id, phone, content, kind, status, create_time) VALUES
        (90001, '13900000011', 'old sent', 'status', 'sent', ${ago(91 * 86_400_000)}::timestamptz),
        (90002, '13900000012', 'old pending', 'status', 'pending', ${ago(91 * 86_400_000)}::timestamptz),
        (90003, '13900000013', 'new sent', 'status', 'sent', ${ago(89 * 86_400_000)}::timestamptz)`)
    await db.execute(sql`
      INSERT INTO sms_alerts (kind, dedupe_key, phone, line, due_at, sms_id, create_time) VALUES
        ('status', 'hk:a1', '13900000011', 'l', ${ago(91 * 86_400_000)}::timestamptz, 90001, ${ago(91 * 86_400_000)}::timestamptz),
        ('status', 'hk:a2', '13900000012', 'l', ${ago(91 * 86_400_000)}::timestamptz, 90002, ${ago(91 * 86_400_000)}::timestamptz)`)

    await housekeepingJob.run(contextOn(t.database), now)

    const left = async (q: ReturnType<typeof sql>) => (await many<{ k: string }>(db, q)).map((r) => r.k)
    expect(await left(sql`SELECT code_hash AS k FROM sms_codes ORDER BY k`)).toEqual(['day', 'live'])
    expect(await left(sql`SELECT state AS k FROM oauth_states`)).toEqual(['kept'])
    expect(await left(sql`SELECT nonce AS k FROM device_nonces`)).toEqual(['new-nonce-0123456789'])
    expect(await left(sql`SELECT nonce AS k FROM open_api_nonces`)).toEqual(['newintegratornonce1'])
    expect(await left(sql`SELECT data->>'k' AS k FROM live_pushes`)).toEqual(['kept'])
    // An undelivered row is never dropped (it waits for its retry), a webhook's neither.
    expect(
      await left(sql`SELECT dedupe_key AS k FROM outbox WHERE dedupe_key LIKE 'hk:%' ORDER BY k`),
    ).toEqual(['hk:done-new', 'hk:pending-old', 'hk:webhook-old'])
  })
})

describe('settle job (PGlite: autovacuum stand-in)', () => {
  /** How many times each table has been vacuumed by hand (VACUUM, not autovacuum). */
  async function vacuums() {
    const rows = await many<{ name: string; n: number }>(
      t.database.db,
      sql`SELECT relname AS name, vacuum_count::int AS n FROM pg_stat_user_tables WHERE schemaname = 'public'`,
    )
    return new Map(rows.map((r) => [r.name, r.n]))
  }

  it.skipIf(onPostgres)(
    'settles every table on its first run, then only the tables that changed past the thresholds',
    async () => {
      const ctx = contextOn(t.database)
      const before = await vacuums()
      await settleJob.run(ctx, clock.now())
      const first = await vacuums()
      for (const name of ['agencies', 'live_pushes', 'device_inbox', 'outbox'])
        expect(first.get(name), name).toBe((before.get(name) ?? 0) + 1)

      // 300 dead rows in live_pushes (over 50 + 20 % of a near-empty table); agencies untouched.
      await t.database.db.execute(sql`
        INSERT INTO live_pushes (data_type, index_link, data) SELECT 11, '/1/', '{}' FROM generate_series(1, 300)`)
      await t.database.db.execute(sql`DELETE FROM live_pushes WHERE data = '{}'::jsonb AND data_type = 11`)
      await settleJob.run(ctx, clock.now())
      const second = await vacuums()
      expect(second.get('live_pushes')).toBe((first.get('live_pushes') ?? 0) + 1)
      expect(second.get('agencies')).toBe(first.get('agencies'))
      const dead = await one<{ n: number }>(
        t.database.db,
        sql`SELECT n_dead_tup::int AS n FROM pg_stat_user_tables WHERE relname = 'live_pushes'`,
      )
      expect(dead?.n).toBe(0)
    },
  )

  it.runIf(onPostgres)('leaves a PostgreSQL server to its own autovacuum', async () => {
    let statements = 0
    const db = new Proxy(t.database.db, {
      get: (target, key, receiver) =>
        key === 'execute'
          ? (...args: unknown[]) => {
              statements++
              return (target.execute as (...a: unknown[]) => unknown)(...args)
            }
          : Reflect.get(target, key, receiver),
    })
    await settleJob.run({ ...contextOn(t.database), db } as AppContext, clock.now())
    expect(statements).toBe(0)
  })
})
