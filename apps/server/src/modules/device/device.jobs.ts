import type { Job } from '../../context.ts'
import { expireCommands } from './device-command.repository.ts'

/** Commands nobody answered within their time to live expire; once a minute, once per cluster. */
export const commandExpiryJob: Job = {
  name: 'command-expiry',
  everyMs: 60_000,
  async run(ctx, now) {
    await expireCommands(ctx.db, now)
  },
}

/** The device module's jobs (jobs/index.ts runs them with the others). */
export const deviceJobs: readonly Job[] = [commandExpiryJob]
