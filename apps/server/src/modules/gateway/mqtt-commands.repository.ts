import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { one } from '../../db/sql.ts'
import type { CommandRecord } from '../device/device-command.repository.ts'

/**
 * Marks one waiting command sent and answers it, or null when it is no longer waiting (already
 * taken by an HTTPS answer or another server instance, answered, or expired). Whoever gets the
 * row publishes it, so several instances hearing the same notice publish it once.
 */
export async function claimCommand(db: DbOrTx, cmdId: string, now: Date): Promise<CommandRecord | null> {
  return one<CommandRecord>(
    db,
    sql`
    UPDATE device_commands SET state = 'sent', sent_at = coalesce(sent_at, ${now.toISOString()}::timestamptz)
    WHERE cmd_id = ${cmdId} AND state = 'pending' AND expires_at > ${now.toISOString()}::timestamptz
    RETURNING cmd_id, name, args, state, creator_name, create_time, expires_at, sent_at, ack_time, error`,
  )
}
