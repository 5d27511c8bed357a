import {
  AED_TYPES,
  type DeviceMessage,
  parseDeviceMessage,
  type UnknownMessage,
} from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { formatDate } from '../../lib/time.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import * as cabinets from './cabinet.repository.ts'
import { applyCabinetInbox } from './cabinet.service.ts'
import * as repo from './engine.repository.ts'
import {
  AED_RETURN_MS,
  DOOR_RESCUE_WINDOW_MS,
  deadlineAfter,
  eventTimeOf,
  type Outcome,
} from './engine.rules.ts'
import * as inbox from './inbox.repository.ts'
import type { OutboxRow } from './outbox.repository.ts'
import { kickIfTold, tellOutbox } from './outbox.ts'
import { createQuietBatcher, hintFault, mayBeQuiet, type QuietBatcher } from './quiet.ts'
import { type EngineInput, type EngineOutput, isNewer, reduce } from './reducer.ts'
import { reportUnapplied } from './unapplied.ts'

/** A message that passed validation, known type or not. */
export type Accepted = { known: boolean; message: DeviceMessage | UnknownMessage }

export type { Outcome } from './engine.rules.ts'

/** What a batch came to, message by message, in the order sent. */
export type IngestResult = { id: string; outcome: Outcome }[]

/** What applying a stored row came to (`ignored`: an unknown type or a sender's foreign type). */
type Applied = Outcome | 'ignored'

/** The answer for a device: an ignored message was stored and is not to be sent again. */
const answerOf = (a: Applied): Outcome => (a === 'ignored' ? 'applied' : a)

function inboxRowOf(
  sender: DeviceIdentity,
  m: DeviceMessage | UnknownMessage,
  receivedAt: Date,
  transport: 'mqtt' | 'https',
): inbox.NewInboxRow {
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
 * Stores and applies a device's messages, in order, and answers only after each is committed:
 * one transaction per message (store in the inbox, lock the device, reduce, write records,
 * events and outbox rows, mark it done). Heartbeats and passing self-tests go through the quiet
 * batcher, which hands back to the engine the ones that change something.
 * When applying fails, the message is still stored (outcome 'failed') and acknowledged: the
 * retry job applies it later. Only when even storing fails does this throw (nothing acked).
 */
export async function ingest(
  ctx: AppContext,
  sender: DeviceIdentity,
  items: Accepted[],
  transport: 'mqtt' | 'https',
): Promise<IngestResult> {
  const result: IngestResult = []
  let i = 0
  while (i < items.length) {
    // A run of quiet messages goes to the batcher together; anything else one at a time.
    const quiet = (a: Accepted) => a.known && mayBeQuiet(ctx, sender.id, a.message as DeviceMessage)
    if (sender.kind === 'aed' && quiet(items[i])) {
      const run: Accepted[] = []
      while (i < items.length && quiet(items[i])) run.push(items[i++])
      const rows = run.map((a) => inboxRowOf(sender, a.message, ctx.clock.now(), transport))
      const outcomes = await quietBatch(ctx).submit(rows)
      for (const [k, r] of rows.entries()) result.push({ id: r.msg_id, outcome: outcomes[k] })
      continue
    }
    const row = inboxRowOf(sender, items[i].message, ctx.clock.now(), transport)
    i++
    result.push({ id: row.msg_id, outcome: await applyNew(ctx, row) })
  }
  return result
}

/** What went wrong, in the database's words when a query failed (Drizzle wraps them). */
function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  const cause = e.cause instanceof Error ? e.cause.message : null
  return (cause ?? e.message).slice(0, 500)
}

/** Stores one message and applies it in the same transaction. */
async function applyNew(ctx: AppContext, row: inbox.NewInboxRow): Promise<Outcome> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const id = await inbox.insertInbox(tx, row, ctx.clock.now())
      if (id === null) return 'duplicate' as const
      return answerOf(await applyInbox(ctx, tx, { ...row, id, outcome: 'applied' }))
    })
  } catch (e) {
    // The message is valid (checked before this), so it is kept and acknowledged: the retry job
    // applies it once the cause is gone, and every failure is loud.
    const message = errorText(e)
    const id = await inbox.insertInbox(ctx.db, row)
    if (id === null) return 'duplicate'
    await failed(ctx, id, message)
    return 'applied'
  } finally {
    kickIfTold(ctx)
  }
}

/** Records a failed attempt at a stored row and reports it (log, metric, the system organisation at the last). */
async function failed(ctx: AppContext, inboxId: number, error: string) {
  const f = await inbox.failInbox(ctx.db, inboxId, ctx.clock.now(), error)
  if (f) await reportUnapplied(ctx, { inboxId, error, ...f })
}

/**
 * A device's messages apply in the order they came: one stored earlier but not applied yet (it
 * failed, or a crash came between storing and applying) is applied before a newer one, which
 * would otherwise make it stale. Each in a savepoint; one that fails again keeps waiting.
 */
async function applyEarlier(
  ctx: AppContext,
  tx: DbOrTx,
  kind: 'aed' | 'cabinet',
  senderId: number,
  before: number,
) {
  for (const row of await inbox.waitingOf(tx, kind, senderId, before)) {
    try {
      await tx.transaction((sp) => applyInbox(ctx, sp, row, { earlier: false }))
    } catch (e) {
      // Reported by the retry job (outside this transaction), which also gives up at the last try.
      await inbox.finishInbox(tx, row.id, 'failed', ctx.clock.now(), errorText(e))
    }
  }
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
  row: inbox.InboxRow,
  state: { has: boolean; lastBoot: number; lastSeq: number },
): Promise<'new' | 'stale' | 'reset' | 'duplicate' | 'seq_reused'> {
  if (!state.has || isNewer(row.boot, row.seq, state)) return 'new'
  // A hello is never judged by an older pair: a new board's first hello may well repeat one.
  if (row.type !== 'hello') {
    const twin = await inbox.orderTwin(tx, row)
    if (twin) {
      await inbox.deleteInbox(tx, row.id)
      return twin.same ? 'duplicate' : 'seq_reused'
    }
    return 'stale'
  }
  await inbox.recordCounterReset(tx, row.sender_kind, row.sender_id, ctx.clock.now())
  ctx.log.warn(
    { kind: row.sender_kind, sender: row.sender_id, msg: row.msg_id, boot: row.boot, seq: row.seq },
    'device counters reset by hello',
  )
  return 'reset'
}

/** Applies a stored inbox row inside the caller's transaction. */
export async function applyInbox(
  ctx: AppContext,
  tx: DbOrTx,
  row: inbox.InboxRow,
  opts: { earlier?: boolean } = {},
): Promise<Applied> {
  const now = ctx.clock.now()
  // A row stored as applied by this transaction needs no second write unless the outcome differs.
  const finish = async (outcome: 'applied' | 'stale' | 'ignored') => {
    if (row.outcome !== outcome) await inbox.finishInbox(tx, row.id, outcome, now)
    return outcome
  }
  if (row.sender_kind === 'cabinet') {
    return applyCabinetInbox(ctx, tx, row, {
      earlier: opts.earlier,
      applyEarlier: (before) => applyEarlier(ctx, tx, 'cabinet', row.sender_id, before),
      recheck: (deviceId) => applyToDeviceIn(ctx, tx, deviceId, 'recheck'),
      orderOf: (state) => orderOf(ctx, tx, row, state),
    })
  }
  if (row.sender_kind !== 'aed') return finish('ignored')
  const parsed = parseDeviceMessage({
    v: 1,
    id: row.msg_id,
    seq: row.seq,
    boot: row.boot,
    ts: row.event_time.getTime(),
    type: row.type,
    data: row.data,
  })
  let facts = await repo.lockDevice(tx, row.sender_id, opts.earlier === false ? undefined : row.id)
  if (facts?.waiting) {
    await applyEarlier(ctx, tx, row.sender_kind, row.sender_id, row.id)
    facts = await repo.lockDevice(tx, row.sender_id)
  }
  if (!facts || !parsed.ok || !parsed.known || !AED_TYPES.includes(parsed.message.type)) {
    return finish('ignored')
  }
  const message = parsed.message
  const order = await orderOf(ctx, tx, row, { has: facts.has_state, ...facts.state })
  if (order === 'duplicate' || order === 'seq_reused') return order
  const stale = order === 'stale'
  // A step of a rescue that is not the one under way (it ended, or it is an old step that came
  // late) joins that rescue's history; the device is alive, but its rescue state stays.
  let lateUsage = false
  if (message.type === 'usage' && facts.state.rescue?.rescueEventId !== message.data.rescue_event_id) {
    const old = await repo.findRescue(tx, facts.id, message.data.rescue_event_id)
    if (old?.ended_at || stale) {
      const at = new Date(message.data.event_time)
      const where = {
        deviceId: facts.id,
        installationId: facts.installation_id,
        agencyId: facts.agency_id,
        indexLink: facts.index_link,
      }
      const rescue =
        old ??
        (await repo.startRescue(tx, where, {
          rescueEventId: message.data.rescue_event_id,
          time: at,
          lat: facts.site?.lat ?? null,
          lon: facts.site?.lon ?? null,
          location: facts.site?.location ?? null,
          ended: true,
        }))
      await repo.insertUsage(tx, rescue.id, facts.id, {
        rescueEventId: message.data.rescue_event_id,
        desc: message.data.event_desc,
        para: message.data.event_para,
        time: at,
      })
      lateUsage = true
    }
  }
  const input: EngineInput = { kind: 'message', message, time: row.event_time, stale, lateUsage }
  const out = reduce(facts.state, input, {
    site: facts.site,
    rules: facts.rules,
    today: formatDate(now),
    notReturned: facts.notReturned,
  })
  await writeOutput(ctx, tx, facts, out, {
    now,
    key: `m${row.msg_id}`,
    seenAt: row.received_at,
    rssi: message.type === 'heartbeat' ? message.data.rssi : undefined,
  })
  hintFault(
    ctx,
    facts.id,
    out.state.open.some((c) => c.kind === 'fault'),
  )
  return finish(stale ? 'stale' : 'applied')
}

/**
 * Applies a missed deadline (offline) or a re-check (day changed, settings or site edited) to a
 * device, in its own transaction. Answers false when nothing was left to do.
 */
export async function applyToDevice(
  ctx: AppContext,
  deviceId: number,
  kind: 'deadline' | 'recheck',
): Promise<boolean> {
  return ctx.db.transaction((tx) => applyToDeviceIn(ctx, tx, deviceId, kind)).finally(() => kickIfTold(ctx))
}

/** applyToDevice inside the caller's transaction (a cabinet's message re-checks its AED). */
export async function applyToDeviceIn(
  ctx: AppContext,
  tx: DbOrTx,
  deviceId: number,
  kind: 'deadline' | 'recheck',
): Promise<boolean> {
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
  const out = reduce(
    facts.state,
    { kind, time },
    { site: facts.site, rules: facts.rules, today: formatDate(now), notReturned: facts.notReturned },
  )
  await writeOutput(ctx, tx, facts, out, {
    now,
    key: `${kind[0]}${now.getTime()}`,
    offline: kind === 'deadline',
  })
  return true
}

/**
 * Writes the reducer's answer: records, events, the registry's view, the state, the outbox; an
 * alarm's message is delivered in this transaction, the rest drained once it has committed.
 */
async function writeOutput(
  ctx: AppContext,
  tx: DbOrTx,
  facts: repo.DeviceFacts,
  out: EngineOutput,
  o: { now: Date; key: string; seenAt?: Date; rssi?: number; offline?: boolean },
): Promise<void> {
  const w: repo.Where = {
    deviceId: facts.id,
    installationId: facts.installation_id,
    agencyId: facts.agency_id,
    indexLink: facts.index_link,
  }
  const outbox: OutboxRow[] = []
  const tell = (topic: OutboxRow['topic'], key: string, payload: unknown) =>
    outbox.push({ topic, key, agencyId: facts.agency_id, indexLink: facts.index_link, payload })
  let detectionId: number | null = null
  let rescueId = facts.state.rescue ? facts.rescueId : null
  let fwVersion: string | undefined
  for (const e of out.effects) {
    switch (e.type) {
      case 'detection':
        detectionId = await repo.insertDetection(tx, w, e)
        break
      case 'open': {
        const id = await repo.openEvent(tx, w, {
          ...e,
          detectionId: e.kind === 'fault' ? detectionId : null,
          installLocation: e.kind === 'offset' ? (facts.site?.location ?? null) : null,
          offset: e.offset && {
            ...e.offset,
            location: `${e.offset.lat.toFixed(6)},${e.offset.lon.toFixed(6)}`,
          },
        })
        if (id === null) break
        const event = {
          event_id: id,
          device_id: facts.id,
          device_sn: facts.device_sn,
          kind: e.kind,
          code: e.code,
        }
        if (e.kind === 'offset') tell('message', `msg:offset:${id}`, { msg_type: 3, ...event })
        if (!facts.sms_off) tell('sms', `sms:event:${id}`, { sms: 'status', ...event })
        tell('webhook', `webhook:event:${id}:open`, { event: 'device.event.opened', ...event })
        break
      }
      case 'close': {
        const closed = await repo.closeEvent(tx, facts.id, e.kind, e.code, e.time)
        if (closed) {
          tell('webhook', `webhook:event:${closed.id}:close`, {
            event: 'device.event.closed',
            event_id: closed.id,
            device_id: facts.id,
            device_sn: facts.device_sn,
            kind: e.kind,
            code: e.code,
          })
        }
        break
      }
      case 'rescue_start': {
        const r = await repo.startRescue(tx, w, {
          rescueEventId: e.rescueEventId,
          time: e.time,
          lat: facts.site?.lat ?? null,
          lon: facts.site?.lon ?? null,
          location: facts.site?.location ?? null,
        })
        rescueId = r.id
        if (r.created) {
          // An AED bound to a cabinet came out of it: the rescue names the cabinet (and the door
          // opening it left through), and that opening's AED has left.
          const cab = await cabinets.cabinetOfRescue(tx, facts.id, e.time, DOOR_RESCUE_WINDOW_MS)
          if (cab) {
            await cabinets.linkRescue(tx, r.id, cab.cabinet_id, cab.door_event_id)
            if (cab.door_event_id) await cabinets.markLeft(tx, cab.door_event_id, e.time, AED_RETURN_MS)
          }
          const rescue = { rescue_id: r.id, device_id: facts.id, device_sn: facts.device_sn }
          tell('message', `msg:rescue:${r.id}`, { msg_type: 2, ...rescue })
          tell('sms', `sms:rescue:${r.id}`, { sms: 'aid', ...rescue })
          tell('webhook', `webhook:rescue:${r.id}`, { event: 'device.rescue.started', ...rescue })
        }
        break
      }
      case 'rescue_end':
        await repo.endRescue(tx, facts.id, e.rescueEventId, e.time)
        rescueId = null
        break
      case 'usage': {
        const target = rescueId ?? (await repo.findRescue(tx, facts.id, e.rescueEventId))?.id
        if (target) await repo.insertUsage(tx, target, facts.id, e)
        break
      }
      case 'site_dates':
        if (facts.installation_id) await repo.updateSiteDates(tx, facts.installation_id, e)
        break
      case 'device_facts':
        fwVersion = e.fwVersion
        break
      case 'ack':
        await repo.ackCommand(tx, facts.id, e)
        break
      case 'file':
        await repo.attachRescueFile(tx, facts.id, e.rescueEventId, e.fileId)
        break
    }
  }
  const reasons = out.reasons as string[]
  if (
    out.status !== facts.status ||
    out.readiness !== facts.readiness ||
    reasons.join() !== facts.readiness_reasons.join()
  ) {
    tell('live', `status:${facts.id}:${o.key}`, {
      device_id: facts.id,
      device_sn: facts.device_sn,
      status: out.status,
      shown_status: facts.display_off ? 0 : out.status,
      readiness: out.readiness,
      reasons,
      lon: facts.site?.lon ?? null,
      lat: facts.site?.lat ?? null,
    })
  }
  const offline = o.offline ?? false
  const state: repo.StateWrite | null =
    o.seenAt || facts.has_state
      ? {
          lastBoot: out.state.lastBoot,
          lastSeq: out.state.lastSeq,
          lastSeenAt: o.seenAt ?? null,
          reportIntervalS: out.state.reportIntervalS,
          nextDeadlineAt: offline
            ? null
            : o.seenAt
              ? deadlineAfter(o.seenAt, out.state.reportIntervalS)
              : undefined,
          offline: o.seenAt ? false : offline || out.state.open.some((c) => c.kind === 'offline'),
          rssi: o.rssi,
          rescueId: out.state.rescue ? rescueId : null,
          rescueLastAt: out.state.rescue?.lastAt ?? null,
          offsetStreak: out.state.offsetStreak,
          now: o.now,
        }
      : null
  await repo.commitDevice(
    tx,
    facts.id,
    {
      status: out.status,
      battery: out.state.battery,
      readiness: out.readiness,
      reasons,
      lastPassAt: out.state.lastPassAt,
      fwVersion,
    },
    state,
    outbox,
    o.now,
  )
  await tellOutbox(ctx, tx, outbox)
}

/** Applies inbox rows that were acknowledged but not applied (after a crash or a failure). */
export async function retryInbox(ctx: AppContext, limit = 500): Promise<number> {
  const rows = await inbox.pendingInbox(ctx.db, limit)
  let done = 0
  for (const r of rows) {
    try {
      const applied = await ctx.db.transaction(async (tx) => {
        const row = await inbox.lockInbox(tx, r.id)
        if (!row) return false
        await applyInbox(ctx, tx, row)
        return true
      })
      if (applied) done++
    } catch (e) {
      await failed(ctx, r.id, errorText(e))
    }
  }
  kickIfTold(ctx)
  return done
}

const batchers = new WeakMap<AppContext, QuietBatcher>()
function quietBatch(ctx: AppContext): QuietBatcher {
  let b = batchers.get(ctx)
  if (!b) {
    b = createQuietBatcher(ctx, {
      applyRow: (id) => applyPendingRow(ctx, id),
      applyOne: (row) => applyNew(ctx, row),
    })
    batchers.set(ctx, b)
  }
  return b
}

/**
 * Applies one stored, unapplied inbox row in its own transaction (a quiet message that changed
 * something). A failure keeps it for the retry job: to the device it is applied.
 */
async function applyPendingRow(ctx: AppContext, id: number): Promise<Outcome> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const row = await inbox.lockInbox(tx, id)
      return row ? answerOf(await applyInbox(ctx, tx, row)) : ('applied' as const)
    })
  } catch (e) {
    await failed(ctx, id, errorText(e))
    return 'applied'
  } finally {
    kickIfTold(ctx)
  }
}

/** Links a file a device uploaded to one of its rescue events (the gateway's file upload). */
export async function attachRescueFile(tx: DbOrTx, deviceId: number, rescueEventId: string, fileId: string) {
  await repo.attachRescueFile(tx, deviceId, rescueEventId, fileId)
}
