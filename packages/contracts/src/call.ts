import { z } from 'zod'
import { dispatchSchema } from './dispatch.ts'
import { get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import { agencyFields, emptyAsUnset, optionalInt, regionFilter } from './fields.ts'
import { DISPATCH_STATES } from './responder.ts'

// 呼救事件 (emergency calls): a cardiac arrest reported by phone to a dispatcher (the console's
// 登记呼救 form) or by an integrator (the 120 centre, a mini-program's SOS button, open API).

/** Where a call may be: China's bounding box (GCJ-02 or WGS-84 alike at this precision). */
export const CHINA_BOUNDS = { latMin: 3.8, latMax: 53.6, lonMin: 73.4, lonMax: 135.1 } as const

/** A caller's phone: a mainland mobile, or a landline with its area code (0571-88888888). */
export const CALLER_PHONE = /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8})$/

/** A call time may run ahead of the server's clock by this much (a caller's clock), no more. */
export const CALL_TIME_SKEW_MS = 2 * 60_000

/** 1 open, 0 closed. */
export const CallStatus = { CLOSED: 0, OPEN: 1 } as const

/** How a call ended: an AED was used, none was needed, or the call was cancelled (a false alarm). */
export const CALL_OUTCOMES = ['aed_used', 'no_aed_needed', 'cancelled'] as const
export type CallOutcome = (typeof CALL_OUTCOMES)[number]

/** Who closed it: the integrator that sent it, a member, or the clock (the open time ran out). */
export const CALL_CLOSERS = ['integrator', 'member', 'timeout'] as const

/** Where it came from. */
export const CALL_SOURCES = ['console', 'open_api'] as const

/** The call-time presets of the page (spec 5): 10 minutes, 1 day, 7 days, 30 days; 5 is custom. */
export const CALL_TIME_PRESETS = {
  1: 10 * 60_000,
  2: 86_400_000,
  3: 7 * 86_400_000,
  4: 30 * 86_400_000,
} as const

/** A latitude and longitude inside China's box: `required` when missing, `outside` beyond it. */
export function chinaPoint(required: string, outside: string) {
  return {
    lat: z.number({ message: required }).min(CHINA_BOUNDS.latMin, outside).max(CHINA_BOUNDS.latMax, outside),
    lon: z.number({ message: required }).min(CHINA_BOUNDS.lonMin, outside).max(CHINA_BOUNDS.lonMax, outside),
  }
}

const { lat, lon } = chinaPoint('CALL_PLACE_REQUIRED', 'CALL_OUTSIDE_CHINA')

/** The fields of a call, from the console's form and the open API alike. */
export const callFields = {
  phone: z
    .string({ message: 'CALL_PHONE_REQUIRED' })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().min(1, 'CALL_PHONE_REQUIRED').regex(CALLER_PHONE, 'CALL_PHONE_INVALID')),
  lat,
  lon,
  /** The place as words (address text). */
  location: z
    .string({ message: 'CALL_LOCATION_REQUIRED' })
    .trim()
    .min(1, 'CALL_LOCATION_REQUIRED')
    .max(200, 'TEXT_TOO_LONG'),
  /** When the call was taken (ISO 8601 with offset); now when absent. Not in the future. */
  call_time: z.preprocess(
    emptyAsUnset,
    z.iso.datetime({ offset: true, message: 'CALL_TIME_INVALID' }).optional(),
  ),
  description: z.preprocess(
    (v) => (v === '' ? null : v),
    z.string().trim().max(500, 'TEXT_TOO_LONG').nullable().optional(),
  ),
}

/** The console's 登记呼救 form (coordinates GCJ-02, from the map picker). */
export const callForm = z.object(callFields)
export type CallForm = z.output<typeof callForm>

/** Closing a call: its outcome, and a remark. */
export const callCloseForm = z.object({
  outcome: z.enum(CALL_OUTCOMES, { message: 'CALL_OUTCOME_REQUIRED' }),
  remark: z.preprocess(
    (v) => (v === '' ? null : v),
    z.string().trim().max(200, 'TEXT_TOO_LONG').nullable().optional(),
  ),
})
export type CallCloseForm = z.output<typeof callCloseForm>

/** The rescue a call was linked to: a device near it that started within 30 minutes after it. */
export const callRescueSchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  device_sn: z.string(),
  /** The device's own id of the rescue (opens the device detail scoped to it). */
  rescue_event_id: z.string(),
  event_time: z.string(),
  /** Where the rescue started (GCJ-02; the installation's place when the device sent none). */
  event_lat: z.number().nullable(),
  event_lon: z.number().nullable(),
  /** Metres from the call's place. */
  distance: z.number().int().nullable(),
})

/** A call as listed and fetched. */
export const callSchema = z.object({
  id: z.number().int(),
  location: z.string(),
  /** The region's names (province city district), from the place. */
  region: z.string().nullable(),
  address_code: z.string().nullable(),
  /** Masked (3+****+4) in lists, whole in the detail. */
  phone: z.string(),
  /** 'YYYY-MM-DD HH:mm:ss' (the organisations' time zone). */
  call_time: z.string(),
  lat: z.number(),
  lon: z.number(),
  description: z.string().nullable(),
  /** 1 open, 0 closed. */
  status: z.number().int(),
  outcome: z.enum(CALL_OUTCOMES).nullable(),
  closed_at: z.string().nullable(),
  close_reason: z.enum(CALL_CLOSERS).nullable(),
  remark: z.string().nullable(),
  source: z.enum(CALL_SOURCES),
  /** Who recorded it: the member's name, or the integrator's organisation. */
  recorder: z.string().nullable(),
  ...agencyFields,
  rescue: callRescueSchema.nullable(),
  /** What the signed-in member may do (computed on the server): close it. */
  can: z.object({ close: z.boolean() }),
})
export type Call = z.infer<typeof callSchema>

/** A ready-looking AED near a call (marker 9): normal status, with its distance. */
export const callNearbyDeviceSchema = z.object({
  id: z.number().int(),
  device_sn: z.string(),
  location: z.string().nullable(),
  lon: z.number(),
  lat: z.number(),
  distance: z.number().int(),
  readiness: z.string(),
})

/** A responder near a call (marker 5), with distance and whether an alert may reach them. */
export const callNearbyResponderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  lon: z.number(),
  lat: z.number(),
  distance: z.number().int(),
  aid_aptitude: z.number().int(),
  dispatch_state: z.enum(DISPATCH_STATES),
})

/** One line of a call's timeline: recorded, messages, SMS, linked rescue, closed (and dispatch later). */
export const callStepSchema = z.object({
  time: z.string(),
  kind: z.string(),
  /** In the reader's language. */
  text: z.string(),
})

/** The detail: the call, what is around it, and its timeline. */
export const callDetailSchema = callSchema.extend({
  /** Normal devices within `radius` metres, nearest first. */
  devices: z.array(callNearbyDeviceSchema),
  responders: z.array(callNearbyResponderSchema),
  /** The radius the lists use (system settings). */
  radius: z.number().int(),
  timeline: z.array(callStepSchema),
  /** Its dispatch: the alerts, who accepted and arrived, the AEDs chosen from (null before it started). */
  dispatch: dispatchSchema.nullable(),
})
export type CallDetail = z.infer<typeof callDetailSchema>

/** A moment filter of the page: ISO 8601 with offset. */
const moment = z.preprocess(
  emptyAsUnset,
  z.iso.datetime({ offset: true, message: 'DATE_INVALID' }).optional(),
)

export const callListQuery = pageQuery
  .extend({
    phone: z.string().trim().max(20, 'FILTER_TOO_LONG').optional(),
    status: optionalInt(0, 1),
    outcome: z.preprocess(emptyAsUnset, z.enum(CALL_OUTCOMES).optional()),
    address_code: regionFilter,
    start_time: moment,
    end_time: moment,
  })
  .refine((q) => !q.start_time || !q.end_time || Date.parse(q.start_time) <= Date.parse(q.end_time), {
    message: 'DATE_ORDER',
  })
export type CallListQuery = z.output<typeof callListQuery>

/** One call on the dashboard's call layer (marker 6). */
export const callPointSchema = z.object({
  id: z.number().int(),
  lon: z.number(),
  lat: z.number(),
  location: z.string(),
  call_time: z.string(),
  status: z.number().int(),
})

/** The calls the layer shows: open ones, and those of the last 24 hours. */
export const CALL_LAYER_HOURS = 24
export const CALL_LAYER_MAX = 500

/** What the intake answers: the call's id, and whether this request created it (false: a repeat). */
export const callIntakeAnswer = z.object({ id: z.number().int(), created: z.boolean() })

/** Every member call of the emergency page's call tab and of the dashboard's call layer. */
export const callApi = {
  list: get('/api/v1/aid-event/call-event/', {
    summary:
      'Calls of the scope, newest first (filters phone, status, outcome, address_code, start_time, end_time)',
    query: callListQuery,
    /** `can.create`: the 登记呼救 form (device EDIT). */
    response: paged(callSchema).extend({ can: z.object({ create: z.boolean() }) }),
  }),
  create: post('/api/v1/aid-event/call-event/', {
    summary: 'Record a call taken by phone (登记呼救): GCJ-02 place, time (now by default), description',
    body: callForm,
    response: callIntakeAnswer,
  }),
  detail: get('/api/v1/aid-event/call-event/:id', {
    summary: 'One call with the normal devices and the responders near it, and its timeline',
    params: idParams,
    response: callDetailSchema,
  }),
  close: put('/api/v1/aid-event/call-event/:id', {
    summary: 'Close an open call with its outcome',
    params: idParams,
    body: callCloseForm,
    response: callSchema,
  }),
  location: get('/api/v1/analysis-board/call-event/location/', {
    summary: 'Calls of the scope in the region, open or of the last 24 hours, newest first (at most 500)',
    query: z.object({ address_code: regionFilter }),
    response: z.object({ count: z.number().int(), resource: z.array(callPointSchema) }),
  }),
}
