import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { one } from '../db/sql.ts'
import { NONCE_RETENTION_MS } from '../plugins/auth/device-nonces.repository.ts'
import { OPEN_API_NONCE_RETENTION_MS } from '../plugins/auth/integrator.repository.ts'

/** How long device request nonces are kept (the device guard's rule, beside its nonces). */
export { NONCE_RETENTION_MS }

/** Live pushes are kept this long: a reconnecting console is answered for the last day. */
export const LIVE_PUSH_RETENTION_MS = 26 * 3600_000
/** Delivered outbox rows are kept this long. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3600_000
/** Settled webhook deliveries (delivered, failed, cancelled) are kept this long in the delivery log. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 24 * 3600_000
/** Sent and failed SMS (and the alert lines they carried) are kept this long for review. */
export const SMS_RETENTION_MS = 90 * 24 * 3600_000
/** SMS codes are kept this long after they were sent: the send limits count codes of the last day. */
export const SMS_CODE_RETENTION_MS = 2 * 24 * 3600_000

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`

/** Runs a DELETE … RETURNING 1 and answers how many rows it removed. */
async function deleted(db: DbOrTx, statement: SQL) {
  return (await one<{ n: number }>(
    db,
    sql`WITH d AS (${statement} RETURNING 1) SELECT count(*) AS n FROM d`,
  ))!.n
}

/** Deletes expired SMS codes older than the retention. Answers how many. */
export function deleteOldSmsCodes(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - SMS_CODE_RETENTION_MS)
  return deleted(
    db,
    sql`DELETE FROM sms_codes WHERE create_time < ${at(cutoff)} AND expire_time < ${at(now)}`,
  )
}

/** Deletes WeChat sign-in states past their expiry. */
export function deleteExpiredOauthStates(db: DbOrTx, now: Date) {
  return deleted(db, sql`DELETE FROM oauth_states WHERE expire_time < ${at(now)}`)
}

/** Deletes device and integrator request nonces past their retention. */
export async function deleteOldNonces(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - NONCE_RETENTION_MS)
  const integrators = new Date(now.getTime() - OPEN_API_NONCE_RETENTION_MS)
  return (
    Number(await deleted(db, sql`DELETE FROM device_nonces WHERE seen_at < ${at(cutoff)}`)) +
    Number(await deleted(db, sql`DELETE FROM open_api_nonces WHERE seen_at < ${at(integrators)}`))
  )
}

/** Deletes live-channel pushes no reconnect can ask for any more. */
export function deleteOldLivePushes(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - LIVE_PUSH_RETENTION_MS)
  return deleted(db, sql`DELETE FROM live_pushes WHERE create_time < ${at(cutoff)}`)
}

/** Deletes outbox rows delivered more than a week ago; an undelivered one waits for its retry, whatever its topic. */
export function deleteOldOutbox(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - OUTBOX_RETENTION_MS)
  return deleted(db, sql`DELETE FROM outbox WHERE create_time < ${at(cutoff)} AND done_at IS NOT NULL`)
}

/** Deletes webhook deliveries settled more than 30 days ago; a pending one is never dropped. */
export function deleteOldWebhookDeliveries(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - WEBHOOK_DELIVERY_RETENTION_MS)
  return deleted(
    db,
    sql`DELETE FROM webhook_deliveries WHERE create_time < ${at(cutoff)} AND state <> 'pending'`,
  )
}

/**
 * Deletes alert lines and SMS older than the retention once they are settled (sent or failed);
 * a pending one is never dropped. Answers how many SMS went.
 */
export async function deleteOldSms(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - SMS_RETENTION_MS)
  await deleted(
    db,
    sql`DELETE FROM sms_alerts a WHERE a.create_time < ${at(cutoff)}
        AND EXISTS (SELECT 1 FROM sms_outbox o WHERE o.id = a.sms_id AND o.status <> 'pending')`,
  )
  return deleted(
    db,
    sql`DELETE FROM sms_outbox o WHERE o.create_time < ${at(cutoff)} AND o.status <> 'pending'
        AND NOT EXISTS (SELECT 1 FROM sms_alerts a WHERE a.sms_id = o.id)`,
  )
}
