import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

// The SQL of MQTT_AUTH=mosquitto-dynsec: the register's secrets by serial, and the queue of
// serials to bring in step (mqtt_dynsec_changes, written by the triggers of migration 0036).

/** A live AED's or cabinet's sealed secrets. */
export type SealedSecrets = {
  kind: 'aed' | 'cabinet'
  sn: string
  secret_enc: string
  prev_secret_enc: string | null
  prev_secret_until: Date | null
}

/** The live AEDs and cabinets with their sealed secrets: of the given serials, or all of them. */
export function registerSecrets(db: DbOrTx, sns: readonly string[] | null) {
  const only = (column: string) =>
    sns === null ? sql`` : sql` AND ${sql.raw(column)} = ANY(${`{${sns.map(arrayItem).join(',')}}`}::text[])`
  return many<SealedSecrets>(
    db,
    sql`SELECT 'aed' AS kind, device_sn AS sn, secret_enc, prev_secret_enc, prev_secret_until
          FROM devices WHERE deleted_at IS NULL${only('device_sn')}
        UNION ALL
        SELECT 'cabinet', cabinet_sn, secret_enc, prev_secret_enc, prev_secret_until
          FROM cabinets WHERE deleted_at IS NULL${only('cabinet_sn')}`,
  )
}

/** A serial as an element of a text[] literal (serials are letters, digits, - and _; quoted anyway). */
function arrayItem(s: string) {
  return `"${s.replace(/["\\]/g, '\\$&')}"`
}

/** A queued serial as a drain claimed it. */
export type Change = { sn: string; retired_enc: string[]; version: number; attempts: number }

/**
 * Claims up to `limit` due serials for `leaseMs` (SKIP LOCKED: instances take different ones); a
 * claim not settled by then (the instance died) is due again.
 */
export function claimChanges(db: DbOrTx, now: Date, leaseMs: number, limit: number) {
  return many<Change>(
    db,
    sql`UPDATE mqtt_dynsec_changes c
        SET due_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz, attempts = c.attempts + 1
        WHERE c.sn IN (
          SELECT sn FROM mqtt_dynsec_changes
          WHERE due_at IS NULL OR due_at <= ${now.toISOString()}::timestamptz
          ORDER BY due_at NULLS FIRST LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING c.sn, c.retired_enc, c.version, c.attempts`,
  )
}

/**
 * Settles a claimed serial that is in step: gone from the queue, or due again at `again` (the end
 * of a rotation's overlap) with its retired secrets done. Unless it changed meanwhile: then it
 * stays due now, for another pass.
 */
export async function settleChange(db: DbOrTx, c: Change, again: Date | null) {
  if (again === null) {
    await db.execute(sql`DELETE FROM mqtt_dynsec_changes WHERE sn = ${c.sn} AND version = ${c.version}`)
    return
  }
  await db.execute(
    sql`UPDATE mqtt_dynsec_changes SET due_at = ${again.toISOString()}::timestamptz, retired_enc = '{}',
          attempts = 0, last_error = NULL
        WHERE sn = ${c.sn} AND version = ${c.version}`,
  )
}

/** Puts a claimed serial back for a retry at `at`, with the error (unless it changed meanwhile). */
export async function retryChange(db: DbOrTx, c: Change, at: Date, error: string) {
  await db.execute(
    sql`UPDATE mqtt_dynsec_changes SET due_at = ${at.toISOString()}::timestamptz, last_error = ${error.slice(0, 500)}
        WHERE sn = ${c.sn} AND version = ${c.version}`,
  )
}

/** The queue's due rows as a reconcile starts (read in the transaction that reads the register). */
export function dueChanges(db: DbOrTx, now: Date) {
  return many<{ sn: string; version: number }>(
    db,
    sql`SELECT sn, version FROM mqtt_dynsec_changes
        WHERE due_at IS NULL OR due_at <= ${now.toISOString()}::timestamptz`,
  )
}

/**
 * After a reconcile: the due rows it covered are done (unless changed since), and every serial
 * within a rotation's overlap is due again when it ends, so its previous account is removed then.
 */
export async function afterReconcile(
  db: DbOrTx,
  covered: readonly { sn: string; version: number }[],
  overlaps: readonly { sn: string; until: Date }[],
) {
  if (covered.length > 0) {
    await db.execute(
      sql`DELETE FROM mqtt_dynsec_changes c USING unnest(
            ${`{${covered.map((c) => arrayItem(c.sn)).join(',')}}`}::text[],
            ${`{${covered.map((c) => c.version).join(',')}}`}::bigint[]) AS d(sn, version)
          WHERE c.sn = d.sn AND c.version = d.version`,
    )
  }
  if (overlaps.length > 0) {
    await db.execute(
      sql`INSERT INTO mqtt_dynsec_changes (sn, due_at)
          SELECT * FROM unnest(
            ${`{${overlaps.map((o) => arrayItem(o.sn)).join(',')}}`}::text[],
            ${`{${overlaps.map((o) => o.until.toISOString()).join(',')}}`}::timestamptz[])
          ON CONFLICT (sn) DO NOTHING`,
    )
  }
}

/** Serials waiting (for the readiness of a test or an operator's look). */
export async function pendingCount(db: DbOrTx, now: Date) {
  const [r] = await many<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM mqtt_dynsec_changes
        WHERE due_at IS NULL OR due_at <= ${now.toISOString()}::timestamptz OR attempts > 0`,
  )
  return r.n
}
