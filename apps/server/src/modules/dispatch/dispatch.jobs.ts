import type { AppContext, Job } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { chinaTime } from '../../db/opening-hours.ts'
import { every } from '../../lib/every.ts'
import { queueNoticeSms } from '../alert/alert-sms.service.ts'
import { readyAedsNear, stillReady } from '../device/device-nearby.port.ts'
import { kickIfTold } from '../engine/engine.port.ts'
import * as repo from './dispatch.repository.ts'
import { metres, replacementAed } from './dispatch.rules.ts'
import { alertMore, type DispatchSettings, POSITION_FRESH_MS, start, stepped } from './dispatch.service.ts'

/** Rows each pass of the tick takes. */
const BATCH = 100

/** The place's words of a dispatch (for its SMS), in the caller's transaction (PGlite has one connection). */
async function locationOf(tx: DbOrTx, d: repo.DispatchRow) {
  if (!d.call_id) return ''
  return (await repo.callOrigin(tx, d.call_id))?.location ?? ''
}

/**
 * Alerts whose answer window passed: expired, and one more responder alerted in each one's
 * place while the dispatch still wants people (running, not enough accepted).
 */
async function expireAlerts(ctx: AppContext, now: Date) {
  await ctx.db.transaction(async (tx) => {
    const expired = await repo.expireDue(tx, now, BATCH)
    const byDispatch = new Map<number, number[]>()
    for (const e of expired) byDispatch.set(e.dispatch_id, [...(byDispatch.get(e.dispatch_id) ?? []), e.id])
    for (const [id, alerts] of byDispatch) {
      const d = await repo.lockDispatch(tx, id)
      if (!d) continue
      await stepped(
        ctx,
        tx,
        d,
        alerts.map((a) => ({ alert_id: a, kind: 'expired' })),
      )
      if (d.state === 'running') await alertMore(ctx, tx, d, alerts.length, await locationOf(tx, d))
    }
  })
}

/** Dispatches whose phase ran out with too few accepted: the radius widens and a new wave goes out. */
async function widenPhases(ctx: AppContext, now: Date) {
  for (const { id } of await repo.duePhases(ctx.db, now, BATCH)) {
    await ctx.db.transaction(async (tx) => {
      const d = await repo.lockDispatch(tx, id)
      if (!d || d.state !== 'running' || !d.next_phase_at || d.next_phase_at > now) return
      const s = d.settings as DispatchSettings
      const last = d.phase + 1 >= s.dispatch_radii_m.length
      const phase = last ? d.phase : d.phase + 1
      const next = last ? null : new Date(now.getTime() + s.dispatch_phase_s * 1000)
      await repo.updateDispatch(tx, d.id, { phase, next_phase_at: next })
      if (last) return
      await stepped(ctx, tx, d, [{ kind: 'phase', detail: { phase, radius: s.dispatch_radii_m[phase] } }])
      await alertMore(ctx, tx, { ...d, phase }, s.dispatch_first_wave, await locationOf(tx, d))
    })
  }
}

/** Dispatches whose call closed: closed, every alert not yet arrived stood down and told by SMS. */
async function closeWithCalls(ctx: AppContext, now: Date) {
  for (const { id } of await repo.closedCalls(ctx.db, BATCH)) {
    await ctx.db.transaction(async (tx) => {
      const d = await repo.lockDispatch(tx, id)
      if (!d || d.state === 'closed') return
      await repo.updateDispatch(tx, d.id, { state: 'closed', next_phase_at: null, closed_at: now })
      // Those on their way or still to answer are stood down; who arrived keeps that (the record).
      const down = await repo.standDown(tx, d.id, ['alerted', 'accepted'], now)
      const location = await locationOf(tx, d)
      const contacts = await repo.responderContacts(
        tx,
        down.map((a) => a.responder_id),
      )
      for (const c of contacts) {
        const content = `【AED云】${location}的呼救已结束，您无需再前往。感谢您的守护！`
        await queueNoticeSms(
          tx,
          { phone: c.phone, content, key: `dispatch:closed:${d.id}:${c.id}`, kind: 'dispatch' },
          now,
        )
      }
      await stepped(ctx, tx, d, [
        ...down.map((a) => ({ alert_id: a.id, kind: 'stood_down' })),
        { kind: 'closed' },
      ])
    })
  }
}

/**
 * AEDs a responder was sent to fetch that stopped being usable (a fault, an offline cabinet, its
 * opening hours ended): the nearest other free ready AED within the detour takes its place, else
 * the responder goes straight to the patient. Each change is a step the responder's page shows.
 */
async function replaceAeds(ctx: AppContext, now: Date) {
  const inPlay = await repo.aedAlertsInPlay(ctx.db, 500)
  if (inPlay.length === 0) return
  const ready = await stillReady(ctx.db, [...new Set(inPlay.map((a) => a.device_id))], chinaTime(now))
  for (const a of inPlay.filter((x) => !ready.has(x.device_id))) {
    await ctx.db.transaction(async (tx) => {
      const d = await repo.lockDispatch(tx, a.dispatch_id)
      if (!d || d.state === 'closed') return
      const s = d.settings as DispatchSettings
      const alerts = await repo.alertsOf(tx, d.id)
      const taken = new Set(alerts.filter((x) => x.id !== a.id && x.device_id).map((x) => x.device_id))
      const view = await repo.alertById(tx, a.id)
      if (!view || view.device_id !== a.device_id) return
      const from = view.aed_lat !== null ? { lat: view.aed_lat, lon: view.aed_lon! } : d
      const aeds = (
        await readyAedsNear(
          tx,
          { index_link: d.index_link },
          d,
          s.dispatch_radii_m.at(-1)! + s.dispatch_aed_detour_m,
          chinaTime(now),
          50,
        )
      ).filter((x) => !taken.has(x.device_id))
      // The responder's way is measured from where they were sent from, approximated by the old AED.
      const next = replacementAed(from, d, aeds, s.dispatch_aed_detour_m + (view.distance - metres(from, d)))
      const distance = Math.round(next ? metres(from, next) + metres(next, d) : metres(from, d))
      await repo.setAlertAed(
        tx,
        a.id,
        next?.device_id ?? null,
        distance,
        Math.round(distance / s.dispatch_speed_mps),
      )
      await stepped(ctx, tx, d, [
        {
          alert_id: a.id,
          kind: 'aed_replaced',
          detail: { from: view.device_sn, to: next ? next.device_sn : null },
        },
      ])
    })
  }
}

/** A rescue waits this long for a call to explain it (the link job runs every 10 s). */
export const RESCUE_GRACE_MS = 15_000

/**
 * Rescues no call explains, where the organisation dispatches on them: someone opened an AED, so
 * someone collapsed near it. Rescues of the last 10 minutes, past the grace for a call to explain
 * them.
 */
async function dispatchRescues(ctx: AppContext, now: Date) {
  const rescues = await repo.unexplainedRescues(
    ctx.db,
    new Date(now.getTime() - 10 * 60_000),
    new Date(now.getTime() - RESCUE_GRACE_MS),
    20,
  )
  for (const r of rescues) await ctx.db.transaction((tx) => start(ctx, tx, r))
}

/** How long the responder positions are kept for the dispatcher's map: those of the last half hour. */
export const LOCATION_FRESH_MS = POSITION_FRESH_MS

/** One pass of dispatch's deadlines: closed calls first (no alert after a call ends), then answers, AEDs, phases. */
export async function dispatchTick(ctx: AppContext, now: Date) {
  await closeWithCalls(ctx, now)
  await expireAlerts(ctx, now)
  await replaceAeds(ctx, now)
  await widenPhases(ctx, now)
  await dispatchRescues(ctx, now)
  kickIfTold(ctx)
}

/** Every 5 seconds, once per cluster: answer windows are 45 s, phases a minute. */
export const dispatchJobs: readonly Job[] = [every('dispatch', 5_000, dispatchTick)]
