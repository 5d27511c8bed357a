import { LiveType, type liveCabinetData, type liveDeviceEventData } from '@aed/contracts/live'
import type { z } from 'zod'

// The `live` outbox rows of frames other than a device's status (16, 17), written by the engines
// and pushed by the `live` handler (jobs/outbox.ts, modules/live livePushOf). A row names its
// frame, so a status row (no `frame`) is read as before, by the status tests and the webhook
// fan-out alike. Here, below the engines and the live module, as lib/webhook-rows.ts.

/** A `live` row's payload that names its frame. */
export type LiveFramePayload =
  | { frame: typeof LiveType.DEVICE_EVENT; data: z.infer<typeof liveDeviceEventData> }
  | { frame: typeof LiveType.CABINET; data: z.infer<typeof liveCabinetData> }

/**
 * The live row of a device's event opened or closed, as `w.tell` takes it in the engine's effects,
 * from the event its other rows carry (the frame takes its own fields of it).
 */
export function liveRowForEvent(
  e: Omit<z.infer<typeof liveDeviceEventData>, 'opened'>,
  opened: boolean,
): ['live', `live:event:${number}:${'open' | 'close'}`, LiveFramePayload] {
  const data = { event_id: e.event_id, device_id: e.device_id, device_sn: e.device_sn, kind: e.kind, opened }
  return [
    'live',
    `live:event:${e.event_id}:${opened ? 'open' : 'close'}`,
    { frame: LiveType.DEVICE_EVENT, data },
  ]
}

/**
 * The live row of a cabinet's door or connection change, as an outbox row of the cabinet's
 * engine; `key` makes it one row per change (the door event, the message or the sweep).
 */
export function liveRowForCabinet(
  cabinet: { id: number; cabinet_sn: string; agency_id: number; index_link: string },
  change: { door_status?: number | null; online?: boolean },
  key: string,
) {
  return {
    topic: 'live' as const,
    key: `live:cabinet:${cabinet.id}:${key}`,
    agencyId: cabinet.agency_id,
    indexLink: cabinet.index_link,
    payload: {
      frame: LiveType.CABINET,
      data: { cabinet_id: cabinet.id, cabinet_sn: cabinet.cabinet_sn, ...change },
    } satisfies LiveFramePayload,
  }
}
