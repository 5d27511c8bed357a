import { AED_TYPES, type DeviceMessage } from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { formatDate } from '../../lib/time.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import { writeEffects } from './effects.ts'
import * as repo from './engine.repository.ts'
import type { Outcome } from './engine.rules.ts'
import type * as inbox from './inbox.repository.ts'
import {
  type Accepted,
  type Applied,
  finish,
  type IngestResult,
  inboxRowOf,
  messageOfRow,
  orderOf,
} from './inbox.ts'
import { inboxRunner } from './inbox-runner.ts'
import { kickIfTold } from './outbox.ts'
import { hintFault, mayBeQuiet, quietBatcher, toMillivolts } from './quiet.ts'
import { reduce } from './reducer.ts'

// The AED's engine: a transport's validated messages (ingest) become inbox rows, each applied in
// its own transaction by one path: the inbox runner (inbox-runner.ts, shared with the cabinet's
// engine) locks the device and applies its earlier waiting rows, then applyMessage reads the row
// as its message, judges its order, reduces (reducer.ts), writes the answer (effects.ts). Its
// entry points, one per use:
// applyNewMessage (store and apply), applyStoredRow (a row stored before: the quiet batch's loud
// ones, the retry job's), applyCheck (a missed deadline or a re-check, no message).

export type { Accepted, IngestResult, Outcome } from './inbox.ts'

/**
 * Stores and applies an AED's messages (a cabinet's go to modules/cabinet), in order, and
 * answers only after each is committed: one transaction per message (store in the inbox, lock
 * the device, reduce, write records, events and outbox rows, mark it done). A run of heartbeats and passing self-tests goes to the
 * quiet batch, which stores them together and answers which of them change something: those
 * are applied here, one by one, as stored rows. When applying fails, the message is still
 * stored (outcome 'failed') and acknowledged: the retry job applies it later. Only when even
 * storing fails does this throw (nothing acked).
 */
export async function ingest(
  ctx: AppContext,
  sender: DeviceIdentity,
  items: Accepted[],
  transport: 'mqtt' | 'https',
): Promise<IngestResult> {
  if (sender.kind !== 'aed') throw new Error(`the AED engine got a ${sender.kind}'s messages`)
  const result: IngestResult = []
  const quiet = (a: Accepted) => a.known && mayBeQuiet(ctx, sender.id, a.message as DeviceMessage)
  let i = 0
  while (i < items.length) {
    if (!quiet(items[i])) {
      const row = inboxRowOf(sender, items[i++].message, ctx.clock.now(), transport)
      result.push({ id: row.msg_id, outcome: await applyNewMessage(ctx, row) })
      continue
    }
    // A run of quiet messages goes to the batch together.
    const rows: inbox.NewInboxRow[] = []
    while (i < items.length && quiet(items[i])) {
      rows.push(inboxRowOf(sender, items[i++].message, ctx.clock.now(), transport))
    }
    const answers = await quietBatcher(ctx).submit(rows)
    for (const [k, a] of answers.entries()) {
      let outcome =
        a === 'alone'
          ? await applyNewMessage(ctx, rows[k])
          : typeof a === 'object'
            ? ((await applyStoredRow(ctx, a.loud)) ?? 'applied')
            : a
      // The same id again in this request, after its first was refused: refused again, not a
      // duplicate of something that was never kept.
      if (
        outcome === 'duplicate' &&
        result.some((r) => r.id === rows[k].msg_id && r.outcome === 'seq_reused')
      ) {
        outcome = 'seq_reused'
      }
      result.push({ id: rows[k].msg_id, outcome })
    }
  }
  return result
}

/** The AED's inbox machinery (inbox-runner.ts): its rows, locked by device, applied by applyMessage. */
const runner = inboxRunner({ kind: 'aed', lock: repo.lockDevice, apply: applyMessage })

/** Stores one message and applies it in the same transaction (kept for the retry job when applying fails). */
export function applyNewMessage(ctx: AppContext, row: inbox.NewInboxRow): Promise<Outcome> {
  return runner.applyNew(ctx, row)
}

/**
 * Applies one stored, unapplied inbox row of an AED in its own transaction (a quiet message
 * that changes something, or the retry job's). A failure keeps it for the retry job: to the
 * device it is applied. Null when it was no longer waiting (applied meanwhile, or held by
 * another instance).
 */
export async function applyStoredRow(ctx: AppContext, inboxId: number): Promise<Outcome | null> {
  try {
    const r = await runner.applyStored(ctx, inboxId)
    return r === 'failed' ? 'applied' : r
  } finally {
    kickIfTold(ctx)
  }
}

/** Applies AED inbox rows that were acknowledged but not applied (after a crash or a failure). */
export function retryInbox(ctx: AppContext, limit = 500): Promise<number> {
  return runner.retry(ctx, limit)
}

/**
 * Applies a missed deadline (offline) or a re-check (day changed, settings or installation edited, the
 * AED's cabinet has it back) to a device: in its own transaction, or in the caller's `tx` (a
 * cabinet's message that re-checks its AED). Answers false when nothing was left to do.
 */
export async function applyCheck(
  ctx: AppContext,
  deviceId: number,
  kind: 'deadline' | 'recheck',
  tx?: DbOrTx,
): Promise<boolean> {
  if (tx) return checkIn(ctx, tx, deviceId, kind)
  return ctx.db.transaction((own) => checkIn(ctx, own, deviceId, kind)).finally(() => kickIfTold(ctx))
}

async function checkIn(ctx: AppContext, tx: DbOrTx, deviceId: number, kind: 'deadline' | 'recheck') {
  const now = ctx.clock.now()
  const facts = await repo.lockDevice(tx, deviceId)
  if (!facts || facts.deleted) return false
  let time = now
  if (kind === 'deadline') {
    // Another instance's sweep, or a message, got here first.
    const deadline = await repo.deadlinePassed(tx, deviceId, now)
    if (!deadline) return false
    // Offline since the deadline it missed, not since the sweep noticed.
    time = deadline
  }
  const out = reduce(facts.state, { kind, time }, rulesOf(facts, now))
  await writeEffects(ctx, tx, facts, out, {
    now,
    key: `${kind[0]}${now.getTime()}`,
    offline: kind === 'deadline',
  })
  return true
}

/** What the reducer reads of a device besides its state. */
function rulesOf(facts: repo.DeviceFacts, now: Date) {
  return {
    installation: facts.installation,
    rules: facts.rules,
    today: formatDate(now),
    notReturned: facts.notReturned,
  }
}

/**
 * Applies a stored row to its locked device inside the caller's transaction: the one path every
 * AED message takes (the runner has applied the device's earlier waiting rows first).
 */
async function applyMessage(
  ctx: AppContext,
  tx: DbOrTx,
  row: inbox.InboxRow,
  facts: repo.DeviceFacts | null,
  now: Date,
): Promise<Applied> {
  const message = messageOfRow(row, AED_TYPES)
  // A deleted device's kept messages are not applied (applyCheck and the cabinet do the same).
  if (!facts || facts.deleted || !message) return finish(tx, row, 'ignored', now)
  const order = await orderOf(ctx, tx, row, { has: facts.has_state, ...facts.state })
  if (order === 'duplicate' || order === 'seq_reused') return order
  const stale = order === 'stale'
  // A step of a rescue that is not the one under way (it ended, or it is an old step that came
  // late) joins that rescue's history; the device is alive, but its rescue state stays.
  let late: { rescueId: number | null } | null = null
  if (message.type === 'usage' && facts.state.rescue?.rescueEventId !== message.data.rescue_event_id) {
    const old = await repo.findRescue(tx, facts.id, message.data.rescue_event_id)
    if (old?.ended_at || stale) late = { rescueId: old?.id ?? null }
  }
  const out = reduce(
    facts.state,
    { kind: 'message', message, time: row.event_time, stale, lateUsage: late !== null },
    rulesOf(facts, now),
  )
  await writeEffects(ctx, tx, facts, out, {
    now,
    key: `m${row.msg_id}`,
    seenAt: row.received_at,
    rssi: message.type === 'heartbeat' ? message.data.rssi : undefined,
    cableVoltage:
      message.type === 'heartbeat' && message.data.cable_voltage !== undefined
        ? toMillivolts(message.data.cable_voltage)
        : undefined,
    positioningType: message.type === 'location' ? message.data.positioning_type : undefined,
    lateRescueId: late?.rescueId,
  })
  hintFault(
    ctx,
    facts.id,
    out.state.open.some((c) => c.kind === 'fault'),
  )
  return finish(tx, row, stale ? 'stale' : 'applied', now)
}

/** Links a file a device uploaded to one of its rescue events (the gateway's file upload). */
export async function attachRescueFile(tx: DbOrTx, deviceId: number, rescueEventId: string, fileId: string) {
  await repo.attachRescueFile(tx, deviceId, rescueEventId, fileId)
}
