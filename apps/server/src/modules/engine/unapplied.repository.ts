import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { one } from '../../db/sql.ts'

/** The serial of a message's sender (an AED or a cabinet, deleted or not), or null when unknown. */
export async function senderSerial(db: DbOrTx, kind: 'aed' | 'cabinet', id: number): Promise<string | null> {
  const row =
    kind === 'aed'
      ? await one<{ sn: string }>(db, sql`SELECT device_sn AS sn FROM devices WHERE id = ${id}`)
      : await one<{ sn: string }>(db, sql`SELECT cabinet_sn AS sn FROM cabinets WHERE id = ${id}`)
  return row?.sn ?? null
}

/** The system organisation: the root of the organisation tree (agency_type 0), or null in an empty database. */
export function systemAgency(db: DbOrTx) {
  return one<{ id: number; index_link: string }>(
    db,
    sql`SELECT id, index_link FROM agencies WHERE agency_type = 0 AND parent_id IS NULL ORDER BY id LIMIT 1`,
  )
}
