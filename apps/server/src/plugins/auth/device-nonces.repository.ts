import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

/** How long device request nonces are kept: the timestamp window is 15 minutes either side. */
export const NONCE_RETENTION_MS = 30 * 60_000

/**
 * Records a nonce of one caller in `table` (its `owner` column names the caller); false when it
 * was seen within the retention (a replay). One statement, so two instances receiving the same
 * request cannot both accept it; an entry older than the retention is taken as new.
 */
export async function rememberOnce(
  db: DbOrTx,
  table: 'device_nonces' | 'open_api_nonces',
  owner: { column: 'device_sn' | 'config_id'; value: string | number },
  nonce: string,
  now: Date,
  retentionMs: number,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - retentionMs)
  const t = sql.identifier(table)
  const c = sql.identifier(owner.column)
  const rows = await many(
    db,
    sql`
    INSERT INTO ${t} (${c}, nonce, seen_at)
    VALUES (${owner.value}, ${nonce}, ${now.toISOString()}::timestamptz)
    ON CONFLICT (${c}, nonce) DO UPDATE SET seen_at = EXCLUDED.seen_at
      WHERE ${t}.seen_at < ${cutoff.toISOString()}::timestamptz
    RETURNING 1 AS fresh`,
  )
  return rows.length === 1
}

/** Records a device's request nonce; false when the same nonce was seen within the retention (a replay). */
export function rememberNonce(db: DbOrTx, sn: string, nonce: string, now: Date): Promise<boolean> {
  return rememberOnce(db, 'device_nonces', { column: 'device_sn', value: sn }, nonce, now, NONCE_RETENTION_MS)
}

/**
 * The device_nonces key of an MQTT CONNECT's ts. The space keeps it apart from every HTTPS
 * nonce, which is printable ASCII without spaces.
 */
export const mqttConnectNonce = (ts: string) => `mqtt ${ts}`

/**
 * Records that a device's CONNECT password for `ts` was accepted; false when it was before (a
 * replay, on this instance or another sharing the database, before or after a restart). The
 * row counts from the later of now and the ts, so it outlives the 15 minutes the ts stays
 * acceptable even when the device's clock is ahead; the housekeeping job purges it with the
 * HTTPS nonces.
 */
export function rememberMqttConnect(db: DbOrTx, sn: string, ts: string, now: Date): Promise<boolean> {
  const from = new Date(Math.max(now.getTime(), Number(ts)))
  return rememberNonce(db, sn, mqttConnectNonce(ts), from)
}
