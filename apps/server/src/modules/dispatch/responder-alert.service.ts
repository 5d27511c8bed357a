import type { AlertAction, ResponderAlert } from '@aed/contracts/dispatch'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import { formatDateTime } from '../../lib/time.ts'
import { queueNoticeSms } from '../alert/alert-sms.service.ts'
import { issueCommand } from '../device/device-command.service.ts'
import { kickIfTold } from '../engine/engine.port.ts'
import { toGcj02 } from '../engine/gcj02.ts'
import * as repo from './dispatch.repository.ts'
import { alertMore, type DispatchSettings, hashToken, stepped, tellConsoles } from './dispatch.service.ts'

// The responder's side: the alert link is the permission (no sign-in). A link is found by its
// token's hash; it stops working when the call closes.

/** The alert a link opens, or the envelope's not-found (a wrong or tampered link says no more). */
async function alertOf(db: DbOrTx, token: string) {
  const a = await repo.alertByToken(db, hashToken(token))
  if (!a) throw new AppError(2, 'ALERT_LINK_INVALID')
  return a
}

/** What the page shows of an alert. */
function present(a: repo.AlertView, now: Date): ResponderAlert {
  return {
    state: a.state,
    role: a.role,
    open: a.dispatch_state !== 'closed',
    responder_name: a.responder_name,
    call: {
      location: a.location,
      lat: a.lat,
      lon: a.lon,
      call_time: formatDateTime(a.call_time),
      description: a.description,
    },
    aed:
      a.role === 'aed' && a.device_sn && a.aed_lat !== null && a.aed_lon !== null
        ? {
            device_sn: a.device_sn,
            lat: a.aed_lat,
            lon: a.aed_lon,
            location: a.aed_location,
            location_desc: a.aed_location_desc,
            photo: a.aed_photo,
            cabinet_sn: a.cabinet_sn,
            unlocked: a.unlocked_at !== null,
          }
        : null,
    distance: a.distance,
    eta_s: a.eta_s,
    answer_left_s:
      a.state === 'alerted'
        ? Math.max(0, Math.round((a.answer_due_at.getTime() - now.getTime()) / 1000))
        : null,
    accepted: Number(a.accepted),
  }
}

/** The page's read. */
export async function readAlert(ctx: AppContext, token: string) {
  return present(await alertOf(ctx.db, token), ctx.clock.now())
}

/**
 * A responder's action, in one transaction with the dispatch locked: accept (from alerted or
 * expired: a late yes is still help), decline (alerts the next), arrived (after accepting), and
 * location (the phone's position, kept 30 minutes). Accepting an AED in a cabinet unlocks it (and
 * sounds its siren by setting) once; enough accepted stands the others down.
 */
export async function actOnAlert(
  ctx: AppContext,
  token: string,
  action: AlertAction,
  body: { lat?: number; lon?: number; coord: 'gcj02' | 'wgs84' },
) {
  const now = ctx.clock.now()
  const unlock = await ctx.db.transaction(async (tx) => {
    const first = await alertOf(tx, token)
    const d = (await repo.lockDispatch(tx, first.dispatch_id, true))!
    // Read again under the dispatch's lock: another accept may have committed meanwhile, and the
    // count of accepted (enough?) must be the one this accept adds to.
    const a = (await repo.alertById(tx, first.id))!
    if (a.dispatch_state === 'closed') throw invalid('ALERT_CLOSED')
    const s = d.settings as DispatchSettings
    switch (action) {
      case 'location': {
        if (body.lat === undefined || body.lon === undefined) throw invalid('ALERT_LOCATION_REQUIRED')
        const at = body.coord === 'wgs84' ? toGcj02(body.lat, body.lon) : { lat: body.lat, lon: body.lon }
        await repo.locateResponder(tx, a.responder_id, at, now)
        // No step (a position every 15 s is not a timeline line): the dispatcher's map moves the marker.
        await tellConsoles(ctx, tx, d, 'located')
        return null
      }
      case 'decline': {
        if (!(await repo.moveAlert(tx, a.id, ['alerted', 'expired'], 'declined', 'answered_at', now)))
          throw invalid('ALERT_NOT_PENDING')
        await stepped(ctx, tx, d, [{ alert_id: a.id, kind: 'declined' }])
        if (d.state === 'running') await alertMore(ctx, tx, d, 1, a.location)
        return null
      }
      case 'arrived': {
        if (!(await repo.moveAlert(tx, a.id, ['accepted'], 'arrived', 'arrived_at', now)))
          throw invalid('ALERT_NOT_ACCEPTED')
        await stepped(ctx, tx, d, [{ alert_id: a.id, kind: 'arrived' }])
        return null
      }
      case 'accept': {
        if (a.state === 'stood_down') throw invalid('ALERT_STOOD_DOWN')
        // One person, one patient: accepted for another open call, this alert is not theirs to take.
        if (await repo.busyElsewhere(tx, a.responder_id, a.dispatch_id)) throw invalid('ALERT_BUSY')
        if (!(await repo.moveAlert(tx, a.id, ['alerted', 'expired'], 'accepted', 'answered_at', now)))
          throw invalid('ALERT_NOT_PENDING')
        const steps: { alert_id?: number | null; kind: string; detail?: Record<string, unknown> }[] = [
          { alert_id: a.id, kind: 'accepted' },
        ]
        const accepted = Number(a.accepted) + 1
        if (accepted >= s.dispatch_enough && d.state === 'running') {
          await repo.updateDispatch(tx, d.id, { state: 'enough', next_phase_at: null })
          const down = await repo.standDown(tx, d.id, ['alerted', 'expired'], now)
          for (const c of await repo.responderContacts(
            tx,
            down.map((x) => x.responder_id),
          )) {
            const content = `【AED云】${a.location}的呼救已有足够急救人员响应，您无需前往。感谢您的守护！`
            await queueNoticeSms(
              tx,
              { phone: c.phone, content, key: `dispatch:enough:${d.id}:${c.id}`, kind: 'dispatch' },
              now,
            )
          }
          steps.push(
            { kind: 'enough', detail: { accepted } },
            ...down.map((x) => ({ alert_id: x.id, kind: 'stood_down' })),
          )
        }
        const cabinet =
          a.role === 'aed' &&
          a.cabinet_id !== null &&
          a.cabinet_sn &&
          (await repo.markUnlocked(tx, a.id, now))
            ? { id: a.cabinet_id, sn: a.cabinet_sn, siren: s.dispatch_cabinet_siren === 1 }
            : null
        if (cabinet)
          steps.push({
            alert_id: a.id,
            kind: 'unlocked',
            detail: { cabinet_sn: cabinet.sn, siren: cabinet.siren },
          })
        await stepped(ctx, tx, d, steps)
        return cabinet
      }
    }
  })
  kickIfTold(ctx)
  // Commands go to the cabinet after the commit: the accept stands even if the gateway is slow.
  if (unlock) {
    const by = { member_id: null, user_name: '派单系统' }
    await issueCommand(ctx, by, { kind: 'cabinet', id: unlock.id, sn: unlock.sn }, 'unlock')
    if (unlock.siren) await issueCommand(ctx, by, { kind: 'cabinet', id: unlock.id, sn: unlock.sn }, 'siren')
  }
  return readAlert(ctx, token)
}
