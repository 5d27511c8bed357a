import { CABINET_TYPES, parseDeviceMessage } from '@aed/contracts/device-protocol'
import { MsgType } from '@aed/contracts/message'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { DeviceCredentials } from '../../plugins/auth/device.ts'
import * as repo from './cabinet.repository.ts'
import * as doors from './door-link.repository.ts'
import { AED_RETURN_MS, DOOR_RESCUE_WINDOW_MS, deadlineAfter } from './engine.rules.ts'
import { finishInbox, type InboxRow } from './inbox.repository.ts'
import { insertOutbox, type OutboxRow } from './outbox.repository.ts'
import { kickIfTold, tellOutbox } from './outbox.ts'
import { toGcj02 } from './reducer.ts'

// Rescue cabinets in the engine (docs/device-protocol.md, `cabinet_status` and `door`): one
// transaction per message, as for AEDs. A cabinet keeps no conditions of its own besides its
// door: its self-checks are records, its report fields the list's columns, its door events the
// alarms (message type 4 with its popup, through the outbox), and its AED's comings and goings
// what the rescue flow and the AED's 'not_returned' warning read.

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

/** A position as the records and the door alarm show it when the cabinet has no address. */
export function coordinatesText(p: { lat: number | null; lon: number | null }): string | null {
  return p.lat === null || p.lon === null ? null : `${p.lat.toFixed(6)},${p.lon.toFixed(6)}`
}

type Hooks = {
  earlier?: boolean
  /** Applies the cabinet's messages stored before this one and still waiting. */
  applyEarlier(before: number): Promise<void>
  /** Re-checks an AED in this transaction (its 'not_returned' warning changed). */
  recheck(deviceId: number): Promise<unknown>
  /** Where the message stands in the cabinet's order (engine.service `orderOf`). */
  orderOf(state: {
    has: boolean
    lastBoot: number
    lastSeq: number
  }): Promise<'new' | 'stale' | 'reset' | 'duplicate' | 'seq_reused'>
}

/**
 * Applies a stored cabinet message inside the caller's transaction: locks the cabinet (and its
 * bound AED before touching door events and rescues, the order an AED's own transaction takes),
 * writes the record, the list's fields, the door event and its outbox rows, and the engine
 * state (deadline, back online), then marks the row done. AED-only types from a cabinet are
 * stored and ignored. A message older than the last applied (boot, seq) keeps its record but
 * changes nothing else.
 */
export async function applyCabinetInbox(ctx: AppContext, tx: DbOrTx, row: InboxRow, hooks: Hooks) {
  const now = ctx.clock.now()
  const finish = async (outcome: 'applied' | 'stale' | 'ignored') => {
    if (row.outcome !== outcome) await finishInbox(tx, row.id, outcome, now)
    return outcome
  }
  let c = await repo.lockCabinet(tx, row.sender_id, hooks.earlier === false ? undefined : row.id)
  if (c?.waiting) {
    await hooks.applyEarlier(row.id)
    c = await repo.lockCabinet(tx, row.sender_id)
  }
  const parsed = parseDeviceMessage({
    v: 1,
    id: row.msg_id,
    seq: row.seq,
    boot: row.boot,
    ts: row.event_time.getTime(),
    type: row.type,
    data: row.data,
  })
  if (!c || c.deleted || !parsed.ok || !parsed.known || !CABINET_TYPES.includes(parsed.message.type)) {
    return finish('ignored')
  }
  const cab = c
  const m = parsed.message
  const time = row.event_time
  const last = { lastBoot: cab.last_boot ?? 0, lastSeq: cab.last_seq ?? -1 }
  const order = await hooks.orderOf({ has: cab.has_state, ...last })
  if (order === 'duplicate' || order === 'seq_reused') return order
  const stale = order === 'stale'
  const view: repo.CabinetView = stale ? {} : { uploadTime: time }
  let interval = cab.report_interval_s
  const outbox: OutboxRow[] = []
  const recheck = new Set<number>()

  if (cab.device_id && (m.type === 'door' || m.type === 'cabinet_status')) {
    await repo.lockDeviceRow(tx, cab.device_id)
  }

  const openDoor = async () => {
    if (cab.open_door_id) return
    const id = await repo.openDoor(tx, cab, time, cab.location ?? coordinatesText(cab))
    if (!id) return
    cab.open_door_id = id
    outbox.push({
      topic: 'message',
      key: `msg:door:${id}`,
      agencyId: cab.agency_id,
      indexLink: cab.index_link,
      payload: { msg_type: MsgType.CABINET_DOOR, door_event_id: id, cabinet_id: cab.id },
    })
    if (cab.device_id) {
      // The AED's rescue came in before the door's message: it came out of this opening.
      const r = await doors.recentRescueOf(tx, cab.device_id, time, DOOR_RESCUE_WINDOW_MS)
      if (r) {
        await doors.linkRescue(tx, r.id, cab.id, id)
        await doors.markLeft(tx, id, r.event_time < time ? time : r.event_time, AED_RETURN_MS)
      }
    }
  }
  const closeDoor = async () => {
    if (!cab.open_door_id) return
    await repo.closeDoor(tx, cab.id, time, AED_RETURN_MS)
    cab.open_door_id = null
  }

  switch (m.type) {
    case 'hello':
      if (stale) break
      if (m.data.report_interval_s) interval = m.data.report_interval_s
      if (m.data.fw_version) view.fwVersion = m.data.fw_version
      break
    case 'heartbeat':
      if (!stale) view.batteryPower = m.data.battery
      break
    case 'location': {
      if (stale) break
      const p = toGcj02(m.data.lat, m.data.lon)
      Object.assign(view, { lat: p.lat, lon: p.lon, altitude: m.data.altitude })
      view.location = coordinatesText(p) ?? undefined
      break
    }
    case 'ack':
      await repo.ackCabinetCommand(tx, cab.id, {
        cmdId: m.data.cmd_id,
        ok: m.data.ok,
        error: m.data.error ?? null,
        time,
      })
      break
    case 'cabinet_status': {
      const d = m.data
      const p = d.lat !== undefined && d.lon !== undefined ? toGcj02(d.lat, d.lon) : null
      await repo.insertRecord(tx, {
        cabinetId: cab.id,
        type: 'cabinet_status',
        deviceSn: cab.device_sn,
        deviceModel: cab.device_model,
        doorStatus: d.door_status,
        batteryPower: d.battery_power ?? null,
        fwVersion: d.fw_version ?? null,
        lat: p?.lat ?? null,
        lon: p?.lon ?? null,
        location: p ? coordinatesText(p) : cab.location,
        altitude: d.altitude ?? null,
        aedPresent: d.aed_present ?? null,
        time,
      })
      if (stale) break
      Object.assign(view, {
        doorStatus: d.door_status,
        batteryPower: d.battery_power,
        fwVersion: d.fw_version,
        lat: p?.lat,
        lon: p?.lon,
        altitude: d.altitude,
        location: p ? (coordinatesText(p) ?? undefined) : undefined,
        aedPresent: d.aed_present,
      })
      // A periodic report that finds the door otherwise than the events say: a lost door
      // message is not a lost alarm (nor a door open for ever).
      if (d.door_status === 1) await openDoor()
      if (cab.device_id && d.aed_present === false) {
        const target = cab.open_door_id ?? (await repo.lastDoorUnsettled(tx, cab.id, cab.device_id))?.id
        if (target) await doors.markLeft(tx, target, time, AED_RETURN_MS)
      }
      if (d.door_status === 0) await closeDoor()
      if (d.aed_present === true) for (const id of await repo.markBack(tx, cab.id, time)) recheck.add(id)
      break
    }
    case 'door':
      await repo.insertRecord(tx, {
        cabinetId: cab.id,
        type: 'door',
        deviceSn: cab.device_sn,
        deviceModel: cab.device_model,
        doorStatus: m.data.door_status,
        batteryPower: null,
        fwVersion: null,
        lat: null,
        lon: null,
        location: cab.location ?? coordinatesText(cab),
        altitude: null,
        aedPresent: null,
        time,
      })
      if (stale) break
      view.doorStatus = m.data.door_status
      if (m.data.door_status === 1) await openDoor()
      else await closeDoor()
      break
    default:
      break
  }

  // Any message, even an old one, proves the cabinet alive: the deadline moves, offline ends.
  await repo.writeCabinetState(tx, cab.id, {
    lastBoot: stale ? last.lastBoot : m.boot,
    lastSeq: stale ? last.lastSeq : m.seq,
    lastSeenAt: row.received_at,
    reportIntervalS: interval,
    nextDeadlineAt: deadlineAfter(row.received_at, interval),
    now,
  })
  if (Object.keys(view).length) await repo.updateCabinet(tx, cab.id, view, now)
  await insertOutbox(tx, outbox, now)
  for (const id of recheck) await hooks.recheck(id)
  // After the AEDs' re-checks: delivering a door alarm takes the push-order lock, and the AED
  // engine takes its device's row before that lock; in the other order the two could deadlock.
  await tellOutbox(ctx, tx, outbox)
  return finish(stale ? 'stale' : 'applied')
}

/** Cabinets whose deadline passed go offline (the sweep's share for cabinets); answers how many. */
export async function sweepCabinetsOffline(ctx: AppContext, now: Date): Promise<number> {
  let marked = 0
  for (let round = 0; round < 20; round++) {
    const due = await repo.overdueCabinets(ctx.db, now, 200)
    if (due.length === 0) break
    for (const id of due) if (await repo.markCabinetOffline(ctx.db, id, now)) marked++
    if (due.length < 200) break
  }
  return marked
}

/**
 * AEDs due back in their cabinet and not there: each door event is stamped and its AED
 * re-checked in one transaction (the AED's row first, the order its own messages take), which
 * opens the 'not_returned' warning.
 */
export async function raiseNotReturned(
  ctx: AppContext,
  now: Date,
  recheck: (tx: DbOrTx, deviceId: number) => Promise<unknown>,
): Promise<number> {
  let raised = 0
  for (const due of await repo.dueReturns(ctx.db, now, 200)) {
    try {
      const done = await ctx.db.transaction(async (tx) => {
        await repo.lockDeviceRow(tx, due.device_id)
        if (!(await repo.markNotReturned(tx, due.id, now))) return false
        await recheck(tx, due.device_id)
        return true
      })
      if (done) raised++
    } catch (e) {
      ctx.log.error(
        { door_event: due.id, err: { message: (e as Error).message } },
        'not-returned check failed; tried again next tick',
      )
    } finally {
      kickIfTold(ctx)
    }
  }
  return raised
}
