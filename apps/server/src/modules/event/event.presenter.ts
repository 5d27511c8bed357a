import { can, type Lang } from '@aed/contracts'
import { dictLabel, labelIn } from '@aed/contracts/constants'
import { faultDescription, WARNING_CODES, type WarningCode } from '@aed/contracts/device-protocol'
import {
  type EarlyWarnEvent,
  type EventKind,
  type EventListCan,
  type EventRowOf,
  type FaultEvent,
  formatDuration,
  HANDLED_KINDS,
  type OfflineEvent,
  type OffsetEvent,
} from '@aed/contracts/event'
import type { AuthContext } from '../../plugins/auth.ts'
import type { EventRow } from './event.repository.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** Seconds from start to end of a closed event. */
export const durationOf = (r: Pick<EventRow, 'event_time' | 'closed_at'>) =>
  r.closed_at ? Math.max(0, Math.round((r.closed_at.getTime() - r.event_time.getTime()) / 1000)) : null

/** The warning code's label, or the code itself when the dictionary lacks it. */
export const warningLabel = (code: string, lang: Lang) =>
  code in WARNING_CODES ? labelIn(WARNING_CODES[code as WarningCode], lang) : code

/** The installation's address with its detail. */
export const installationOf = (r: Pick<EventRow, 'location' | 'location_desc'>) =>
  [r.location, r.location_desc].filter(Boolean).join(' ') || null

function base(r: EventRow, lang: Lang) {
  const duration = durationOf(r)
  return {
    id: r.id,
    device_id: r.device_id,
    device_sn: r.device_sn,
    model: r.model,
    location: installationOf(r),
    manager: r.manager_name,
    agency_name: r.agency_name,
    closed_at: iso(r.closed_at),
    duration,
    duration_text: duration === null ? null : formatDuration(duration, lang),
  }
}

/** Export an event page, handle a fault or an offset: device EDIT (read-only members do neither, spec section 6). */
export const mayEditEvents = (auth: AuthContext) => can(auth, 'device', 'EDIT')

/** What the signed-in member may do on the page of one kind of event, sent with its list. */
export function eventListCan(kind: EventKind, auth: AuthContext): EventListCan {
  return { export: mayEditEvents(auth), handle: HANDLED_KINDS.includes(kind) && mayEditEvents(auth) }
}

/** Handling of a fault or offset: who, when, the note, and whether this caller may handle it. */
function handling(r: EventRow, auth: AuthContext) {
  return {
    handler_name: r.handler_name,
    handle_note: r.handle_note,
    handle_time: iso(r.handle_time),
    can: { handle: HANDLED_KINDS.includes(r.kind) && mayEditEvents(auth) },
  }
}

function earlyWarn(r: EventRow, lang: Lang): EarlyWarnEvent {
  return {
    ...base(r, lang),
    event_code: r.code,
    event_type: warningLabel(r.code, lang),
    content: r.content,
    event_time: r.event_time.toISOString(),
    invalid_time: iso(r.closed_at),
  }
}

function fault(r: EventRow, auth: AuthContext, lang: Lang): FaultEvent {
  const desc = faultDescription(r.code, lang)
  return {
    ...base(r, lang),
    ...handling(r, auth),
    report_type: r.report_type,
    report_type_text: r.report_type === null ? null : dictLabel('report_type', r.report_type, lang),
    fault_code: r.code,
    fault_desc: desc,
    fault: `${r.code} ${desc}`,
    check_time: r.event_time.toISOString(),
  }
}

function offset(r: EventRow, auth: AuthContext, lang: Lang): OffsetEvent {
  return {
    ...base(r, lang),
    ...handling(r, auth),
    install_location: r.install_location,
    offset_location: r.offset_location,
    offset_lat: r.offset_lat,
    offset_lon: r.offset_lon,
    offset_distance: r.offset_distance,
    event_time: r.event_time.toISOString(),
    seen_by: r.seen_by,
    seen_time: iso(r.seen_time),
  }
}

function offline(r: EventRow, lang: Lang): OfflineEvent {
  return { ...base(r, lang), offline_time: r.event_time.toISOString() }
}

/** An event row of its page, in the caller's language, with what the caller may do with it. */
export function presentEvent<K extends EventKind>(
  kind: K,
  r: EventRow,
  auth: AuthContext,
  lang: Lang,
): EventRowOf[K] {
  const shown: { [P in EventKind]: () => EventRowOf[P] } = {
    warning: () => earlyWarn(r, lang),
    fault: () => fault(r, auth, lang),
    offset: () => offset(r, auth, lang),
    offline: () => offline(r, lang),
  }
  return shown[kind]()
}
