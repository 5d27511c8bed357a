import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { one } from '../db/sql.ts'

/** How long device request nonces are kept: the timestamp window is 15 minutes either side. */
export const NONCE_RETENTION_MS = 30 * 60_000
/** SMS codes are kept this long after they were sent: the send limits count codes of the last day. */
export const SMS_CODE_RETENTION_MS = 2 * 24 * 3600_000

/** Deletes expired SMS codes older than the retention. Answers how many. */
export async function deleteOldSmsCodes(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - SMS_CODE_RETENTION_MS)
  return (await one<{ n: number }>(
    db,
    sql`
    WITH d AS (DELETE FROM sms_codes WHERE create_time < ${cutoff.toISOString()}::timestamptz
                                    AND expire_time < ${now.toISOString()}::timestamptz RETURNING 1)
    SELECT count(*) AS n FROM d`,
  ))!.n
}

/** Deletes WeChat sign-in states past their expiry. */
export async function deleteExpiredOauthStates(db: DbOrTx, now: Date) {
  return (await one<{ n: number }>(
    db,
    sql`
    WITH d AS (DELETE FROM oauth_states WHERE expire_time < ${now.toISOString()}::timestamptz RETURNING 1)
    SELECT count(*) AS n FROM d`,
  ))!.n
}

/** Deletes device request nonces past the retention. */
export async function deleteOldNonces(db: DbOrTx, now: Date) {
  const cutoff = new Date(now.getTime() - NONCE_RETENTION_MS)
  return (await one<{ n: number }>(
    db,
    sql`
    WITH d AS (DELETE FROM device_nonces WHERE seen_at < ${cutoff.toISOString()}::timestamptz RETURNING 1)
    SELECT count(*) AS n FROM d`,
  ))!.n
}
