import { CABINET_TYPES } from '@aed/contracts/device-protocol'
import { MsgType } from '@aed/contracts/message'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { liveRowForCabinet } from '../../lib/live-rows.ts'
import { webhookRowForDoorAlarm } from '../../lib/webhook-rows.ts'
import type { DeviceCredentials, DeviceIdentity } from '../../plugins/auth/device.ts'
import * as engine from '../engine/engine.port.ts'
import { type CabinetEffect, type CabinetOutput, reduceCabinet } from './cabinet.reducer.ts'
import * as repo from './cabinet-engine.repository.ts'

// The rescue cabinet's engine (docs/device-protocol.md, `cabinet_status` and `door`), the same
// shape as the AED's: a transport's validated messages become inbox rows, each applied in its
// own transaction (lock the cabinet, read the row as its message, judge its order, reduce with
// cabinet.reducer.ts, write the effects). What it needs of the device engine (the inbox steps,
// the outbox, re-checking an AED) it asks through engine/engine.port.ts.

/** A live cabinet's credentials for the gateway (null: unknown or deleted). */
export async function cabinetCredentials(ctx: AppContext, sn: string): Promise<DeviceCredentials | null> {
  const row = await repo.cabinetSecrets(ctx.db, sn)
  if (!row) return null
  const secrets = [ctx.sealer.open(row.secret_enc)]
  if (row.prev_secret_enc && row.prev_secret_until && row.prev_secret_until > ctx.clock.now()) {
    secrets.push(ctx.sealer.open(row.prev_secret_enc))
  }
  return { kind: 'cabinet', id: row.id, sn: row.cabinet_sn, secrets, commandsWaiting: row.commands_waiting }
}

/** The cabinet's inbox machinery (the engine's runner): its rows, locked by cabinet, applied by applyMessage. */
const runner = engine.inboxRunner({ kind: 'cabinet', lock: repo.lockCabinet, apply: applyMessage })

/**
 * Stores and applies a cabinet's messages, in order, each in its own transaction, and answers
 * only after each is committed. A message whose applying fails is kept and acknowledged (the
 * retry job applies it); only when even storing fails does this throw.
 */
export async function ingestCabinet(
  ctx: AppContext,
  sender: DeviceIdentity,
  items: engine.Accepted[],
  transport: 'mqtt' | 'https',
): Promise<engine.IngestResult> {
  if (sender.kind !== 'cabinet') throw new Error(`the cabinet engine got an ${sender.kind}'s messages`)
  return runner.ingestEach(ctx, sender, items, transport)
}

/** Applies cabinet inbox rows that were acknowledged but not applied (after a crash or a failure). */
export function retryCabinetInbox(ctx: AppContext, limit = 500): Promise<number> {
  return runner.retry(ctx, limit)
}

/**
 * Applies a stored cabinet message to its locked cabinet inside the caller's transaction (the
 * runner has applied the cabinet's earlier waiting rows first): locks its bound AED before
 * touching door events and rescues (the order an AED's own transaction takes), reduces, writes
 * the records, door events and their outbox rows, the list's fields and the engine state
 * (deadline, back online), then marks the row done. AED-only types from a cabinet are stored
 * and ignored. A message older than the last applied (boot, seq) keeps its record but changes
 * nothing else.
 */
async function applyMessage(
  ctx: AppContext,
  tx: DbOrTx,
  row: engine.InboxRow,
  cab: repo.CabinetFacts | null,
  now: Date,
): Promise<engine.Applied> {
  const message = engine.messageOfRow(row, CABINET_TYPES)
  if (!cab || cab.deleted || !message) return engine.finish(tx, row, 'ignored', now)
  const prev = {
    lastBoot: cab.last_boot ?? 0,
    lastSeq: cab.last_seq ?? -1,
    reportIntervalS: cab.report_interval_s,
    doorOpen: cab.open_door_id !== null,
  }
  const order = await engine.orderOf(ctx, tx, row, { has: cab.has_state, ...prev })
  if (order === 'duplicate' || order === 'seq_reused') return order
  const stale = order === 'stale'
  if (cab.device_id && (message.type === 'door' || message.type === 'cabinet_status')) {
    await repo.lockDeviceRow(tx, cab.device_id)
  }
  const out = reduceCabinet(prev, { message, time: row.event_time, stale }, cab)
  await writeEffects(ctx, tx, cab, out, { now, seenAt: row.received_at, inboxId: row.id })
  return engine.finish(tx, row, stale ? 'stale' : 'applied', now)
}

/** What the writers share while one answer is written. */
type Writing = {
  tx: DbOrTx
  cab: repo.CabinetFacts
  outbox: engine.OutboxRow[]
  /** AEDs whose 'not returned' warning the cabinet settled: re-checked before the commit. */
  recheck: Set<number>
}

type Writer<T extends CabinetEffect['type']> = (
  e: Extract<CabinetEffect, { type: T }>,
  w: Writing,
) => Promise<void>

const record: Writer<'record'> = async (e, w) => {
  await repo.insertRecord(w.tx, w.cab.id, e.record)
}

/** The door opened: its event, alarm (message type 4) and webhook; a rescue of its AED that came first came out of it. */
const doorOpen: Writer<'door_open'> = async (e, w) => {
  const { tx, cab } = w
  const id = await repo.openDoor(tx, cab, e.time, e.location)
  if (!id) return
  cab.open_door_id = id
  w.outbox.push({
    topic: 'message',
    key: `msg:door:${id}`,
    agencyId: cab.agency_id,
    indexLink: cab.index_link,
    payload: { msg_type: MsgType.CABINET_DOOR, door_event_id: id, cabinet_id: cab.id },
  })
  w.outbox.push(webhookRowForDoorAlarm(id, cab))
  if (!cab.device_id) return
  // The AED's rescue came in before the door's message: it came out of this opening.
  const r = await engine.recentRescueOf(tx, cab.device_id, e.time, engine.DOOR_RESCUE_WINDOW_MS)
  if (r) {
    await engine.linkRescue(tx, r.id, cab.id, id)
    await engine.markLeft(tx, id, r.event_time < e.time ? e.time : r.event_time, engine.AED_RETURN_MS)
  }
}

const doorClose: Writer<'door_close'> = async (e, w) => {
  await repo.closeDoor(w.tx, w.cab.id, e.time, engine.AED_RETURN_MS)
  w.cab.open_door_id = null
}

const aedLeft: Writer<'aed_left'> = async (e, w) => {
  const { tx, cab } = w
  if (!cab.device_id) return
  const target = cab.open_door_id ?? (await repo.lastDoorUnsettled(tx, cab.id, cab.device_id))?.id
  if (target) await engine.markLeft(tx, target, e.time, engine.AED_RETURN_MS)
}

const aedBack: Writer<'aed_back'> = async (e, w) => {
  for (const id of await repo.markBack(w.tx, w.cab.id, e.time)) w.recheck.add(id)
}

const ack: Writer<'ack'> = async (e, w) => {
  await engine.ackCommand(w.tx, 'cabinet', w.cab.id, e)
}

const writers: { [T in CabinetEffect['type']]: Writer<T> } = {
  record,
  door_open: doorOpen,
  door_close: doorClose,
  aed_left: aedLeft,
  aed_back: aedBack,
  ack,
}

/**
 * Writes the reducer's answer: the effects in order, the engine state (any message, even an old
 * one, proves the cabinet alive: the deadline moves, offline ends), the list's fields, the
 * outbox rows; re-checks the AEDs it has back; delivers a door alarm's message before the commit.
 */
async function writeEffects(
  ctx: AppContext,
  tx: DbOrTx,
  cab: repo.CabinetFacts,
  out: CabinetOutput,
  o: { now: Date; seenAt: Date; inboxId: number },
) {
  const w: Writing = { tx, cab, outbox: [], recheck: new Set() }
  const before = { door: cab.door_status, offline: cab.offline === true }
  for (const e of out.effects) await (writers[e.type] as Writer<typeof e.type>)(e, w)
  // The cabinet list's door and connection follow without a reload (frame 17).
  const door = out.view.doorStatus
  const change = {
    ...(door !== undefined && door !== before.door ? { door_status: door } : {}),
    ...(before.offline ? { online: true } : {}),
  }
  if (Object.keys(change).length) w.outbox.push(liveRowForCabinet(cab, change, `msg:${o.inboxId}`))
  await repo.writeCabinetState(tx, cab.id, {
    lastBoot: out.state.lastBoot,
    lastSeq: out.state.lastSeq,
    lastSeenAt: o.seenAt,
    reportIntervalS: out.state.reportIntervalS,
    nextDeadlineAt: engine.deadlineAfter(o.seenAt, out.state.reportIntervalS),
    now: o.now,
  })
  if (Object.keys(out.view).length) await repo.updateCabinet(tx, cab.id, out.view, o.now)
  await engine.insertOutbox(tx, w.outbox, o.now)
  for (const id of w.recheck) await engine.applyCheck(ctx, id, 'recheck', tx)
  // A door alarm's push takes the push-order lock only as the transaction commits (migration
  // 0030), after every row lock of the re-checks: either order of the two is free of deadlock.
  await engine.tellOutbox(ctx, tx, w.outbox)
}

/** The cabinets' deadlines that fell into the platform's own outage move later by its length. */
export async function shiftCabinetsPastOutage(ctx: AppContext, outage: engine.Outage) {
  await repo.shiftCabinetDeadlines(ctx.db, outage.from, outage.to)
}

/** Cabinets whose deadline passed go offline (the sweep's share for cabinets); answers how many. */
export async function sweepCabinetsOffline(ctx: AppContext, now: Date): Promise<number> {
  let marked = 0
  for (let round = 0; round < 20; round++) {
    const due = await repo.overdueCabinets(ctx.db, now, 200)
    if (due.length === 0) break
    for (const id of due) {
      const gone = await ctx.db.transaction(async (tx) => {
        const cab = await repo.markCabinetOffline(tx, id, now)
        if (!cab) return false
        // The list shows it offline without a reload (frame 17).
        const rows = [liveRowForCabinet(cab, { online: false }, `offline:${now.getTime()}`)]
        await engine.insertOutbox(tx, rows, now)
        await engine.tellOutbox(ctx, tx, rows)
        return true
      })
      if (gone) marked++
    }
    if (due.length < 200) break
  }
  return marked
}

/**
 * AEDs due back in their cabinet and not there: each door event is stamped and its AED
 * re-checked in one transaction (the AED's row first, the order its own messages take), which
 * opens the 'not_returned' warning.
 */
export async function raiseNotReturned(ctx: AppContext, now: Date): Promise<number> {
  let raised = 0
  for (const due of await repo.dueReturns(ctx.db, now, 200)) {
    try {
      const done = await ctx.db.transaction(async (tx) => {
        await repo.lockDeviceRow(tx, due.device_id)
        if (!(await repo.markNotReturned(tx, due.id, now))) return false
        await engine.applyCheck(ctx, due.device_id, 'recheck', tx)
        return true
      })
      if (done) raised++
    } catch (e) {
      ctx.log.error(
        { door_event: due.id, err: { message: (e as Error).message } },
        'not-returned check failed; tried again next tick',
      )
    } finally {
      engine.kickIfTold(ctx)
    }
  }
  return raised
}
