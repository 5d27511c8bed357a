import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

// A serial names an AED or a rescue cabinet, never both: the one lock and the lookups that every
// write of a serial to devices or cabinets takes, for the device and cabinet modules alike.

const listOf = (values: string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )

/** Serials already taken by a live device. */
export async function takenSerials(db: DbOrTx, serials: string[]) {
  if (serials.length === 0) return new Set<string>()
  const rows = await many<{ device_sn: string }>(
    db,
    sql`SELECT device_sn FROM devices WHERE deleted_at IS NULL AND device_sn IN (${listOf(serials)})`,
  )
  return new Set(rows.map((r) => r.device_sn))
}

/** Numbers already taken by a live cabinet (anywhere: numbers are global). */
export async function takenCabinetSerials(db: DbOrTx, serials: string[]) {
  if (serials.length === 0) return new Set<string>()
  const rows = await many<{ cabinet_sn: string }>(
    db,
    sql`SELECT cabinet_sn FROM cabinets WHERE deleted_at IS NULL AND cabinet_sn IN (${listOf(serials)})`,
  )
  return new Set(rows.map((r) => r.cabinet_sn))
}

/**
 * The lock every write of a serial to devices or cabinets takes (migration 0018), held to the end
 * of the transaction: a check after it sees every serial committed before, and none is added
 * until this transaction ends. A statement of its own: a check in the same statement would read
 * the snapshot taken before the wait.
 */
export async function lockSerials(db: DbOrTx) {
  await db.execute(sql`SELECT serials_lock()`)
}
