import type { Lang } from '@aed/contracts'
import {
  CALL_LAYER_HOURS,
  CALL_LAYER_MAX,
  CALL_TIME_SKEW_MS,
  type CallCloseForm,
  type CallForm,
  type CallListQuery,
} from '@aed/contracts/call'
import { MsgType } from '@aed/contracts/message'
import { regionPrefix } from '@aed/contracts/regions'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { chinaTime } from '../../db/opening-hours.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import type { WebhookOutboxKey } from '../../lib/webhook-rows.ts'
import type { IntegratorContext } from '../../plugins/auth/integrator.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { normalDevicesNear, readyAedsNear } from '../device/device-nearby.port.ts'
import { dispatchOfCall, dispatchSteps } from '../dispatch/dispatch.service.ts'
import { insertOutbox, kickIfTold, type OutboxRow, tellOutbox } from '../engine/engine.port.ts'
import { respondersNear } from '../responder/responder.service.ts'
import { settingsOfAgency } from '../settings/settings.service.ts'
import { callListCan, openCallObject, presentCall, presentTimeline } from './call.presenter.ts'
import * as repo from './call.repository.ts'
import { regionOfPoint } from './call-region.ts'

/** The coverage page's radius: a ready AED within it when the call came in covers the call. */
export const COVER_RADIUS_M = 500

/** Who recorded a call: the organisation that owns it, and how it came in. */
export type CallOwner = {
  agency_id: number
  index_link: string
  source: 'console' | 'open_api'
  config_id: number | null
  external_id: string | null
  member_id: number | null
  recorder: string
}

/** The organisation's call settings, defaults where unsaved. */
async function callSettings(db: DbOrTx, agencyId: number) {
  const s = await settingsOfAgency(db, agencyId)
  return { closeMinutes: s.call_close_minutes, radius: s.call_radius_m }
}

/** The outbox rows of a new call: its message (with the alarm), its SMS plan and its webhook. */
function newCallRows(id: number, owner: Pick<CallOwner, 'agency_id' | 'index_link'>): OutboxRow[] {
  const at = { agencyId: owner.agency_id, indexLink: owner.index_link }
  return [
    { topic: 'message', key: `message:call:${id}`, ...at, payload: { msg_type: MsgType.CALL, call_id: id } },
    { topic: 'sms', key: `sms:call:${id}`, ...at, payload: { sms: 'call', call_id: id } },
    {
      topic: 'webhook',
      key: `webhook:call:${id}:created` satisfies WebhookOutboxKey,
      ...at,
      payload: { event: 'call.created', call_id: id },
    },
    { topic: 'dispatch', key: `dispatch:call:${id}`, ...at, payload: { call_id: id } },
  ]
}

/** The webhook row of a closed call. */
const closedRow = (c: { id: number; agency_id: number; index_link: string }): OutboxRow => ({
  topic: 'webhook',
  key: `webhook:call:${c.id}:closed`,
  agencyId: c.agency_id,
  indexLink: c.index_link,
  payload: { event: 'call.closed', call_id: c.id },
})

/**
 * Records a call once: the call, and in the same transaction its message and alarm, its SMS plan
 * and its webhook (outbox rows). An integrator's external_id already recorded answers that call,
 * `created` false, and writes nothing more.
 */
export async function intake(ctx: AppContext, owner: CallOwner, form: CallForm) {
  const now = ctx.clock.now()
  const callTime = form.call_time ? new Date(form.call_time) : now
  if (callTime.getTime() > now.getTime() + CALL_TIME_SKEW_MS) throw invalid('CALL_TIME_FUTURE')
  if (owner.config_id !== null && owner.external_id !== null) {
    const seen = await repo.findByExternalId(ctx.db, owner.config_id, owner.external_id)
    if (seen) return { id: seen.id, created: false }
  }
  // Before the transaction: a vendor's reverse geocoding must not hold it open.
  const addressCode = await regionOfPoint(ctx, form.lat, form.lon)
  const settings = await callSettings(ctx.db, owner.agency_id)
  // The coverage page's fact: was a ready AED within 500 m when the call came in (asked now, not later).
  const covered = await readyAedsNear(
    ctx.db,
    { index_link: owner.index_link },
    form,
    COVER_RADIUS_M,
    chinaTime(now),
    50,
  )
  const answer = await ctx.db.transaction(async (tx) => {
    const id = await repo.insertCall(
      tx,
      {
        ...owner,
        phone: form.phone,
        lat: form.lat,
        lon: form.lon,
        location: form.location,
        address_code: addressCode,
        description: form.description ?? null,
        call_time: callTime,
        close_due_at: new Date(now.getTime() + settings.closeMinutes * 60_000),
        ready_aeds_500m: covered.length,
      },
      now,
    )
    // The same external_id won a race with this request: that call is the answer.
    if (id === null) return null
    const rows = newCallRows(id, owner)
    await insertOutbox(tx, rows, now)
    await tellOutbox(ctx, tx, rows)
    return { id, created: true }
  })
  kickIfTold(ctx)
  if (answer) return answer
  const first = await repo.findByExternalId(ctx.db, owner.config_id!, owner.external_id!)
  return { id: first!.id, created: false }
}

/** 登记呼救: a call a member took by phone, owned by the member's organisation. */
export function recordCall(ctx: AppContext, auth: AuthContext, form: CallForm) {
  return intake(
    ctx,
    {
      agency_id: auth.agency_id,
      index_link: auth.index_link,
      source: 'console',
      config_id: null,
      external_id: null,
      member_id: auth.member_id,
      recorder: auth.user_name,
    },
    form,
  )
}

/** An integrator's call (open API), owned by its configuration's organisation. */
export function receiveCall(
  ctx: AppContext,
  integrator: IntegratorContext,
  form: CallForm & { external_id: string },
) {
  return intake(
    ctx,
    {
      agency_id: integrator.agency_id,
      index_link: integrator.index_link,
      source: 'open_api',
      config_id: integrator.config_id,
      external_id: form.external_id,
      member_id: null,
      recorder: integrator.agency_name,
    },
    form,
  )
}

/** One page of the scope's calls, newest first, phones masked. */
export async function listCalls(ctx: AppContext, auth: AuthContext, q: CallListQuery) {
  const prefix = q.address_code ? regionPrefix(q.address_code) : null
  const { count, rows } = await repo.listPage(ctx.db, auth, { ...q, prefix })
  return { count, resource: rows.map((r) => presentCall(r, auth, { masked: true })), can: callListCan(auth) }
}

async function callRow(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return row
}

/** A call with the normal devices and the responders near it (the member's scope only) and its timeline. */
export async function callDetail(ctx: AppContext, auth: AuthContext, id: number, lang: Lang) {
  const row = await callRow(ctx, auth, id)
  const { radius } = await callSettings(ctx.db, row.agency_id)
  const [devices, responders, facts, dispatch, steps] = await Promise.all([
    normalDevicesNear(ctx.db, auth, row, radius, 50),
    respondersNear(ctx, auth, row, radius, 50),
    repo.timelineFacts(ctx.db, row.id, row.agency_id),
    dispatchOfCall(ctx, row.id),
    dispatchSteps(ctx, row.id),
  ])
  return {
    ...presentCall(row, auth, { masked: false }),
    devices,
    responders,
    radius,
    timeline: presentTimeline(row, facts, lang, steps),
    dispatch,
  }
}

async function close(
  ctx: AppContext,
  row: repo.CallRow,
  form: CallCloseForm,
  by: { reason: 'member' | 'integrator'; member: number | null },
) {
  if (row.status !== 1) throw invalid('CALL_CLOSED')
  const now = ctx.clock.now()
  await ctx.db.transaction(async (tx) => {
    const ok = await repo.closeCall(
      tx,
      row.id,
      { outcome: form.outcome, reason: by.reason, by: by.member, remark: form.remark ?? null },
      now,
    )
    if (!ok) throw invalid('CALL_CLOSED')
    const rows = [closedRow(row)]
    await insertOutbox(tx, rows, now)
    await tellOutbox(ctx, tx, rows)
  })
  kickIfTold(ctx)
}

/** A member closes an open call of the scope with its outcome. */
export async function closeCall(ctx: AppContext, auth: AuthContext, id: number, form: CallCloseForm) {
  const row = await callRow(ctx, auth, id)
  await close(ctx, row, form, { reason: 'member', member: auth.member_id })
  return presentCall((await repo.findInScope(ctx.db, auth, id))!, auth, { masked: false })
}

/** An integrator closes its own open call, found by its external_id. */
export async function closeOwnCall(
  ctx: AppContext,
  integrator: IntegratorContext,
  externalId: string,
  form: CallCloseForm,
) {
  const row = await repo.findByExternalId(ctx.db, integrator.config_id, externalId)
  if (!row) throw notFound()
  await close(ctx, row, form, { reason: 'integrator', member: null })
  return openCallObject((await repo.findByExternalId(ctx.db, integrator.config_id, externalId))!)
}

/** The dashboard's call layer: open calls and those of the last 24 hours in the region. */
export async function callLocations(ctx: AppContext, auth: AuthContext, addressCode: string | undefined) {
  const since = new Date(ctx.clock.now().getTime() - CALL_LAYER_HOURS * 3600_000)
  const rows = await repo.locations(
    ctx.db,
    auth,
    addressCode ? regionPrefix(addressCode) : null,
    since,
    CALL_LAYER_MAX,
  )
  return {
    count: rows[0]?.total ?? 0,
    resource: rows.map((r) => ({
      id: r.id,
      lon: r.lon,
      lat: r.lat,
      location: r.location,
      call_time: r.call_time.toISOString(),
      status: r.status,
    })),
  }
}

/** Calls as the webhooks send them (the fan-out reads them by id). */
export async function openCallsByIds(db: DbOrTx, ids: number[]) {
  return (await repo.findByIds(db, ids)).map((r) => openCallObject(r))
}
