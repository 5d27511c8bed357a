import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'
import { NONCE_RETENTION_MS } from '../../jobs/housekeeping.repository.ts'

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
