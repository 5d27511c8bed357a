import { MsgType } from '@aed/contracts/message'
import type { AppContext } from '../../context.ts'
import { counter } from '../../lib/metrics.ts'
import type { FailedAttempt } from './inbox.repository.ts'
import { insertOutbox } from './outbox.repository.ts'
import { kickIfTold, tellOutbox } from './outbox.ts'
import { senderSerial, systemAgency } from './unapplied.repository.ts'

// A stored device message the engine could not apply (a bug, a record the database refused) is
// kept as 'failed' and retried, and after the last attempt 'dead' (inbox.ts, failed).
// None of that may be silent: every attempt is an error in the log and a count on /metrics, and
// the last one a message in the system organisation's message centre.

const SENDER_KINDS = [{ sender_kind: 'aed' }, { sender_kind: 'cabinet' }] as const

/** Every failed attempt at applying a stored device message. */
export const applyFailures = counter(
  'aed_engine_apply_failures_total',
  'Attempts at applying a stored device message that failed (each is retried until the last)',
  { labels: ['sender_kind'], preset: SENDER_KINDS },
)

/** Stored device messages given up after the last attempt ('dead' in the inbox). */
export const messagesDead = counter(
  'aed_engine_messages_dead_total',
  'Stored device messages the engine gave up on after the last attempt',
  { labels: ['sender_kind'], preset: SENDER_KINDS },
)

/** The message centre keeps this much of the error (the log has it whole). */
const ERROR_KEPT = 500

/** What reportUnapplied is told of one failed attempt. */
export type Unapplied = FailedAttempt & { inboxId: number; error: string }

/** The `message` outbox row's payload of a dead message (message.service.ts turns it into type 5). */
export type UnappliedPayload = {
  msg_type: typeof MsgType.DEVICE_MESSAGE_UNAPPLIED
  inbox_id: number
  sender_kind: 'aed' | 'cabinet'
  sender_id: number
  /** The sender's serial, or null when it could not be read. */
  sn: string | null
  msg_id: string
  type: string
  attempts: number
  error: string
  failed_at: string
}

/**
 * A stored device message the engine could not apply: logged with its id, counted, and when
 * retries are over, told to the system organisation. Called after each failed attempt, outside
 * the transaction that failed (ctx.db). Never throws: what it cannot write it logs.
 */
export async function reportUnapplied(ctx: AppContext, f: Unapplied): Promise<void> {
  const kind = { sender_kind: f.sender_kind }
  applyFailures.inc(ctx, kind)
  if (f.dead) messagesDead.inc(ctx, kind)

  // The serial when the database answers (it may be why applying failed): else kind and id.
  let sn: string | null = null
  try {
    sn = await senderSerial(ctx.db, f.sender_kind, f.sender_id)
  } catch {}
  const device = sn ?? `${f.sender_kind}#${f.sender_id}`
  ctx.log.error(
    {
      inbox: f.inboxId,
      device,
      sender_kind: f.sender_kind,
      sender_id: f.sender_id,
      msg_id: f.msg_id,
      type: f.type,
      attempts: f.attempts,
      dead: f.dead,
      err: { message: f.error },
    },
    `engine could not apply message ${f.msg_id} (${f.type}) of ${device}, attempt ${f.attempts}` +
      `${f.dead ? ', the last: given up, the system organisation is told' : ', retried later'}: ${f.error}`,
  )
  if (!f.dead) return

  try {
    await tellSystem(ctx, f, sn)
  } catch (e) {
    ctx.log.error(
      { inbox: f.inboxId, device, msg_id: f.msg_id, err: { message: (e as Error).message } },
      `the message centre was not told of dead message ${f.msg_id} of ${device}`,
    )
  }
}

/**
 * Writes the `message` outbox row of a dead message for the system organisation, once per
 * inbox row (`msg:unapplied:{inboxId}`), and delivers it in the same transaction (tellOutbox).
 */
async function tellSystem(ctx: AppContext, f: Unapplied, sn: string | null) {
  const now = ctx.clock.now()
  const key = `msg:unapplied:${f.inboxId}`
  const payload: UnappliedPayload = {
    msg_type: MsgType.DEVICE_MESSAGE_UNAPPLIED,
    inbox_id: f.inboxId,
    sender_kind: f.sender_kind,
    sender_id: f.sender_id,
    sn,
    msg_id: f.msg_id,
    type: f.type,
    attempts: f.attempts,
    error: f.error.slice(0, ERROR_KEPT),
    failed_at: now.toISOString(),
  }
  await ctx.db.transaction(async (tx) => {
    const root = await systemAgency(tx)
    if (!root) {
      ctx.log.warn({ inbox: f.inboxId }, 'no system organisation to tell of a dead device message')
      return
    }
    await insertOutbox(
      tx,
      [{ topic: 'message', key, agencyId: root.id, indexLink: root.index_link, payload }],
      now,
    )
    await tellOutbox(ctx, tx, [{ topic: 'message', key }])
  })
  kickIfTold(ctx)
}
