import crypto from 'node:crypto'
import {
  MAX_BATCH,
  MAX_FILE_BYTES,
  type MessagesAnswer,
  parseDeviceMessage,
  type Refusal,
  seqReusedRefusal,
} from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import { counter } from '../../lib/metrics.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import { deviceFileKey } from '../../providers/storage/storage-provider.ts'
import { ingestCabinet } from '../cabinet/cabinet-engine.service.ts'
import * as commands from '../device/device-command.port.ts'
import {
  type Accepted,
  attachRescueFile,
  type IngestResult,
  ingest,
  type Outcome,
} from '../engine/engine.service.ts'
import * as repo from './gateway.repository.ts'

/** One message of a request: accepted for the engine, or refused (nothing of it stored). */
export type Checked = { accepted: Accepted } | { refused: Refusal }

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads a request body as the protocol's JSON: well-formed UTF-8 and JSON, one message or an
 * array of 1 to 100. Anything else refuses the whole request (code 1), nothing stored.
 */
export function readBody(bytes: Buffer): unknown[] {
  let raw: unknown
  try {
    raw = JSON.parse(utf8.decode(bytes))
  } catch {
    throw invalid('DEVICE_BODY_INVALID')
  }
  const list = Array.isArray(raw) ? raw : [raw]
  if (list.length === 0 || list.length > MAX_BATCH) throw invalid('DEVICE_BATCH_INVALID', { max: MAX_BATCH })
  return list
}

/** Checks one message against the one schema (both transports), with its place in the request. */
export function checkMessage(raw: unknown, index: number): Checked {
  const parsed = parseDeviceMessage(raw)
  if (parsed.ok) return { accepted: { known: parsed.known, message: parsed.message } }
  const p = parsed.problem
  return { refused: { index, id: p.id, code: p.code, field: p.field, reason: p.reason } }
}

/** Device messages handed to the engines, per transport (the inbox's column: https or mqtt). */
export const messagesIn = counter(
  'aed_device_messages_in_total',
  'Device messages received and handed to the engine, per transport',
  {
    labels: ['transport'],
    preset: [{ transport: 'https' }, { transport: 'mqtt' }],
  },
)

/**
 * Hands a sender's validated messages to its engine (the AED's, or the rescue cabinet's), which
 * stores and applies them and answers each one's fate after its commit. Both transports call it.
 */
export function ingestFrom(
  ctx: AppContext,
  sender: DeviceIdentity,
  items: Accepted[],
  transport: 'mqtt' | 'https',
): Promise<IngestResult> {
  messagesIn.inc(ctx, { transport }, items.length)
  return sender.kind === 'cabinet'
    ? ingestCabinet(ctx, sender, items, transport)
    : ingest(ctx, sender, items, transport)
}

/** Sorts what the engine answered, and the refusals, into the answer's lists. */
export function answerOf(result: IngestResult, refused: Refusal[]): Omit<MessagesAnswer, 'cmds'> {
  const pick = (o: Outcome) => result.filter((r) => r.outcome === o).map((r) => r.id)
  const reused = result
    .map((r, i) => ({ ...r, i }))
    .filter((r) => r.outcome === 'seq_reused')
    .map((r) => seqReusedRefusal(r.id, r.i))
  return {
    acked: pick('applied'),
    duplicates: pick('duplicate'),
    stale: pick('stale'),
    refused: [...refused, ...reused],
  }
}

/**
 * A signed HTTPS batch: every message checked, the valid ones stored and applied in order, the
 * others refused by their place, id and field without taking their neighbours with them; then
 * answered with each message's fate and the commands waiting for the device.
 */
export async function receiveMessages(
  ctx: AppContext,
  device: DeviceIdentity,
  body: unknown,
): Promise<MessagesAnswer> {
  const list = readBody(Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body ?? null)))
  const checked = list.map(checkMessage)
  const accepted: Accepted[] = []
  const places: number[] = []
  const refused: Refusal[] = []
  for (const [i, c] of checked.entries()) {
    if ('refused' in c) refused.push(c.refused)
    else {
      accepted.push(c.accepted)
      places.push(i)
    }
  }
  const result = accepted.length ? await ingestFrom(ctx, device, accepted, 'https') : []
  const answer = answerOf(result, refused)
  // A reused pair's place in the request, not in the accepted list.
  for (const r of answer.refused) if (r.code === 'seq_reused') r.index = places[r.index]
  answer.refused.sort((a, b) => a.index - b.index)
  // One query fewer for nearly every answer: a command made since the lookup rides on the next.
  const waiting =
    device.commandsWaiting === false
      ? []
      : await commands.takeWaiting(ctx.db, device.kind, device.id, ctx.clock.now())
  return { ...answer, cmds: waiting.map(commands.toDeviceCommand) }
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
  // Health data: kept under the private prefix, which no public URL serves.
  const stored = await ctx.storage.put(deviceFileKey(device.sn, fileId), body, 'application/octet-stream')
  await ctx.db.transaction(async (tx) => {
    await repo.insertFile(tx, device, {
      fileId,
      kind: q.kind,
      rescueEventId: q.rescue_event_id,
      sha256,
      size: body.length,
      url: stored.url,
    })
    if (device.kind === 'aed') await attachRescueFile(tx, device.id, q.rescue_event_id, fileId)
  })
  return { file_id: fileId, sha256 }
}
