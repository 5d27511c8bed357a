import { z } from 'zod'
import { post } from './endpoint.ts'

// The development clock (DEV_CLOCK=1 only): moves a development server's time forward and runs
// its scheduled jobs once, so an end-to-end journey sees a certificate expire by the clock.

/** The longest single move: a year and a day (a yearly certificate past its expiry). */
export const DEV_CLOCK_MAX_ADVANCE_MS = 366 * 86_400_000

/** What one tick did with a job (the job runner's outcomes). */
export const jobOutcomeSchema = z.enum(['ran', 'failed', 'not_due', 'locked'])

export const devClockAdvanceForm = z.object({
  /** How far to move the clock forward, in milliseconds (0 runs the jobs at the present time). */
  advance_ms: z.number({ message: 'INVALID_INPUT' }).int().min(0).max(DEV_CLOCK_MAX_ADVANCE_MS),
})

/** The development server's clock. */
export const devClockApi = {
  advance: post('/api/v1/dev/clock', {
    summary:
      'Development only (DEV_CLOCK=1; not registered otherwise): system super administrators move the clock forward and run the scheduled jobs once',
    body: devClockAdvanceForm,
    response: z.object({
      /** The server's time after the move (ISO 8601). */
      now: z.string(),
      /** What the tick did with each job, by name. */
      jobs: z.record(z.string(), jobOutcomeSchema),
    }),
  }),
}
