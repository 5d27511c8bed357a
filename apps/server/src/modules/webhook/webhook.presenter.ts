import type { OpenDoorAlarm, OpenRescue, WebhookEvent, WebhookPayload } from '@aed/contracts/open-api'
import type { WebhookDelivery } from '@aed/contracts/service-config'
import type { DeliveryRow, DoorAlarmRow, RescueRow } from './webhook.repository.ts'

/** The Standard Webhooks id of a delivery: the same on every attempt and resend. */
export const messageId = (deliveryId: number) => `msg_${deliveryId}`

/** A delivery's body (Standard Webhooks): its type, when the event happened, and the object. */
export function webhookBody(type: WebhookEvent, time: Date, data: Record<string, unknown>): WebhookPayload {
  return { type, timestamp: time.toISOString(), data }
}

/** A rescue as integrators see it (openRescueSchema; GCJ-02, the open API's default). */
export function openRescueObject(r: RescueRow): OpenRescue {
  return {
    id: r.id,
    sn: r.sn,
    agency_id: r.agency_id,
    start_time: r.event_time.toISOString(),
    end_time: r.ended_at?.toISOString() ?? null,
    lat: r.lat,
    lon: r.lon,
    coord: 'gcj02',
    address: r.address,
    cabinet_sn: r.cabinet_sn,
  }
}

/** A cabinet door alarm as integrators see it (openDoorAlarmSchema). */
export function openDoorAlarmObject(d: DoorAlarmRow): OpenDoorAlarm {
  return {
    id: d.id,
    cabinet_sn: d.cabinet_sn,
    sn: d.sn,
    agency_id: d.agency_id,
    open_time: d.opened_at.toISOString(),
    close_time: d.closed_at?.toISOString() ?? null,
    lat: d.lat,
    lon: d.lon,
    coord: 'gcj02',
  }
}

/** A delivery as the console's delivery log lists it. */
export function presentDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    message_id: messageId(d.id),
    event: d.event,
    event_time: d.event_time.toISOString(),
    state: d.state,
    attempts: d.attempts,
    last_attempt_time: d.last_attempt_at?.toISOString() ?? null,
    last_status: d.last_status,
    last_error: d.last_error,
    last_duration_ms: d.last_duration_ms,
    next_attempt_time: d.state === 'pending' ? d.next_at.toISOString() : null,
    delivered_time: d.delivered_at?.toISOString() ?? null,
    payload: d.payload,
  }
}
