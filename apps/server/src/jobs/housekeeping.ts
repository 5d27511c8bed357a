import {
  deleteExpiredOauthStates,
  deleteOldLivePushes,
  deleteOldNonces,
  deleteOldOutbox,
  deleteOldSms,
  deleteOldSmsCodes,
  deleteOldWebhookDeliveries,
} from './housekeeping.repository.ts'
import type { Job } from './runner.ts'

/**
 * Hourly: deletes spent rows that only grow (old SMS codes, expired sign-in states, old nonces,
 * live pushes past the reconnect window, delivered outbox rows, settled SMS after 90 days,
 * settled webhook deliveries after 30).
 */
export const housekeepingJob: Job = {
  name: 'housekeeping',
  everyMs: 3600_000,
  async run(ctx, now) {
    await deleteOldSmsCodes(ctx.db, now)
    await deleteExpiredOauthStates(ctx.db, now)
    await deleteOldNonces(ctx.db, now)
    await deleteOldLivePushes(ctx.db, now)
    await deleteOldOutbox(ctx.db, now)
    await deleteOldSms(ctx.db, now)
    await deleteOldWebhookDeliveries(ctx.db, now)
  },
}
