import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'

/** Throws unless the database answers. */
export async function ping(db: DbOrTx) {
  await db.execute(sql`SELECT 1`)
}
