import type { CommandName, DeviceCommand } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import type { deviceCommands } from '../../db/schema.ts'
import { many, one } from '../../db/sql.ts'

const iso = (d: Date) => d.toISOString()

/** A command row as the console reads it. */
export type CommandRecord = Pick<
  typeof deviceCommands.$inferSelect,
  | 'cmd_id'
  | 'name'
  | 'args'
  | 'state'
  | 'creator_name'
  | 'create_time'
  | 'expires_at'
  | 'sent_at'
  | 'ack_time'
  | 'error'
>

const COLUMNS = sql`cmd_id, name, args, state, creator_name, create_time, expires_at, sent_at, ack_time, error`

export async function insertCommand(
  db: DbOrTx,
  c: {
    cmdId: string
    kind: 'aed' | 'cabinet'
    senderId: number
    name: CommandName
    args: Record<string, unknown>
    creator: number | null
    creatorName: string
    now: Date
    expiresAt: Date
  },
): Promise<CommandRecord> {
  return (await one<CommandRecord>(
    db,
    sql`
    INSERT INTO device_commands (cmd_id, sender_kind, sender_id, name, args, creator, creator_name, create_time, expires_at)
    VALUES (${c.cmdId}, ${c.kind}, ${c.senderId}, ${c.name}, ${JSON.stringify(c.args)}::jsonb, ${c.creator},
      ${c.creatorName}, ${iso(c.now)}::timestamptz, ${iso(c.expiresAt)}::timestamptz)
    RETURNING ${COLUMNS}`,
  )) as CommandRecord
}

/** The last commands of a device, newest first. */
export async function listCommands(db: DbOrTx, kind: 'aed' | 'cabinet', senderId: number, limit = 20) {
  return many<CommandRecord>(
    db,
    sql`SELECT ${COLUMNS} FROM device_commands
        WHERE sender_kind = ${kind} AND sender_id = ${senderId}
        ORDER BY create_time DESC, id DESC LIMIT ${limit}`,
  )
}

/**
 * The commands still waiting for a device (not expired), marked sent: what an HTTPS answer
 * carries. A command already sent on MQTT but not answered goes again (the device may have
 * missed it; it answers each cmd_id once).
 */
export async function takeWaiting(db: DbOrTx, kind: 'aed' | 'cabinet', senderId: number, now: Date) {
  const rows = await many<CommandRecord>(
    db,
    sql`
    UPDATE device_commands SET state = 'sent', sent_at = coalesce(sent_at, ${iso(now)}::timestamptz)
    WHERE sender_kind = ${kind} AND sender_id = ${senderId} AND state IN ('pending', 'sent')
      AND expires_at > ${iso(now)}::timestamptz
    RETURNING ${COLUMNS}`,
  )
  return rows.sort((a, b) => a.create_time.getTime() - b.create_time.getTime())
}

/**
 * Marks one waiting command sent and answers it, or null when it is no longer waiting (already
 * taken by an HTTPS answer or another server instance, answered, or expired). Whoever gets the
 * row publishes it on MQTT, so several instances hearing the same notice publish it once.
 */
export async function claimCommand(db: DbOrTx, cmdId: string, now: Date): Promise<CommandRecord | null> {
  return one<CommandRecord>(
    db,
    sql`
    UPDATE device_commands SET state = 'sent', sent_at = coalesce(sent_at, ${iso(now)}::timestamptz)
    WHERE cmd_id = ${cmdId} AND state = 'pending' AND expires_at > ${iso(now)}::timestamptz
    RETURNING ${COLUMNS}`,
  )
}

/** Expires what nobody answered in time; answers how many. */
export async function expireCommands(db: DbOrTx, now: Date): Promise<number> {
  const rows = await many<{ id: number }>(
    db,
    sql`UPDATE device_commands SET state = 'expired'
        WHERE state IN ('pending', 'sent') AND expires_at <= ${iso(now)}::timestamptz RETURNING id`,
  )
  return rows.length
}

/** A command as the device receives it. */
export function toDeviceCommand(c: CommandRecord): DeviceCommand {
  return { cmd_id: c.cmd_id, name: c.name, args: c.args, expires_at: iso(c.expires_at) }
}

/** The serial of a device by id (for publishing to its topic). */
export async function deviceSerial(db: DbOrTx, id: number) {
  return (
    (await one<{ device_sn: string }>(db, sql`SELECT device_sn FROM devices WHERE id = ${id}`))?.device_sn ??
    null
  )
}
