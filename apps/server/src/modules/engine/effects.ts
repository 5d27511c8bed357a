import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { liveRowForEvent } from '../../lib/live-rows.ts'
import { webhookRowForRescueEnd } from '../../lib/webhook-rows.ts'
import * as doors from './door-link.repository.ts'
import * as repo from './engine.repository.ts'
import { AED_RETURN_MS, DOOR_RESCUE_WINDOW_MS, deadlineAfter } from './engine.rules.ts'
import type { OutboxRow } from './outbox.repository.ts'
import { tellOutbox } from './outbox.ts'
import type { Effect, EngineOutput } from './reducer.ts'
import { presentStatusPush } from './status.presenter.ts'

// The reducer's answer written down, inside the message's (or the check's) transaction: one
// small writer per effect type, then the status push (the device presenter's), the engine state,
// the registry's view and the outbox rows in one statement, and an alarm's message delivered
// before the commit (tellOutbox); the rest of the outbox is drained once it has committed.

/** What the writers share while one answer is written. */
type Writing = {
  tx: DbOrTx
  facts: repo.DeviceFacts
  where: repo.Where
  /** The outbox rows of this answer, written with the state. */
  tell: (topic: OutboxRow['topic'], key: string, payload: unknown) => void
  /** The self-test record of this answer (a fault event names it). */
  detectionId: number | null
  /** The rescue under way, as this answer leaves it. */
  rescueId: number | null
  fwVersion?: string
  /** The stored rescue a late usage step belongs to (null: none stored yet). */
  lateRescueId: number | null
}

type Writer<T extends Effect['type']> = (e: Extract<Effect, { type: T }>, w: Writing) => Promise<void>

const detection: Writer<'detection'> = async (e, w) => {
  w.detectionId = await repo.insertDetection(w.tx, w.where, e)
}

/** An event opens: its SMS (unless the installation is silenced), its webhook, its live push, and for an offset its message. */
const open: Writer<'open'> = async (e, w) => {
  const { facts } = w
  const id = await repo.openEvent(w.tx, w.where, {
    ...e,
    detectionId: e.kind === 'fault' ? w.detectionId : null,
    installLocation: e.kind === 'offset' ? (facts.installation?.location ?? null) : null,
    offset: e.offset && { ...e.offset, location: `${e.offset.lat.toFixed(6)},${e.offset.lon.toFixed(6)}` },
  })
  // Already open (a lost race): nothing to tell.
  if (id === null) return
  const event = { event_id: id, device_id: facts.id, device_sn: facts.device_sn, kind: e.kind, code: e.code }
  if (e.kind === 'offset') w.tell('message', `msg:offset:${id}`, { msg_type: 3, ...event })
  if (!facts.sms_off) w.tell('sms', `sms:event:${id}`, { sms: 'status', ...event })
  w.tell('webhook', `webhook:event:${id}:open`, { event: 'device.event.opened', ...event })
  w.tell(...liveRowForEvent(event, true))
}

const close: Writer<'close'> = async (e, w) => {
  const closed = await repo.closeEvent(w.tx, w.facts.id, e.kind, e.code, e.time)
  if (!closed) return
  const event = {
    event_id: closed.id,
    device_id: w.facts.id,
    device_sn: w.facts.device_sn,
    kind: e.kind,
    code: e.code,
  }
  w.tell('webhook', `webhook:event:${closed.id}:close`, { event: 'device.event.closed', ...event })
  w.tell(...liveRowForEvent(event, false))
}

/** A rescue starts: filed at the installation, under its cabinet's door when it came out of one, and told (the alarm). */
const rescueStart: Writer<'rescue_start'> = async (e, w) => {
  const { facts } = w
  const r = await repo.startRescue(w.tx, w.where, {
    rescueEventId: e.rescueEventId,
    time: e.time,
    lat: facts.installation?.lat ?? null,
    lon: facts.installation?.lon ?? null,
    location: facts.installation?.location ?? null,
  })
  w.rescueId = r.id
  if (!r.created) return
  // An AED bound to a cabinet came out of it: the rescue names the cabinet (and the door opening
  // it left through), and that opening's AED has left.
  const cab = await doors.cabinetOfRescue(w.tx, facts.id, e.time, DOOR_RESCUE_WINDOW_MS)
  if (cab) {
    await doors.linkRescue(w.tx, r.id, cab.cabinet_id, cab.door_event_id)
    if (cab.door_event_id) await doors.markLeft(w.tx, cab.door_event_id, e.time, AED_RETURN_MS)
  }
  const rescue = { rescue_id: r.id, device_id: facts.id, device_sn: facts.device_sn }
  w.tell('message', `msg:rescue:${r.id}`, { msg_type: 2, ...rescue })
  w.tell('sms', `sms:rescue:${r.id}`, { sms: 'aid', ...rescue })
  w.tell('webhook', `webhook:rescue:${r.id}`, { event: 'device.rescue.started', ...rescue })
}

/** A rescue ends: its webhook (device.rescue.ended). */
const rescueEnd: Writer<'rescue_end'> = async (e, w) => {
  await repo.endRescue(w.tx, w.facts.id, e.rescueEventId, e.time)
  if (w.rescueId) w.tell(...webhookRowForRescueEnd(w.rescueId, w.facts))
  w.rescueId = null
}

const usage: Writer<'usage'> = async (e, w) => {
  const target = w.rescueId ?? (await repo.findRescue(w.tx, w.facts.id, e.rescueEventId))?.id
  if (target) await repo.insertUsage(w.tx, target, w.facts.id, e)
}

/** A step of a rescue that is not the one under way joins that rescue's history (filed as ended when new). */
const lateUsage: Writer<'late_usage'> = async (e, w) => {
  const { facts } = w
  const rescueId =
    w.lateRescueId ??
    (
      await repo.startRescue(w.tx, w.where, {
        rescueEventId: e.rescueEventId,
        time: e.time,
        lat: facts.installation?.lat ?? null,
        lon: facts.installation?.lon ?? null,
        location: facts.installation?.location ?? null,
        ended: true,
      })
    ).id
  await repo.insertUsage(w.tx, rescueId, facts.id, e)
}

const installationDates: Writer<'installation_dates'> = async (e, w) => {
  if (w.facts.installation_id) await repo.updateInstallationDates(w.tx, w.facts.installation_id, e)
}

const deviceFacts: Writer<'device_facts'> = async (e, w) => {
  w.fwVersion = e.fwVersion
}

const ack: Writer<'ack'> = async (e, w) => {
  await repo.ackCommand(w.tx, 'aed', w.facts.id, e)
}

const file: Writer<'file'> = async (e, w) => {
  await repo.attachRescueFile(w.tx, w.facts.id, e.rescueEventId, e.fileId)
}

/** The writer of each effect type. */
const writers: { [T in Effect['type']]: Writer<T> } = {
  detection,
  open,
  close,
  rescue_start: rescueStart,
  rescue_end: rescueEnd,
  usage,
  late_usage: lateUsage,
  installation_dates: installationDates,
  device_facts: deviceFacts,
  ack,
  file,
}

export type WriteOptions = {
  now: Date
  /** Makes the status push's outbox key unique to this message or check. */
  key: string
  /** When the message arrived (a message: the device is alive then). */
  seenAt?: Date
  rssi?: number
  /** A heartbeat's cable voltage, a location's positioning type: kept as the latest. */
  cableVoltage?: number
  positioningType?: string
  /** A missed deadline: the device is offline. */
  offline?: boolean
  /** The stored rescue of a late usage step (see lateUsage). */
  lateRescueId?: number | null
}

/**
 * Writes the reducer's answer: records, events, the registry's view, the state, the outbox; an
 * alarm's message is delivered in this transaction, the rest drained once it has committed.
 */
export async function writeEffects(
  ctx: AppContext,
  tx: DbOrTx,
  facts: repo.DeviceFacts,
  out: EngineOutput,
  o: WriteOptions,
): Promise<void> {
  const outbox: OutboxRow[] = []
  const w: Writing = {
    tx,
    facts,
    where: {
      deviceId: facts.id,
      installationId: facts.installation_id,
      agencyId: facts.agency_id,
      indexLink: facts.index_link,
    },
    tell: (topic, key, payload) =>
      outbox.push({ topic, key, agencyId: facts.agency_id, indexLink: facts.index_link, payload }),
    detectionId: null,
    rescueId: facts.state.rescue ? facts.rescueId : null,
    lateRescueId: o.lateRescueId ?? null,
  }
  for (const e of out.effects) await (writers[e.type] as Writer<typeof e.type>)(e, w)

  const reasons = out.reasons as string[]
  if (
    out.status !== facts.status ||
    out.readiness !== facts.readiness ||
    reasons.join() !== facts.readiness_reasons.join()
  ) {
    w.tell(
      'live',
      `status:${facts.id}:${o.key}`,
      presentStatusPush({
        id: facts.id,
        device_sn: facts.device_sn,
        status: out.status,
        disable_abnormal_display: facts.display_off ? 1 : 0,
        readiness: out.readiness,
        readiness_reasons: reasons,
        lat: facts.installation?.lat ?? null,
        lon: facts.installation?.lon ?? null,
      }),
    )
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
          cableVoltage: o.cableVoltage,
          positioningType: o.positioningType,
          rescueId: out.state.rescue ? w.rescueId : null,
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
      fwVersion: w.fwVersion,
    },
    state,
    outbox,
    o.now,
  )
  await tellOutbox(ctx, tx, outbox)
}
