import { z } from 'zod'
import { deviceStateFields } from './device.ts'
import { deviceStatsQuery } from './device-stats.ts'
import { get, idParams } from './endpoint.ts'
import { messageSchema } from './message.ts'

/** Device statuses the map draws (0 normal, 1 warning, 2 fault, 3 offset, 4 offline). */
export const MAP_DEVICE_STATUSES = [0, 1, 2, 3, 4] as const

/**
 * Worst first: the engine's one status priority (fault, offset, offline, warning, normal). A
 * cluster takes the colour of the worst status inside it.
 */
export const STATUS_PRIORITY: readonly number[] = [2, 3, 4, 1, 0]

/** How long a rescue stays on the rescue layer after it ended (one in progress always does). */
export const RESCUE_LAYER_HOURS = 24
/** Most rescues the rescue layer answers, newest first. */
export const RESCUE_LAYER_MAX = 500

/** A JSON array of statuses 0-4 ('[0,2]'), or a comma list ('0,2'); absent: every status. */
const statusList = z.preprocess((v) => {
  if (v === undefined || v === '') return undefined
  if (Array.isArray(v)) return v.map(Number)
  if (typeof v !== 'string') return v
  const text = v.trim()
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text)
    } catch {
      return v
    }
  }
  return text.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)))
}, z.array(z.number().int().min(0).max(4)).max(5).optional())

export const deviceLocationQuery = deviceStatsQuery.extend({
  /** Statuses to answer; absent: all five; [] answers none (every layer unticked). */
  status_list: statusList,
})
export type DeviceLocationQuery = z.output<typeof deviceLocationQuery>

/**
 * One device on the map, compact: [device id, longitude, latitude], GCJ-02 rounded to 5 decimals
 * (about a metre). 100,000 of them are about 2.6 MB of JSON, under 1 MB gzipped.
 */
export const devicePointSchema = z.tuple([z.number().int(), z.number(), z.number()])
export type DevicePoint = z.infer<typeof devicePointSchema>

const points = z.array(devicePointSchema)

/**
 * The spec's device locations grouped by status key ("0" to "4", the shown status: a site hiding
 * abnormal states is normal). A status not asked for answers an empty list. Devices without
 * coordinates are left out (counted in `unplaced`).
 */
export const deviceLocationSchema = z.object({
  '0': points,
  '1': points,
  '2': points,
  '3': points,
  '4': points,
  /** Registered devices of the asked statuses with no coordinates (not drawn). */
  unplaced: z.number().int(),
})
export type DeviceLocations = z.infer<typeof deviceLocationSchema>

/** A point's popup: who it is, where, and how ready. */
export const devicePopupSchema = z.object({
  id: z.number().int(),
  device_sn: z.string(),
  device_model: z.string().nullable(),
  agency_name: z.string(),
  /** The site's address (location and detail). */
  location: z.string().nullable(),
  ...deviceStateFields,
  /** Why it is not ready, in the reader's language. */
  reasons: z.array(z.string()),
  last_report_time: z.string().nullable(),
  lon: z.number().nullable(),
  lat: z.number().nullable(),
})
export type DevicePopup = z.infer<typeof devicePopupSchema>

export const eventLocationQuery = deviceStatsQuery
export type EventLocationQuery = z.output<typeof eventLocationQuery>

/** One rescue on the rescue layer: in progress, or ended within RESCUE_LAYER_HOURS. */
export const rescueLocationSchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  device_sn: z.string(),
  location: z.string().nullable(),
  lon: z.number(),
  lat: z.number(),
  event_time: z.string(),
  end_time: z.string().nullable(),
  /** 1 in progress, 0 ended. */
  in_progress: z.number().int(),
})
export type RescueLocation = z.infer<typeof rescueLocationSchema>

/** A marker layer's answer: a list in `resource` (the spec's responder layer reads it so too). */
export const rescueLocationsSchema = z.object({
  /** Rescues matching; `resource` holds the newest RESCUE_LAYER_MAX of them. */
  count: z.number().int(),
  resource: z.array(rescueLocationSchema),
})

/** event_type of a message's details link: 1 call, 2 rescue, 3 offset, 4 cabinet door. */
export const FocusEventType = { CALL: 1, RESCUE: 2, OFFSET: 3, CABINET_DOOR: 4 } as const

export const eventFocusQuery = z.object({
  event_type: z.coerce.number().int().min(1).max(4),
  event_id: z.coerce.number().int().positive(),
})
export type EventFocusQuery = z.output<typeof eventFocusQuery>

/** What the dashboard highlights when it arrives from a message: the event, where, and its message. */
export const eventFocusSchema = z.object({
  event_type: z.number().int(),
  event_id: z.number().int(),
  /** The event's title in the reader's language (as the message titles it). */
  title: z.string(),
  event_time: z.string(),
  end_time: z.string().nullable(),
  device_id: z.number().int().nullable(),
  device_sn: z.string().nullable(),
  cabinet_sn: z.string().nullable(),
  agency_name: z.string(),
  location: z.string().nullable(),
  /** Where to pan and draw the highlight (GCJ-02); null when the event has no place. */
  lon: z.number().nullable(),
  lat: z.number().nullable(),
  /** The message that told of it, when there is one. */
  message: messageSchema.nullable(),
})
export type EventFocus = z.infer<typeof eventFocusSchema>

/** The dashboard's map calls (its statistics are deviceStatsApi). */
export const dashboardApi = {
  deviceLocation: get('/api/v1/analysis-board/device/location/', {
    summary:
      'Registered devices of the scope in the region as [id, lon, lat] grouped by shown status "0"-"4" (status_list: a JSON array of statuses)',
    query: deviceLocationQuery,
    response: deviceLocationSchema,
  }),
  devicePopup: get('/api/v1/analysis-board/device/:id/', {
    summary: 'One registered device of the scope as the map’s popup shows it',
    params: idParams,
    response: devicePopupSchema,
  }),
  rescueLocation: get('/api/v1/analysis-board/rescue-event/location/', {
    summary:
      'Rescues of the scope in the region in progress or ended in the last 24 hours, newest first (at most 500)',
    query: eventLocationQuery,
    response: rescueLocationsSchema,
  }),
  eventFocus: get('/api/v1/analysis-board/event-focus/', {
    summary:
      'The event a message’s details link opens on the dashboard (event_type 2 rescue, 3 offset, 4 cabinet door): place, title and message',
    query: eventFocusQuery,
    response: eventFocusSchema,
  }),
}
