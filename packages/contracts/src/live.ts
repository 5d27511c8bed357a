import { z } from 'zod'
import { READINESS } from './device-protocol.ts'

/** The live channel's WebSocket path. */
export const LIVE_PATH = '/api/v1/system/data/'
/** Without a valid first message this long after opening, the server closes the socket. */
export const LIVE_AUTH_TIMEOUT_MS = 5000
/** How far back a reconnecting console's `after` is answered. */
export const LIVE_REPLAY_MS = 24 * 3600_000
/** Polling interval of the unconfirmed count while the socket is down (spec section 9). */
export const LIVE_FALLBACK_POLL_MS = 2000

/**
 * data_type of a push. 2 and 4 are the spec's live alarms; the others are ours (listed in the
 * OpenAPI description): 11 a device's status or readiness changed, 12 the unconfirmed count of
 * the console's scope, 13 a message was created, confirmed or escalated, 14 a call's dispatch
 * moved, 15 a rescue was linked to a call, 16 a device's event opened or closed, 17 a cabinet's door
 * or connection changed.
 */
export const LiveType = {
  AID_ALARM: 2,
  CABINET_DOOR: 4,
  DEVICE_STATUS: 11,
  UNCONFIRMED: 12,
  MESSAGE: 13,
  /** A call's dispatch moved (an alert, an answer, an arrival, a position): refetch the call. */
  DISPATCH: 14,
  /** A rescue was linked to a call (the link job, every 10 s): refetch the calls and the rescues. */
  CALL_RESCUE: 15,
  /** A device's event (warning, fault, offset, offline) opened or closed: the event pages and the device's detail refetch. */
  DEVICE_EVENT: 16,
  /** A cabinet's door opened or closed, or it went offline or came back: the cabinet list refetches. */
  CABINET: 17,
} as const

/**
 * Close codes the console acts on: 4001 no hello in time, 4003 token refused (stop), 4009 the
 * session was ended while the socket was open (stop, say why and sign in again): its reason is
 * one of LiveEndReason.
 */
export const LiveClose = { AUTH_TIMEOUT: 4001, AUTH_FAILED: 4003, REPLACED: 4009 } as const

/** Why the server ended an open session (the reason of a 4009 close). */
export const LIVE_END_REASONS = ['password_changed', 'agency_disabled'] as const
export type LiveEndReason = (typeof LIVE_END_REASONS)[number]

/** The console's first message: its token, and the last push id it saw when reconnecting. */
export const liveHello = z.object({
  token: z.string().min(1),
  after: z.number().int().min(0).optional(),
  lang: z.enum(['zh-CN', 'en-US']).optional(),
})
export type LiveHello = z.infer<typeof liveHello>

/** A first-aid alarm (2) or cabinet door alarm (4) as the popup shows it. */
export const liveAlarmData = z.object({
  data_time: z.string(),
  location: z.string().nullable(),
  cabinet_sn: z.string().nullable(),
  device_sn: z.string().nullable(),
  agency_name: z.string(),
  /** The message of the alarm (confirm, details) and the dashboard's event. */
  msg_id: z.number().int().nullable(),
  event_type: z.number().int(),
  event_id: z.number().int(),
  /** 0 the first push; n the n-th escalation of an unconfirmed alarm. */
  escalation_level: z.number().int(),
})
export type LiveAlarmData = z.infer<typeof liveAlarmData>

/** A device's status or readiness changed (the device list and dashboard recolour it). */
export const liveDeviceStatusData = z.object({
  device_id: z.number().int(),
  device_sn: z.string(),
  /** The engine's status (0-4). */
  status: z.number().int(),
  /** The status lists and the map show: 0 when the site hides abnormal states; absent in older pushes. */
  shown_status: z.number().int().optional(),
  readiness: z.enum(READINESS),
  reasons: z.array(z.string()),
  /** The site's place (GCJ-02), so a map can draw a device it had not loaded; absent in older pushes. */
  lon: z.number().nullable().optional(),
  lat: z.number().nullable().optional(),
})

/** A device's event opened (closed_at null) or closed: the same kinds as the event pages. */
export const liveDeviceEventData = z.object({
  event_id: z.number().int(),
  device_id: z.number().int(),
  device_sn: z.string(),
  kind: z.enum(['warning', 'fault', 'offset', 'offline']),
  opened: z.boolean(),
})

/** A cabinet's door (1 open, 0 closed) or connection changed. */
export const liveCabinetData = z.object({
  cabinet_id: z.number().int(),
  cabinet_sn: z.string(),
  door_status: z.number().int().nullable().optional(),
  online: z.boolean().optional(),
})

/** Every frame the server sends: the push id increases (a count frame repeats the last id). */
export type LiveFrame =
  | { id: number; data_type: 2 | 4; data: LiveAlarmData }
  | { id: number; data_type: 11; data: z.infer<typeof liveDeviceStatusData> }
  | { id: number; data_type: 12; data: { amount: number } }
  | { id: number; data_type: 13; data: import('./message.ts').MessageRow }
  | { id: number; data_type: 14; data: { call_id: number | null; dispatch_id: number; kind: string } }
  | { id: number; data_type: 15; data: { call_id: number; rescue_id: number } }
  | { id: number; data_type: 16; data: z.infer<typeof liveDeviceEventData> }
  | { id: number; data_type: 17; data: z.infer<typeof liveCabinetData> }
