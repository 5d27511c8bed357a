import { can, type Lang, type MessageKey, maskPhone, translate } from '@aed/contracts'
import type { Call } from '@aed/contracts/call'
import type { OpenCall } from '@aed/contracts/open-api'
import { regionFullName } from '@aed/contracts/regions'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { fromGcj02 } from '../engine/gcj02.ts'
import type { CallRow, timelineFacts } from './call.repository.ts'

const time = (d: Date | null) => (d ? formatDateTime(d) : null)

/** A call as the console lists and fetches it; lists mask the caller's phone. */
export function presentCall(row: CallRow, auth: AuthContext, opts: { masked: boolean }): Call {
  return {
    id: row.id,
    location: row.location,
    region: row.address_code ? regionFullName(row.address_code) : null,
    address_code: row.address_code,
    phone: opts.masked ? (maskPhone(row.phone) ?? row.phone) : row.phone,
    call_time: formatDateTime(row.call_time),
    lat: row.lat,
    lon: row.lon,
    description: row.description,
    status: row.status,
    outcome: row.outcome,
    closed_at: time(row.closed_at),
    close_reason: row.close_reason,
    remark: row.remark,
    source: row.source,
    recorder: row.recorder,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    rescue:
      row.rescue_id !== null && row.rescue_device_id !== null
        ? {
            id: row.rescue_id,
            device_id: row.rescue_device_id,
            device_sn: row.rescue_device_sn ?? '',
            rescue_event_id: row.rescue_event_id ?? '',
            event_time: formatDateTime(row.rescue_time!),
            event_lat: row.rescue_lat,
            event_lon: row.rescue_lon,
            distance: row.rescue_distance,
          }
        : null,
    can: { close: row.status === 1 && can(auth, 'device', 'EDIT') },
  }
}

/** What the signed-in member may do from the page's toolbar: 登记呼救 with device EDIT (decisions). */
export const callListCan = (auth: AuthContext) => ({ create: can(auth, 'device', 'EDIT') })

/** A call as an integrator reads it and the webhooks send it, in the asked coordinate system. */
export function openCallObject(row: CallRow, coord: 'gcj02' | 'wgs84' = 'gcj02'): OpenCall {
  const p = coord === 'wgs84' ? fromGcj02(row.lat, row.lon) : { lat: row.lat, lon: row.lon }
  return {
    id: row.id,
    external_id: row.external_id,
    phone: row.phone,
    location: row.location,
    address_code: row.address_code,
    lat: p.lat,
    lon: p.lon,
    coord,
    call_time: row.call_time.toISOString(),
    description: row.description,
    status: row.status,
    outcome: row.outcome,
    closed_at: row.closed_at?.toISOString() ?? null,
    rescue:
      row.rescue_device_sn && row.rescue_time
        ? { device_sn: row.rescue_device_sn, event_time: row.rescue_time.toISOString() }
        : null,
  }
}

type Step = { at: Date; kind: string; text: string }

/** The timeline's words of each dispatch step. */
const DISPATCH_STEP_TEXT: Record<string, MessageKey> = {
  started: 'DISPATCH_STEP_STARTED',
  alerted: 'DISPATCH_STEP_ALERTED',
  accepted: 'DISPATCH_STEP_ACCEPTED',
  declined: 'DISPATCH_STEP_DECLINED',
  expired: 'DISPATCH_STEP_EXPIRED',
  arrived: 'DISPATCH_STEP_ARRIVED',
  stood_down: 'DISPATCH_STEP_STOOD_DOWN',
  unlocked: 'DISPATCH_STEP_UNLOCKED',
  aed_replaced: 'DISPATCH_STEP_AED_REPLACED',
  phase: 'DISPATCH_STEP_PHASE',
  enough: 'DISPATCH_STEP_ENOUGH',
  closed: 'DISPATCH_STEP_CLOSED',
}

/** The call's timeline in the reader's language, oldest first. */
export function presentTimeline(
  row: CallRow,
  facts: Awaited<ReturnType<typeof timelineFacts>>,
  lang: Lang,
  dispatch: readonly {
    kind: string
    detail: Record<string, unknown>
    time: Date
    name: string | null
  }[] = [],
) {
  const steps: Step[] = [
    {
      at: row.create_time,
      kind: 'recorded',
      text: translate(row.source === 'open_api' ? 'CALL_STEP_RECEIVED' : 'CALL_STEP_RECORDED', lang, {
        who: row.recorder ?? '',
      }),
    },
  ]
  const m = facts.message
  if (m) {
    // Written in the transaction that recorded the call: the same moment.
    steps.push({ at: row.create_time, kind: 'message', text: translate('CALL_STEP_MESSAGE', lang) })
    if (m.is_confirm && m.confirm_time)
      steps.push({
        at: m.confirm_time,
        kind: 'confirmed',
        text: translate('CALL_STEP_CONFIRMED', lang, { who: m.confirmed_name ?? '' }),
      })
  }
  for (const e of facts.escalations)
    steps.push({
      at: e.create_time,
      kind: 'escalated',
      text: translate('CALL_STEP_ESCALATED', lang, {
        level: e.level,
        agency: e.agency_name,
        n: e.recipients,
      }),
    })
  for (const s of facts.sms)
    steps.push({
      at: s.sent_at ?? s.create_time,
      kind: 'sms',
      text: translate(s.status === 'sent' ? 'CALL_STEP_SMS_SENT' : 'CALL_STEP_SMS_QUEUED', lang, {
        phone: maskPhone(s.phone) ?? s.phone,
      }),
    })
  for (const d of dispatch) {
    const key = DISPATCH_STEP_TEXT[d.kind]
    if (!key) continue
    steps.push({
      at: d.time,
      kind: `dispatch_${d.kind}`,
      text: translate(key, lang, {
        name: d.name ?? '',
        role: translate(d.detail.role === 'aed' ? 'DISPATCH_ROLE_AED' : 'DISPATCH_ROLE_PATIENT', lang),
        radius: typeof d.detail.radius === 'number' ? d.detail.radius : '',
        cabinet: typeof d.detail.cabinet_sn === 'string' ? d.detail.cabinet_sn : '',
        from: typeof d.detail.from === 'string' ? d.detail.from : '',
        to: typeof d.detail.to === 'string' ? d.detail.to : '-',
        accepted: typeof d.detail.accepted === 'number' ? d.detail.accepted : '',
      }),
    })
  }
  if (row.rescue_time && row.rescue_device_sn)
    steps.push({
      at: row.rescue_time,
      kind: 'rescue',
      text: translate('CALL_STEP_RESCUE', lang, {
        sn: row.rescue_device_sn,
        distance: row.rescue_distance ?? '',
      }),
    })
  if (row.closed_at)
    steps.push({
      at: row.closed_at,
      kind: 'closed',
      text: translate(
        `CALL_STEP_CLOSED_${(row.close_reason ?? 'member').toUpperCase()}` as 'CALL_STEP_CLOSED_MEMBER',
        lang,
        {
          outcome: row.outcome
            ? translate(`CALL_OUTCOME_${row.outcome.toUpperCase()}` as 'CALL_OUTCOME_AED_USED', lang)
            : '-',
        },
      ),
    })
  return steps
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((s) => ({ time: formatDateTime(s.at), kind: s.kind, text: s.text }))
}
