import type { DeviceMessage, MessageType, UnknownMessage } from '@aed/contracts/device-protocol'
import { PROTOCOL_VERSION } from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import { eventTimeOf, type Outcome } from './engine.rules.ts'
import * as repo from './inbox.repository.ts'
import { reportUnapplied } from './unapplied.ts'

// The inbox steps every sender's engine takes (the AED's, engine.service.ts, and the rescue
// cabinet's, modules/cabinet/cabinet-engine.service.ts): a transport's validated message becomes
// a row, a stored row is read back as its message (never validated again: only valid messages
// are stored), its place in the sender's order is judged, and what became of it is recorded.

/** A message the transport validated (parseDeviceMessage), known type or not. */
export type Accepted = { known: boolean; message: DeviceMessage | UnknownMessage }

export type { Outcome } from './engine.rules.ts'

/** What a batch came to, message by message, in the order sent. */
export type IngestResult = { id: string; outcome: Outcome }[]

/** What applying a stored row came to (`ignored`: an unknown type or a sender's foreign type). */
export type Applied = Outcome | 'ignored'

/** The answer for a device: an ignored message was stored and is not to be sent again. */
export const answerOf = (a: Applied): Outcome => (a === 'ignored' ? 'applied' : a)

/** A validated message as the inbox stores it. */
export function inboxRowOf(
  sender: DeviceIdentity,
  m: DeviceMessage | UnknownMessage,
  receivedAt: Date,
  transport: 'mqtt' | 'https',
): repo.NewInboxRow {
  const { time, flagged } = eventTimeOf(m.ts, receivedAt)
  return {
    sender_kind: sender.kind,
    sender_id: sender.id,
    msg_id: m.id,
    type: m.type,
    boot: m.boot,
    seq: m.seq,
    device_ts: flagged ? null : new Date(m.ts),
    event_time: time,
    ts_flagged: flagged,
    received_at: receivedAt,
    transport,
    data: m.data as Record<string, unknown>,
  }
}

/**
 * A stored row as the message it was accepted as, when its type is one of `types` (the sender's
 * own); null otherwise (an unknown type, or the other kind's). Trusts the inbox: a row is stored
 * only after its transport validated it, so it is not checked again.
 */
export function messageOfRow(row: repo.InboxRow, types: readonly MessageType[]): DeviceMessage | null {
  if (!(types as readonly string[]).includes(row.type)) return null
  return {
    v: PROTOCOL_VERSION,
    id: row.msg_id,
    seq: row.seq,
    boot: row.boot,
    ts: row.event_time.getTime(),
    type: row.type,
    data: row.data,
  } as DeviceMessage
}

/** Later in the device's own order (boot, then seq)? */
export function isNewer(boot: number, seq: number, state: { lastBoot: number; lastSeq: number }) {
  return boot > state.lastBoot || (boot === state.lastBoot && seq > state.lastSeq)
}

/**
 * Where a message stands in its sender's order: new, `stale` (not newer than the state), a
 * `duplicate` or `seq_reused` (its (boot, seq) is another stored message's, with the same body or
 * not: the row is taken back), or a `reset` (a `hello` not newer than the state: the device's
 * counters started again, say after a board swap, and the state takes its pair).
 */
export async function orderOf(
  ctx: AppContext,
  tx: DbOrTx,
  row: repo.InboxRow,
  state: { has: boolean; lastBoot: number; lastSeq: number },
): Promise<'new' | 'stale' | 'reset' | 'duplicate' | 'seq_reused'> {
  if (!state.has || isNewer(row.boot, row.seq, state)) return 'new'
  // A hello is never judged by an older pair: a new board's first hello may well repeat one.
  if (row.type !== 'hello') {
    const twin = await repo.orderTwin(tx, row)
    if (twin) {
      await repo.deleteInbox(tx, row.id)
      return twin.same ? 'duplicate' : 'seq_reused'
    }
    return 'stale'
  }
  await repo.recordCounterReset(tx, row.sender_kind, row.sender_id, ctx.clock.now())
  ctx.log.warn(
    { kind: row.sender_kind, sender: row.sender_id, msg: row.msg_id, boot: row.boot, seq: row.seq },
    'device counters reset by hello',
  )
  return 'reset'
}

/** Records what became of a row; one stored as applied by this transaction needs no second write. */
export async function finish(
  tx: DbOrTx,
  row: repo.InboxRow,
  outcome: 'applied' | 'stale' | 'ignored',
  now: Date,
): Promise<'applied' | 'stale' | 'ignored'> {
  if (row.outcome !== outcome) await repo.finishInbox(tx, row.id, outcome, now)
  return outcome
}

/** What went wrong, in the database's words when a query failed (Drizzle wraps them). */
export function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  const cause = e.cause instanceof Error ? e.cause.message : null
  return (cause ?? e.message).slice(0, 500)
}

/** Records a failed attempt at a stored row and reports it (log, metric, the system organisation at the last). */
export async function failed(ctx: AppContext, inboxId: number, error: string) {
  const f = await repo.failInbox(ctx.db, inboxId, ctx.clock.now(), error)
  if (f) await reportUnapplied(ctx, { inboxId, error, ...f })
}

/**
 * A valid message whose transaction failed is still kept (stored on its own, marked failed and
 * reported) and acknowledged: the retry job applies it once the cause is gone. Outside the
 * failed transaction (ctx.db).
 */
export async function keepFailed(ctx: AppContext, row: repo.NewInboxRow, e: unknown): Promise<Outcome> {
  const message = errorText(e)
  const id = await repo.insertInbox(ctx.db, row)
  if (id === null) return 'duplicate'
  await failed(ctx, id, message)
  return 'applied'
}

/** Marks a row that failed again inside a larger transaction (the retry job reports it later). */
export async function failedIn(tx: DbOrTx, row: repo.InboxRow, e: unknown, now: Date) {
  await repo.finishInbox(tx, row.id, 'failed', now, errorText(e))
}
