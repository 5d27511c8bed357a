import type { WebhookEvent } from '@aed/contracts/open-api'

// The `webhook` outbox rows the engines write and the webhook fan-out reads
// (modules/webhook/webhook.fanout.ts): the event's type and its object's id, nothing more; the
// fan-out reads the object itself and presents it as the open API does. Here, below both, because
// the webhook module builds on the engines (it presents AEDs and events through the open API's
// presenter, which reads the engine's): the engines could not import it without a cycle.

/** A webhook outbox row's payload: the event's type and the id of the object it is about. */
export type WebhookOutboxPayload =
  | {
      event: 'device.event.opened' | 'device.event.closed'
      event_id: number
      device_id: number
      device_sn: string
      kind: string
      code: string
    }
  | {
      event: 'device.rescue.started' | 'device.rescue.ended'
      rescue_id: number
      device_id: number
      device_sn: string
    }
  | { event: 'cabinet.door.alarm'; door_event_id: number; cabinet_id: number }
  | { event: 'call.created' | 'call.closed'; call_id: number }
  | { event: 'call.dispatch'; step_id: number }
  | {
      event: 'review.volunteer.decided' | 'review.aed.decided'
      review_id: number
      /** Only the configuration that sent the submission hears its outcome. */
      config_id: number
    }

/** The outbox key of a webhook row (its dedupe key, and the deliveries' event_key). */
export type WebhookOutboxKey = `webhook:${string}`

/**
 * The webhook row of a rescue that ended, as `w.tell` takes it in the engine's effects
 * (`w.tell(...webhookRowForRescueEnd(rescueId, w.facts))`).
 */
export function webhookRowForRescueEnd(
  rescueId: number,
  device: { id: number; device_sn: string },
): ['webhook', WebhookOutboxKey, WebhookOutboxPayload] {
  return [
    'webhook',
    `webhook:rescue:${rescueId}:end`,
    { event: 'device.rescue.ended', rescue_id: rescueId, device_id: device.id, device_sn: device.device_sn },
  ]
}

/**
 * The webhook row of a cabinet door alarm (its door opened), as an outbox row of the cabinet's
 * engine (`w.outbox.push(webhookRowForDoorAlarm(id, cab))`).
 */
export function webhookRowForDoorAlarm(
  doorEventId: number,
  cabinet: { id: number; agency_id: number; index_link: string },
): {
  topic: 'webhook'
  key: WebhookOutboxKey
  agencyId: number
  indexLink: string
  payload: WebhookOutboxPayload
} {
  return {
    topic: 'webhook',
    key: `webhook:door:${doorEventId}`,
    agencyId: cabinet.agency_id,
    indexLink: cabinet.index_link,
    payload: { event: 'cabinet.door.alarm', door_event_id: doorEventId, cabinet_id: cabinet.id },
  }
}

/** Whether an event type is one the engines write (the others: device.status.changed from `live`, webhook.test). */
export const ENGINE_WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  'device.event.opened',
  'device.event.closed',
  'device.rescue.started',
  'device.rescue.ended',
  'cabinet.door.alarm',
  'call.created',
  'call.closed',
  'call.dispatch',
  'review.volunteer.decided',
  'review.aed.decided',
]
