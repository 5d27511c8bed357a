import crypto from 'node:crypto'
import {
  MAX_BATCH,
  MAX_FILE_BYTES,
  type MessagesAnswer,
  parseDeviceMessage,
} from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import * as commands from '../device/device-command.repository.ts'
import { type Accepted, ingest } from '../engine/engine.service.ts'
import * as repo from './gateway.repository.ts'

/**
 * Checks a body of one message or an array of at most 100: every message against the one
 * schema before anything is stored, so a bad message refuses the whole request (code 1 naming
 * its id and field) and nothing of it is kept.
 */
export function acceptBody(body: unknown): Accepted[] {
  const list = Array.isArray(body) ? body : [body]
  if (list.length === 0 || list.length > MAX_BATCH) throw invalid('DEVICE_BATCH_INVALID', { max: MAX_BATCH })
  return list.map((raw) => {
    const parsed = parseDeviceMessage(raw)
    if (!parsed.ok) {
      const p = parsed.problem
      throw invalid('DEVICE_MESSAGE_INVALID', { id: p.id ?? '?', field: p.field, reason: p.reason })
    }
    return { known: parsed.known, message: parsed.message }
  })
}

/** A signed HTTPS batch: stored and applied, then answered with the commands waiting for the device. */
export async function receiveMessages(
  ctx: AppContext,
  device: DeviceIdentity,
  body: unknown,
): Promise<MessagesAnswer> {
  const accepted = acceptBody(body)
  const { acked, duplicates } = await ingest(ctx, device, accepted, 'https')
  // One query fewer for nearly every answer: a command made since the lookup rides on the next.
  const waiting =
    device.commandsWaiting === false
      ? []
      : await commands.takeWaiting(ctx.db, device.kind, device.id, ctx.clock.now())
  return { acked, duplicates, cmds: waiting.map(commands.toDeviceCommand) }
}

/**
 * A rescue file: stored by its SHA-256 under the device, recorded, and attached to its rescue
 * when that exists (a `file` message attaches it too, whichever comes first).
 */
export async function receiveFile(
  ctx: AppContext,
  device: DeviceIdentity,
  q: { kind: 'ecg'; rescue_event_id: string },
  body: Buffer,
) {
  if (body.length === 0) throw invalid('DEVICE_FILE_EMPTY')
  if (body.length > MAX_FILE_BYTES) throw invalid('DEVICE_FILE_TOO_LARGE')
  const sha256 = crypto.createHash('sha256').update(body).digest('hex')
  const fileId = `${q.kind}-${sha256.slice(0, 32)}`
  const existing = await repo.findFile(ctx.db, device, fileId)
  if (existing) return { file_id: fileId, sha256 }
  const stored = await ctx.storage.put(
    `device-files/${device.sn}/${fileId}.bin`,
    body,
    'application/octet-stream',
  )
  await ctx.db.transaction(async (tx) => {
    await repo.insertFile(tx, device, {
      fileId,
      kind: q.kind,
      rescueEventId: q.rescue_event_id,
      sha256,
      size: body.length,
      url: stored.url,
    })
    if (device.kind === 'aed') await repo.attachFile(tx, device.id, q.rescue_event_id, fileId)
  })
  return { file_id: fileId, sha256 }
}
