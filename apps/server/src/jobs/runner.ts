import crypto from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext, Job } from '../context.ts'
import { lastRunAt, recordFailure, recordStart, recordSuccess } from './jobs.repository.ts'

// A scheduled check: the type is in context.ts, beside the context it runs on, so that the
// modules that declare jobs need not import the runner.
export type { Job } from '../context.ts'

/** What one tick did with a job: ran it, ran it and it failed, found it not due, or found it running elsewhere. */
export type JobOutcome = 'ran' | 'failed' | 'not_due' | 'locked'

export type JobRunner = {
  /** Runs every due job once, one after another; ticks of one runner never overlap. */
  tick(): Promise<Record<string, JobOutcome>>
  /** Ticks now and then every `tickMs` until stopped. */
  start(): void
  /**
   * Starts no new job (a tick after it runs nothing); resolves when the job under way has
   * finished. Jobs should bound their own work: a job that never returns keeps its lock.
   */
  stop(): Promise<void>
}

/** The advisory lock space of jobs: pg_try_advisory_lock(JOB_LOCK_CLASS, key of the name). */
export const JOB_LOCK_CLASS = 720302

/** A stable 32-bit key for a job name (the same on every instance and PostgreSQL version). */
export function jobLockKey(name: string): number {
  return crypto.createHash('sha256').update(name).digest().readInt32BE(0)
}

type Log = Pick<FastifyBaseLogger, 'error' | 'debug'>

/**
 * Runs jobs once per cluster. Per job and tick, on one connection: try the job's advisory lock
 * (another instance running it answers `locked`), read its last successful run from job_runs,
 * run it when due on `ctx.clock`, record the outcome, unlock. A failure is logged (message
 * only) and leaves the job due, so the next tick retries it. A crash releases the lock with
 * the connection and leaves the job due. On PGlite (one process) the same code runs.
 */
export function createJobRunner(
  ctx: AppContext,
  jobs: readonly Job[],
  opts: { log: Log; tickMs?: number },
): JobRunner {
  const names = new Set<string>()
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`Two jobs are named ${job.name}`)
    if (!(job.everyMs > 0)) throw new Error(`Job ${job.name} needs everyMs > 0`)
    names.add(job.name)
  }
  const tickMs = opts.tickMs ?? 15_000
  const { log } = opts
  let last: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | null = null
  let started = false
  let stopped = false

  async function runOne(job: Job, now: Date): Promise<JobOutcome> {
    return ctx.database.withConnection(async (conn) => {
      const key = jobLockKey(job.name)
      const [{ locked }] = await conn.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS locked',
        [JOB_LOCK_CLASS, key],
      )
      if (!locked) return 'locked'
      try {
        const lastRun = await lastRunAt(conn, job.name)
        if (lastRun && now.getTime() < lastRun.getTime() + job.everyMs) return 'not_due'
        await recordStart(conn, job.name, now)
        try {
          await job.run(ctx, now)
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e)
          log.error({ job: job.name, err: { message } }, 'job failed; retried on the next tick')
          await recordFailure(conn, job.name, now, message)
          return 'failed'
        }
        await recordSuccess(conn, job.name, now)
        log.debug({ job: job.name }, 'job ran')
        return 'ran'
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1, $2)', [JOB_LOCK_CLASS, key])
      }
    })
  }

  async function runTick() {
    const outcomes: Record<string, JobOutcome> = {}
    for (const job of jobs) {
      if (stopped) break
      const now = ctx.clock.now()
      try {
        outcomes[job.name] = await runOne(job, now)
      } catch (e) {
        // The database itself failed (connection lost): the job stays due.
        log.error({ job: job.name, err: { message: (e as Error).message } }, 'job could not be run')
        outcomes[job.name] = 'failed'
      }
    }
    return outcomes
  }

  function tick(): Promise<Record<string, JobOutcome>> {
    const next = last.then(runTick, runTick)
    last = next.catch(() => {})
    return next
  }

  function schedule() {
    if (stopped) return
    timer = setTimeout(() => {
      tick().finally(schedule)
    }, tickMs)
    timer.unref()
  }

  return {
    tick,
    start() {
      if (started || stopped) return
      started = true
      tick().finally(schedule)
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      await last
    },
  }
}
