import crypto from 'node:crypto'
import type { CommandRow } from '@aed/contracts/device-command'
import { COMMAND_TTL_MS, type CommandName } from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import * as devices from './device.repository.ts'
import { deviceRules } from './device.rules.ts'
import * as repo from './device-command.repository.ts'

/** The bus channel that tells the gateway a command is waiting (payload: cmd_id, kind, sender id, serial). */
export const COMMAND_CHANNEL = 'device_command'
export type CommandNotice = { cmd_id: string; kind: 'aed' | 'cabinet'; sender_id: number; sn: string }

/** A command as the console shows it. */
export function presentCommand(c: repo.CommandRecord): CommandRow {
  return {
    cmd_id: c.cmd_id,
    name: c.name,
    state: c.state,
    creator_name: c.creator_name,
    create_time: formatDateTime(c.create_time),
    expires_at: formatDateTime(c.expires_at),
    sent_at: c.sent_at ? formatDateTime(c.sent_at) : null,
    ack_time: c.ack_time ? formatDateTime(c.ack_time) : null,
    error: c.error,
  }
}

async function deviceInScope(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await devices.deviceSecrets(ctx.db, { id })
  if (!row || !(await agencyInScope(ctx, auth, row.agency_id))) throw notFound()
  return row
}

/** Who a command goes to: an AED or a cabinet, by id and serial. */
export type Sender = { kind: 'aed' | 'cabinet'; id: number; sn: string }

/**
 * Stores a command and tells the gateway. It waits in the table: the gateway publishes it at
 * once when the device is connected over MQTT, or hands it over in the device's next HTTPS
 * answer; it expires unanswered after a day.
 */
export async function issueCommand(
  ctx: AppContext,
  auth: { member_id: number | null; user_name: string },
  to: Sender,
  name: CommandName,
) {
  const now = ctx.clock.now()
  const row = await repo.insertCommand(ctx.db, {
    cmdId: crypto.randomUUID(),
    kind: to.kind,
    senderId: to.id,
    name,
    args: {},
    creator: auth.member_id,
    creatorName: auth.user_name,
    now,
    expiresAt: new Date(now.getTime() + COMMAND_TTL_MS),
  })
  const notice: CommandNotice = { cmd_id: row.cmd_id, kind: to.kind, sender_id: to.id, sn: to.sn }
  await ctx.events.publish(COMMAND_CHANNEL, notice)
  return row
}

/** A super administrator asks a device for something now (self-test, locate). */
export async function sendCommand(ctx: AppContext, auth: AuthContext, id: number, name: CommandName) {
  if (!deviceRules.command(auth)) throw forbidden()
  const device = await deviceInScope(ctx, auth, id)
  const row = await issueCommand(ctx, auth, { kind: 'aed', id: device.id, sn: device.device_sn }, name)
  return { ...presentCommand(row), device_sn: device.device_sn }
}

/** A sender's last commands, as the console shows them (an AED's here, a cabinet's in its module). */
export async function commandsOf(ctx: AppContext, kind: Sender['kind'], id: number) {
  return (await repo.listCommands(ctx.db, kind, id)).map(presentCommand)
}

/** The device's last commands. */
export async function listCommands(ctx: AppContext, auth: AuthContext, id: number) {
  const device = await deviceInScope(ctx, auth, id)
  return (await repo.listCommands(ctx.db, 'aed', device.id)).map(presentCommand)
}
