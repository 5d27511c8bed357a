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

/** Which of `serials` a live row of the table holds in its serial column. */
async function taken(db: DbOrTx, table: 'devices' | 'cabinets', serials: string[]) {
  if (serials.length === 0) return new Set<string>()
  const column = sql.identifier(table === 'devices' ? 'device_sn' : 'cabinet_sn')
  const rows = await many<{ sn: string }>(
    db,
    sql`SELECT ${column} AS sn FROM ${sql.identifier(table)} WHERE deleted_at IS NULL AND ${column} IN (${listOf(serials)})`,
  )
  return new Set(rows.map((r) => r.sn))
}

/** Serials already taken by a live device. */
export const takenSerials = (db: DbOrTx, serials: string[]) => taken(db, 'devices', serials)

/** Numbers already taken by a live cabinet (anywhere: numbers are global). */
export const takenCabinetSerials = (db: DbOrTx, serials: string[]) => taken(db, 'cabinets', serials)

/**
 * The lock every write of a serial to devices or cabinets takes (migration 0018), held to the end
 * of the transaction: a check after it sees every serial committed before, and none is added
 * until this transaction ends. A statement of its own: a check in the same statement would read
 * the snapshot taken before the wait.
 */
export async function lockSerials(db: DbOrTx) {
  await db.execute(sql`SELECT serials_lock()`)
}
