import { type Lang, type MessageKey, translate } from '@aed/contracts'
import {
  type DevicePopup,
  type EventFocus,
  FocusEventType,
  type RescueLocation,
} from '@aed/contracts/dashboard'
import type { Device } from '@aed/contracts/device'
import type { MessageRow } from '@aed/contracts/message'
import { pick } from '../../lib/pick.ts'
import { formatDateTime } from '../../lib/time.ts'
import { distanceText } from '../message/message.presenter.ts'
import { type FocusRow, isPlaced, type RescueRow } from './dashboard.repository.ts'

/** Where the map draws a thing: its point, or none for a point that is not a real place. */
function shownPlace(p: { lat: number | null; lon: number | null }) {
  return isPlaced(p.lat, p.lon) ? { lon: p.lon, lat: p.lat } : { lon: null, lat: null }
}

/** A point's popup, from the device as its detail shows it (status and readiness labelled). */
export function presentPopup(d: Device): DevicePopup {
  return {
    id: d.id,
    device_sn: d.device_sn,
    device_model: d.model || null,
    agency_name: d.agency_name,
    location: [d.location, d.location_desc].filter(Boolean).join(' ') || null,
    status: d.status,
    status_text: d.status_text,
    readiness: d.readiness,
    readiness_text: d.readiness_text,
    reasons: d.readiness_reasons_text,
    last_report_time: d.last_report_time,
    ...shownPlace(d),
  }
}

/** A rescue on the rescue layer; times as the spec shows them. */
export function presentRescue(r: RescueRow): RescueLocation {
  return {
    ...pick(r, ['id', 'device_id', 'device_sn', 'location', 'lon', 'lat']),
    event_time: formatDateTime(r.event_time),
    end_time: r.ended_at ? formatDateTime(r.ended_at) : null,
    in_progress: r.ended_at ? 0 : 1,
  }
}

const TITLES: Record<number, MessageKey> = {
  [FocusEventType.CALL]: 'MSG_TITLE_CALL',
  [FocusEventType.RESCUE]: 'MSG_TITLE_RESCUE',
  [FocusEventType.OFFSET]: 'MSG_TITLE_OFFSET',
  [FocusEventType.CABINET_DOOR]: 'MSG_TITLE_CABINET_DOOR',
}

/** The event the dashboard highlights, titled as its message is, with that message. */
export function presentFocus(type: number, r: FocusRow, message: MessageRow | null, lang: Lang): EventFocus {
  return {
    event_type: type,
    event_id: r.id,
    title: translate(TITLES[type], lang, {
      device_sn: r.device_sn ?? '',
      cabinet_sn: r.cabinet_sn ?? '',
      location: r.location ?? '',
      distance: r.offset_distance === null ? '' : distanceText(r.offset_distance, lang),
    }),
    event_time: formatDateTime(r.event_time),
    end_time: r.end_time ? formatDateTime(r.end_time) : null,
    device_id: r.device_id,
    device_sn: r.device_sn,
    cabinet_sn: r.cabinet_sn,
    agency_name: r.agency_name,
    location: r.location,
    ...shownPlace(r),
    message,
  }
}
