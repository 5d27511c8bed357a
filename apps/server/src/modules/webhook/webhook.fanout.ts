import { WEBHOOK_EVENTS, type WebhookEvent } from '@aed/contracts/open-api'
import type { AppContext, OutboxBatchHandler, OutboxRecord } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { ENGINE_WEBHOOK_EVENTS, type WebhookOutboxPayload } from '../../lib/webhook-rows.ts'
import { openCallsByIds } from '../call/call.service.ts'
import { openDispatchSteps } from '../dispatch/dispatch.webhook.ts'
import { holdPushOrder } from '../live/live.service.ts'
import { filesOrigin, openAedsByIds, openEventsByIds } from '../open-api/open-api.service.ts'
import { openReviewsByIds } from '../review/review.service.ts'
import { openDoorAlarmObject, openRescueObject, webhookBody } from './webhook.presenter.ts'
import * as repo from './webhook.repository.ts'

// The fan-out: inside the outbox drain's transaction, each event becomes one delivery per
// subscribed endpoint. No network here: the sender (webhook.sender.ts) sends them later, outside
// any transaction. The delivery's event_key is the outbox row's dedupe key, so a drain that runs
// again writes nothing twice.

/** An event to fan out: its type, the object's id, where it happened, and its outbox row. */
type Happened = { event: WebhookEvent; ref: number; row: OutboxRecord }

/** What an engine's webhook row is about (lib/webhook-rows.ts); null for one this server does not know. */
function engineEventOf(row: OutboxRecord): Happened | null {
  const p = row.payload as WebhookOutboxPayload
  if (!ENGINE_WEBHOOK_EVENTS.includes(p.event)) return null
  const ref =
    'event_id' in p
      ? p.event_id
      : 'rescue_id' in p
        ? p.rescue_id
        : 'door_event_id' in p
          ? p.door_event_id
          : 'call_id' in p
            ? p.call_id
            : 'step_id' in p
              ? p.step_id
              : 'review_id' in p
                ? p.review_id
                : null
  return typeof ref === 'number' ? { event: p.event, ref, row } : null
}

/** A status push (the `live` topic's row) as a device.status.changed event of its AED. */
function statusEventOf(row: OutboxRecord): Happened | null {
  const id = Number(row.payload.device_id)
  return Number.isInteger(id) && id > 0 ? { event: 'device.status.changed', ref: id, row } : null
}

/** The object each event is about, as the matching open-API read presents it, and when it happened. */
async function objectsOf(ctx: AppContext, tx: DbOrTx, events: Happened[]) {
  const ids = (...types: WebhookEvent[]) => [
    ...new Set(events.filter((e) => types.includes(e.event)).map((e) => e.ref)),
  ]
  // Without its id in the answer: by serial, which the status push carries. Photos under
  // PUBLIC_FILES_URL's origin when it is absolute (a webhook has no request to take one from).
  const aeds = new Map(
    (await openAedsByIds(tx, ids('device.status.changed'), 'gcj02', filesOrigin(ctx.config))).map((a) => [
      a.sn,
      a,
    ]),
  )
  const deviceEvents = new Map<number, Record<string, unknown>>(
    (await openEventsByIds(tx, ids('device.event.opened', 'device.event.closed'))).map((e) => [e.id, e]),
  )
  const rescues = new Map(
    (await repo.rescuesByIds(tx, ids('device.rescue.started', 'device.rescue.ended'))).map((r) => [r.id, r]),
  )
  const doors = new Map((await repo.doorAlarmsByIds(tx, ids('cabinet.door.alarm'))).map((d) => [d.id, d]))
  const calls = new Map((await openCallsByIds(tx, ids('call.created', 'call.closed'))).map((c) => [c.id, c]))
  const steps = new Map((await openDispatchSteps(tx, ids('call.dispatch'))).map((s) => [s.step_id, s]))
  const volunteers = new Map(
    (await openReviewsByIds(tx, 'volunteer', ids('review.volunteer.decided'))).map((r) => [r.id, r]),
  )
  const thirdParty = new Map(
    (await openReviewsByIds(tx, 'third_party', ids('review.aed.decided'))).map((r) => [r.id, r]),
  )

  return (e: Happened): { data: Record<string, unknown>; time: Date } | null => {
    switch (e.event) {
      case 'device.status.changed': {
        const data = aeds.get(String(e.row.payload.device_sn))
        return data ? { data, time: e.row.create_time } : null
      }
      case 'device.event.opened':
      case 'device.event.closed': {
        const data = deviceEvents.get(e.ref)
        if (!data) return null
        const at = e.event === 'device.event.closed' ? data.close_time : data.open_time
        return { data, time: typeof at === 'string' ? new Date(at) : e.row.create_time }
      }
      case 'device.rescue.started':
      case 'device.rescue.ended': {
        const r = rescues.get(e.ref)
        if (!r) return null
        const at = e.event === 'device.rescue.ended' ? (r.ended_at ?? e.row.create_time) : r.event_time
        return { data: openRescueObject(r), time: at }
      }
      case 'call.created':
      case 'call.closed': {
        const c = calls.get(e.ref)
        if (!c) return null
        const at = e.event === 'call.closed' ? c.closed_at : c.call_time
        return { data: c, time: at ? new Date(at) : e.row.create_time }
      }
      case 'call.dispatch': {
        const st = steps.get(e.ref)
        return st ? { data: st, time: new Date(st.time) } : null
      }
      case 'review.volunteer.decided':
      case 'review.aed.decided': {
        const r = (e.event === 'review.volunteer.decided' ? volunteers : thirdParty).get(e.ref)
        return r?.audit_time ? { data: r, time: new Date(r.audit_time) } : null
      }
      case 'cabinet.door.alarm': {
        const d = doors.get(e.ref)
        return d ? { data: openDoorAlarmObject(d), time: d.opened_at } : null
      }
      default:
        return null
    }
  }
}

/**
 * Writes a delivery of each event for every endpoint subscribed to it. A batch with no
 * subscriber costs one query (subscriptions); the objects are read only for events someone
 * receives.
 */
async function fanOut(ctx: AppContext, tx: DbOrTx, events: Happened[]): Promise<void> {
  if (events.length === 0) return
  let subs = await repo.subscriptions(
    tx,
    events.map((e, i) => ({ i, service: WEBHOOK_EVENTS[e.event], index_link: e.row.index_link ?? '' })),
  )
  // A review's outcome goes to the configuration that sent the submission, not to all above it.
  const only = (i: number) => {
    const c = (events[i].row.payload as { config_id?: unknown }).config_id
    return events[i].event.startsWith('review.') && typeof c === 'number' ? c : null
  }
  subs = subs.filter((s) => only(s.i) === null || only(s.i) === s.config_id)
  if (subs.length === 0) return
  const wanted = [...new Set(subs.map((s) => s.i))].map((i) => events[i])
  const objectOf = await objectsOf(ctx, tx, wanted)
  const bodies = new Map<number, { body: Record<string, unknown>; time: Date } | null>()
  for (const s of subs) {
    if (bodies.has(s.i)) continue
    const e = events[s.i]
    const o = objectOf(e)
    bodies.set(s.i, o && { body: webhookBody(e.event, o.time, o.data), time: o.time })
  }
  const rows: repo.NewDelivery[] = []
  for (const s of subs) {
    const b = bodies.get(s.i)
    // The object is gone (its device's records were cleaned): nothing to send.
    if (!b) continue
    const e = events[s.i]
    rows.push({
      config_id: s.config_id,
      event: e.event,
      event_key: e.row.dedupe_key,
      event_time: b.time.toISOString(),
      payload: b.body,
      create_time: e.row.create_time.toISOString(),
    })
  }
  if (rows.length === 0) return
  // An endpoint's deliveries go in id order, so ids must follow the commits: the lock held until
  // this drain commits makes a concurrent fan-out draw its ids after these exist. The live
  // pushes' lock: a drain that pushes and fans out takes one lock, never two in either order.
  await holdPushOrder(tx)
  await repo.insertDeliveries(tx, rows, ctx.clock.now())
}

/** The outbox's `webhook` topic: the engines' events, fanned out to the subscribed endpoints. */
export const webhookOutboxHandler: OutboxBatchHandler = {
  batch: (ctx, tx, rows) =>
    fanOut(
      ctx,
      tx,
      rows.flatMap((r) => engineEventOf(r) ?? []),
    ),
}

/**
 * The status pushes (the `live` topic's rows) as device.status.changed deliveries for the
 * endpoints with device_data_push; jobs/outbox.ts runs it beside the live push, in its batch.
 */
export function fanOutStatus(ctx: AppContext, tx: DbOrTx, rows: OutboxRecord[]): Promise<void> {
  return fanOut(
    ctx,
    tx,
    rows.flatMap((r) => statusEventOf(r) ?? []),
  )
}
