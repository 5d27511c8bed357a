import { and, desc, eq, gt, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { accounts, smsCodes } from '../../db/schema.ts'
import { one } from '../../db/sql.ts'

/**
 * The code_hash of a request to a number without an account: it counts against every limit like
 * a sent code, but no SMS went out and no code can ever match it.
 */
export const UNSENT = 'unsent'

/** Serialises sends to one phone, so two requests cannot both pass the 60 s check. */
export async function lockPhone(tx: DbOrTx, phone: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sms:${phone}`}))`)
}

/** Serialises sends from one client address, so a burst cannot slip past its limits together. */
export async function lockIp(tx: DbOrTx, ip: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sms-ip:${ip}`}))`)
}

/** True when an account uses this phone. */
export async function accountExists(tx: DbOrTx, phone: string) {
  const rows = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.phone, phone)).limit(1)
  return rows.length > 0
}

/**
 * Seconds since the newest code to this phone, its count in the last day, and this address's
 * counts in the last minute and hour (requests to numbers without an account included).
 */
export async function sendStats(tx: DbOrTx, phone: string, ip: string) {
  const row = (await one<{
    since_last: number | null
    phone_day: number
    ip_minute: number
    ip_hour: number
  }>(
    tx,
    sql`SELECT
      (SELECT extract(epoch FROM now() - max(create_time)) FROM sms_codes WHERE phone = ${phone}) AS since_last,
      (SELECT count(*) FROM sms_codes WHERE phone = ${phone} AND create_time > now() - interval '1 day') AS phone_day,
      (SELECT count(*) FROM sms_codes WHERE ip = ${ip} AND create_time > now() - interval '1 minute') AS ip_minute,
      (SELECT count(*) FROM sms_codes WHERE ip = ${ip} AND create_time > now() - interval '1 hour') AS ip_hour`,
  ))!
  return { sinceLast: row.since_last, phoneDay: row.phone_day, ipMinute: row.ip_minute, ipHour: row.ip_hour }
}

/**
 * True when `limit` codes were sent (to any number) in the last hour. Reads the newest rows by
 * primary key and looks at the limit-th sent one, so it costs the same however large the table is.
 */
export async function sentInLastHourReached(tx: DbOrTx, limit: number) {
  const row = await one<{ recent: boolean }>(
    tx,
    sql`SELECT create_time > now() - interval '1 hour' AS recent FROM sms_codes
        WHERE code_hash <> ${UNSENT} ORDER BY id DESC OFFSET ${limit - 1} LIMIT 1`,
  )
  return row?.recent === true
}

export async function insertCode(
  tx: DbOrTx,
  v: { phone: string; scene: string; code_hash: string; ip: string; ttlSeconds: number },
) {
  await tx.insert(smsCodes).values({
    phone: v.phone,
    scene: v.scene,
    code_hash: v.code_hash,
    ip: v.ip,
    expire_time: sql`now() + make_interval(secs => ${v.ttlSeconds})`,
  })
}

/** The newest unused, unexpired code of a phone for a scene. */
export async function latestLiveCode(tx: DbOrTx, phone: string, scene: string) {
  const [row] = await tx
    .select()
    .from(smsCodes)
    .where(
      and(
        eq(smsCodes.phone, phone),
        eq(smsCodes.scene, scene),
        eq(smsCodes.used, false),
        gt(smsCodes.expire_time, sql`now()`),
      ),
    )
    .orderBy(desc(smsCodes.create_time))
    .limit(1)
  return row ?? null
}

export async function markUsed(tx: DbOrTx, id: number) {
  await tx.update(smsCodes).set({ used: true }).where(eq(smsCodes.id, id))
}

export async function countAttempt(tx: DbOrTx, id: number) {
  await tx
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(eq(smsCodes.id, id))
}
