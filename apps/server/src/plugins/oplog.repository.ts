import type { DbOrTx } from '../db/client.ts'
import { operationLogs } from '../db/schema.ts'

/**
 * Writes one entry of the operation log; only the operation-log plugin calls this. The plugin
 * writes the log and the operation-log module reads it: the write is here, below the modules.
 */
export async function insertLog(db: DbOrTx, values: typeof operationLogs.$inferInsert) {
  await db.insert(operationLogs).values(values)
}
