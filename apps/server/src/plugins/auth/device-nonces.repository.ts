import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

/** How long device request nonces are kept: the timestamp window is 15 minutes either side. */
export const NONCE_RETENTION_MS = 30 * 60_000

/**
 * Records a device's request nonce; false when the same nonce was seen within the retention
 * (a replay). One statement, so two instances receiving the same request cannot both accept it.
 */
export async function rememberNonce(db: DbOrTx, sn: string, nonce: string, now: Date): Promise<boolean> {
  const cutoff = new Date(now.getTime() - NONCE_RETENTION_MS)
  const rows = await many(
    db,
    sql`
    INSERT INTO device_nonces (device_sn, nonce, seen_at)
    VALUES (${sn}, ${nonce}, ${now.toISOString()}::timestamptz)
    ON CONFLICT (device_sn, nonce) DO UPDATE SET seen_at = EXCLUDED.seen_at
      WHERE device_nonces.seen_at < ${cutoff.toISOString()}::timestamptz
    RETURNING 1 AS fresh`,
  )
  return rows.length === 1
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
