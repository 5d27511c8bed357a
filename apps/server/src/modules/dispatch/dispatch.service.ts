import crypto from 'node:crypto'
import { maskPhone } from '@aed/contracts'
import { DISPATCH_DEFAULTS, type Dispatch } from '@aed/contracts/dispatch'
import { LiveType } from '@aed/contracts/live'
import type { AppContext, OutboxHandler } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { chinaTime } from '../../db/opening-hours.ts'
import { formatDate, formatDateTime } from '../../lib/time.ts'
import { queueNoticeSms } from '../alert/alert-sms.service.ts'
import { readyAedsNear } from '../device/device-nearby.port.ts'
import { insertOutbox, type OutboxRow, tellOutbox } from '../engine/engine.port.ts'
import { pushLive } from '../live/live.service.ts'
import { settingsOfAgency } from '../settings/settings.service.ts'
import * as repo from './dispatch.repository.ts'
import { type FreeAed, type PlannedAlert, planWave } from './dispatch.rules.ts'

/** The dispatch settings a dispatch keeps from when it started. */
export type DispatchSettings = {
  -readonly [K in keyof typeof DISPATCH_DEFAULTS]: (typeof DISPATCH_DEFAULTS)[K] extends readonly number[]
    ? number[]
    : number
}

/** A shared position counts this long; after it the responder's resident address stands in. */
export const POSITION_FRESH_MS = 30 * 60_000

/** The organisation's dispatch settings, defaults where unsaved. */
export async function dispatchSettings(db: DbOrTx, agencyId: number): Promise<DispatchSettings> {
  const s = (await settingsOfAgency(db, agencyId)) as unknown as Record<string, unknown>
  const out = {} as Record<string, unknown>
  for (const k of Object.keys(DISPATCH_DEFAULTS))
    out[k] = s[k] ?? DISPATCH_DEFAULTS[k as keyof typeof DISPATCH_DEFAULTS]
  return out as DispatchSettings
}

/** A link token (in the SMS only) and the hash the database keeps. */
function newToken() {
  const token = crypto.randomBytes(32).toString('base64url')
  return { token, hash: hashToken(token) }
}

/** The stored form of a link's token. */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

/** Where responders open their links: PUBLIC_URL, else this server on localhost. */
export const linkBase = (ctx: AppContext) =>
  ctx.config.PUBLIC_URL?.replace(/\/$/, '') ?? `http://localhost:${ctx.config.PORT}`

/** Tells the consoles that see the dispatch to refetch it (live frame 14). */
export async function tellConsoles(
  ctx: AppContext,
  tx: DbOrTx,
  d: Pick<repo.DispatchRow, 'id' | 'call_id' | 'agency_id' | 'index_link'>,
  kind: string,
) {
  await pushLive(ctx, tx, {
    data_type: LiveType.DISPATCH,
    agency_id: d.agency_id,
    index_link: d.index_link,
    data: { call_id: d.call_id, dispatch_id: d.id, kind },
  })
}

/** Writes steps and tells the consoles that see the dispatch to refetch it. */
async function stepped(
  ctx: AppContext,
  tx: DbOrTx,
  d: Pick<repo.DispatchRow, 'id' | 'call_id' | 'agency_id' | 'index_link'>,
  steps: { alert_id?: number | null; kind: string; detail?: Record<string, unknown> }[],
) {
  if (steps.length === 0) return
  const now = ctx.clock.now()
  const written = await repo.insertSteps(
    tx,
    steps.map((s) => ({ ...s, dispatch_id: d.id })),
    now,
  )
  await tellConsoles(ctx, tx, d, steps[steps.length - 1].kind)
  // A call's integrators see who is coming (call.dispatch), through the outbox like every webhook.
  if (d.call_id === null) return
  const rows: OutboxRow[] = written.map((w) => ({
    topic: 'webhook',
    key: `webhook:dispatch:${w.id}`,
    agencyId: d.agency_id,
    indexLink: d.index_link,
    payload: { event: 'call.dispatch', step_id: w.id },
  }))
  await insertOutbox(tx, rows, now)
  await tellOutbox(ctx, tx, rows)
}

/** The SMS of an alert: where, the role, and the link. */
function alertText(location: string, p: PlannedAlert, link: string) {
  const role = p.role === 'aed' ? '请先取附近的AED再前往' : '请立即前往现场'
  return `【AED云】急救呼叫：${location}附近有人心脏骤停，${role}（约${Math.max(1, Math.round(p.eta_s / 60))}分钟）。查看并接受：${link}`
}

/**
 * Sends the next `count` alerts of a dispatch within the radius of its phase: candidates nearest
 * first, roles and AEDs by planWave, each with its link SMS and an answer deadline. Never more than
 * dispatch_max alerts in all; a responder is alerted once per dispatch (the unique key).
 */
async function alertMore(ctx: AppContext, tx: DbOrTx, d: repo.DispatchRow, count: number, location: string) {
  const s = d.settings as DispatchSettings
  const now = ctx.clock.now()
  const existing = await repo.alertsOf(tx, d.id)
  const room = Math.min(count, s.dispatch_max - existing.length)
  if (room <= 0) return 0
  const radius = s.dispatch_radii_m[Math.min(d.phase, s.dispatch_radii_m.length - 1)]
  const scope = { index_link: d.index_link }
  const people = await repo.candidates(tx, scope, d, radius, {
    dispatchId: d.id,
    today: formatDate(now),
    freshSince: new Date(now.getTime() - POSITION_FRESH_MS),
    limit: room,
  })
  if (people.length === 0) return 0
  const taken = new Set(
    existing
      .filter((a) => ['alerted', 'accepted', 'arrived'].includes(a.state) && a.device_id)
      .map((a) => a.device_id),
  )
  const aeds: FreeAed[] = (
    await readyAedsNear(tx, scope, d, radius + s.dispatch_aed_detour_m, chinaTime(now), 50)
  ).filter((a) => !taken.has(a.device_id))
  const sent = {
    patient: existing.filter((a) => a.role === 'patient').length,
    aed: existing.filter((a) => a.role === 'aed').length,
  }
  const plan = planWave(d, people, aeds, s, room, sent)
  const tokens = new Map(plan.map((p) => [p.responder_id, newToken()]))
  const answerDue = new Date(now.getTime() + s.dispatch_answer_s * 1000)
  const written = await repo.insertAlerts(
    tx,
    plan.map((p) => ({
      dispatch_id: d.id,
      responder_id: p.responder_id,
      token_hash: tokens.get(p.responder_id)!.hash,
      role: p.role,
      device_id: p.device_id,
      distance: p.distance,
      eta_s: p.eta_s,
      alerted_at: now,
      answer_due_at: answerDue,
    })),
  )
  const contacts = new Map(
    (
      await repo.responderContacts(
        tx,
        written.map((w) => w.responder_id),
      )
    ).map((c) => [c.id, c]),
  )
  for (const w of written) {
    const p = plan.find((x) => x.responder_id === w.responder_id)!
    const c = contacts.get(w.responder_id)
    if (!c) continue
    const link = `${linkBase(ctx)}/rescue/${tokens.get(w.responder_id)!.token}`
    await queueNoticeSms(
      tx,
      { phone: c.phone, content: alertText(location, p, link), key: `dispatch:${w.id}`, kind: 'dispatch' },
      now,
    )
  }
  await stepped(
    ctx,
    tx,
    d,
    written.map((w) => ({ alert_id: w.id, kind: 'alerted', detail: { role: w.role } })),
  )
  return written.length
}

/**
 * Starts the dispatch of a call, once: the dispatch row (with the settings of the call's
 * organisation), the first wave within the first radius, and the next phase's deadline. In the
 * transaction that delivers the call's `dispatch` outbox row.
 */
export async function startForCall(ctx: AppContext, tx: DbOrTx, callId: number) {
  const call = await repo.callOrigin(tx, callId)
  if (!call || call.status !== 1) return null
  return start(ctx, tx, call)
}

/** Starts a dispatch from its origin (a call's or a rescue's place), once. */
export async function start(ctx: AppContext, tx: DbOrTx, origin: repo.Origin) {
  const settings = await dispatchSettings(tx, origin.agency_id)
  const now = ctx.clock.now()
  const nextPhase = new Date(now.getTime() + settings.dispatch_phase_s * 1000)
  const d = await repo.insertDispatch(tx, origin, settings, nextPhase, now)
  if (!d) return null
  await stepped(ctx, tx, d, [{ kind: 'started', detail: { radius: settings.dispatch_radii_m[0] } }])
  await alertMore(ctx, tx, d, settings.dispatch_first_wave, origin.location)
  return d.id
}

/** The outbox's `dispatch` topic: a new call's dispatch (modules/call writes the row with the call). */
export const dispatchOutboxHandler: OutboxHandler = async (ctx, tx, row) => {
  await startForCall(ctx, tx, Number(row.payload.call_id))
}

/** The call's dispatch as the dispatcher sees it (null before it started or without one). */
export async function dispatchOfCall(ctx: AppContext, callId: number): Promise<Dispatch | null> {
  const d = await repo.dispatchOfCall(ctx.db, callId)
  if (!d) return null
  const s = d.settings as DispatchSettings
  const now = ctx.clock.now()
  const [alerts, aeds] = await Promise.all([
    repo.alertsForView(ctx.db, d.id),
    readyAedsNear(ctx.db, { index_link: d.index_link }, d, s.dispatch_radii_m.at(-1)!, chinaTime(now), 20),
  ])
  const fresh = now.getTime() - POSITION_FRESH_MS
  const time = (t: Date | null) => (t ? formatDateTime(t) : null)
  return {
    id: d.id,
    state: d.state,
    phase: d.phase,
    radius: s.dispatch_radii_m[Math.min(d.phase, s.dispatch_radii_m.length - 1)],
    accepted: alerts.filter((a) => a.state === 'accepted' || a.state === 'arrived').length,
    arrived: alerts.filter((a) => a.state === 'arrived').length,
    alerts: alerts.map((a) => {
      const located = a.located_at && a.located_at.getTime() >= fresh
      return {
        id: a.id,
        responder_id: a.responder_id,
        name: a.name,
        phone: maskPhone(a.phone) ?? a.phone,
        role: a.role,
        device_sn: a.device_sn,
        cabinet_sn: a.cabinet_sn,
        state: a.state,
        distance: a.distance,
        eta_s: a.eta_s,
        alerted_at: formatDateTime(a.alerted_at),
        answered_at: time(a.answered_at),
        arrived_at: time(a.arrived_at),
        lat: located ? a.last_lat : a.home_lat,
        lon: located ? a.last_lon : a.home_lon,
        located_at: located ? time(a.located_at) : null,
        aed_lat: a.aed_lat,
        aed_lon: a.aed_lon,
      }
    }),
    aeds: aeds.map((a) => ({
      device_id: a.device_id,
      device_sn: a.device_sn,
      lat: a.lat,
      lon: a.lon,
      distance: a.distance,
      cabinet_sn: a.cabinet_sn,
    })),
  }
}

/** The dispatch's steps for the call's timeline. */
export async function dispatchSteps(ctx: AppContext, callId: number) {
  const d = await repo.dispatchOfCall(ctx.db, callId)
  return d ? repo.stepsOf(ctx.db, d.id) : []
}

export { alertMore, stepped }
