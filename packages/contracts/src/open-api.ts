import { z } from 'zod'
import { CALL_OUTCOMES, callCloseForm, callFields, callIntakeAnswer } from './call.ts'
import { READINESS } from './device-protocol.ts'
import { endpoint } from './endpoint.ts'
import { paged } from './envelope.ts'
import { filePart, uploadResultSchema } from './files.ts'
import { submissionAnswer, thirdPartyAedSubmission, volunteerSubmission } from './review.ts'

// The open API for integrators (docs/open-api.md): signed requests under /open-api/v1, scoped to
// the subtree of the service configuration's organisation. Later features add their endpoints
// to `openApi` under the same prefix.

/** The four request headers of a signed call (lowercase, as Node reads them). */
export const OPEN_API_HEADERS = {
  key: 'x-aed-key',
  timestamp: 'x-aed-timestamp',
  nonce: 'x-aed-nonce',
  signature: 'x-aed-signature',
  /** Optional: the hex SHA-256 of the body as it was signed; a body changed on the way is told apart from a wrong signature. */
  contentSha256: 'x-aed-content-sha256',
} as const

/** |X-AED-Timestamp − server time| beyond this many seconds is refused. */
export const OPEN_API_TS_WINDOW_S = 300
/** X-AED-Nonce: 16-64 letters and digits, accepted once per key. */
export const OPEN_API_NONCE = /^[A-Za-z0-9]{16,64}$/

/**
 * RFC 3986 percent-encoding: letters, digits and `-_.~` stay, every other UTF-8 byte becomes
 * `%XX` (upper case); a space is `%20`.
 */
export function percentEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * The query as the signature reads it: each `k=v` pair decoded (a `+` is a space, as the server
 * parses it), percent-encoded again, sorted by key then value, joined by `&`. Empty for none.
 */
export function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return ''
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, '%20'))
    } catch {
      return s
    }
  }
  const pairs = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const i = p.indexOf('=')
      const k = i < 0 ? p : p.slice(0, i)
      const v = i < 0 ? '' : p.slice(i + 1)
      return [percentEncode(decode(k)), percentEncode(decode(v))] as const
    })
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
  return pairs.map(([k, v]) => `${k}=${v}`).join('&')
}

/**
 * The canonical string an integrator signs:
 * `METHOD\nPATH\nSORTED_QUERY\nTIMESTAMP\nNONCE\nhex(SHA-256(body))`. PATH is the URL's path as
 * sent (without the query); `bodySha256` the lowercase hex hash of the raw body (of '' for none).
 */
export function openApiStringToSign(r: {
  method: string
  path: string
  query: string
  timestamp: string
  nonce: string
  bodySha256: string
}): string {
  return [r.method.toUpperCase(), r.path, canonicalQuery(r.query), r.timestamp, r.nonce, r.bodySha256].join(
    '\n',
  )
}

/**
 * Why a call was refused (`data.error` of the envelope), with its HTTP status and message key.
 * Each failure has its own, so an integrator's log says what to fix.
 */
export const OPEN_API_ERRORS = {
  key_missing: { status: 401, message: 'OPEN_API_KEY_MISSING' },
  key_unknown: { status: 401, message: 'OPEN_API_KEY_UNKNOWN' },
  key_disabled: { status: 401, message: 'OPEN_API_KEY_DISABLED' },
  timestamp_invalid: { status: 401, message: 'OPEN_API_TIMESTAMP_INVALID' },
  timestamp_expired: { status: 401, message: 'OPEN_API_TIMESTAMP_EXPIRED' },
  nonce_invalid: { status: 401, message: 'OPEN_API_NONCE_INVALID' },
  nonce_reused: { status: 401, message: 'OPEN_API_NONCE_REUSED' },
  signature_missing: { status: 401, message: 'OPEN_API_SIGNATURE_MISSING' },
  signature_mismatch: { status: 401, message: 'OPEN_API_SIGNATURE_MISMATCH' },
  body_mismatch: { status: 400, message: 'OPEN_API_BODY_MISMATCH' },
  service_denied: { status: 403, message: 'OPEN_API_SERVICE_DENIED' },
  rate_limited: { status: 429, message: 'OPEN_API_RATE_LIMITED' },
} as const
export type OpenApiError = keyof typeof OPEN_API_ERRORS

/** The refusal's `data`: the error, and for a signature mismatch what the server signed (no secret in it). */
export const openApiRefusalSchema = z.object({
  error: z.enum(Object.keys(OPEN_API_ERRORS) as [OpenApiError, ...OpenApiError[]]),
  string_to_sign: z.string().optional(),
  body_sha256: z.string().optional(),
  retry_after: z.number().int().optional(),
})

/** The service an endpoint requires of the caller's configuration. */
export type OpenApiService = 'open_api' | 'mini_program' | 'event_push' | 'device_data_push'

/** Coordinates come in and go out in this system: GCJ-02 (China's maps, the default) or WGS-84 (GPS). */
export const COORDS = ['gcj02', 'wgs84'] as const

export const NEARBY_RADIUS_MAX = 5000
export const NEARBY_RADIUS_DEFAULT = 1000
export const NEARBY_LIMIT_MAX = 50
export const NEARBY_LIMIT_DEFAULT = 10

const coordQuery = z.enum(COORDS, { message: 'OPEN_API_COORD_INVALID' }).default('gcj02')

/** GET /open-api/v1/aed/nearby */
export const nearbyQuery = z.object({
  lat: z.coerce
    .number({ message: 'OPEN_API_LAT_INVALID' })
    .min(-90, 'OPEN_API_LAT_INVALID')
    .max(90, 'OPEN_API_LAT_INVALID'),
  lon: z.coerce
    .number({ message: 'OPEN_API_LON_INVALID' })
    .min(-180, 'OPEN_API_LON_INVALID')
    .max(180, 'OPEN_API_LON_INVALID'),
  /** Metres. */
  radius: z.coerce
    .number({ message: 'OPEN_API_RADIUS_INVALID' })
    .int('OPEN_API_RADIUS_INVALID')
    .min(1, 'OPEN_API_RADIUS_INVALID')
    .max(NEARBY_RADIUS_MAX, 'OPEN_API_RADIUS_TOO_LARGE')
    .default(NEARBY_RADIUS_DEFAULT),
  limit: z.coerce
    .number({ message: 'OPEN_API_LIMIT_INVALID' })
    .int('OPEN_API_LIMIT_INVALID')
    .min(1, 'OPEN_API_LIMIT_INVALID')
    .max(NEARBY_LIMIT_MAX, 'OPEN_API_LIMIT_TOO_LARGE')
    .default(NEARBY_LIMIT_DEFAULT),
  coord: coordQuery,
})
export type NearbyQuery = z.output<typeof nearbyQuery>

/** Opening hours as the register holds them. */
export const openingHoursSchema = z.object({
  /** 0 not open to the public, 1 on the days and hours below, 2 always. */
  open_state: z.number().int(),
  /** 1 Monday ... 7 Sunday. */
  open_day: z.array(z.number().int()),
  /** [start, end] as HH:mm, China time. */
  open_time_period: z.array(z.tuple([z.string(), z.string()])),
})

/** An AED as integrators see it (nearby, detail, status, and the `data` of device.status.changed). */
export const openAedSchema = z.object({
  sn: z.string(),
  model: z.string(),
  /** 0 normal, 1 warning, 2 fault, 3 offset, 4 offline (the console's status, DATA_DICT device_status). */
  status: z.number().int(),
  readiness: z.enum(READINESS),
  /** Why not ready or unknown (READINESS_REASONS keys); empty when ready. */
  readiness_reasons: z.array(z.string()),
  /** The last self-test that passed (ISO time), null when none. */
  last_verified_time: z.string().nullable(),
  /** Battery level 0-100, null when never reported. */
  battery: z.number().int().nullable(),
  /** In the request's `coord` system. */
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  coord: z.enum(COORDS),
  /** Navigation address. */
  address: z.string().nullable(),
  /** Where in the building (indoor location text). */
  location_desc: z.string().nullable(),
  /** Region code (6 digits). */
  address_code: z.string().nullable(),
  /** Close-up and far-view photos (URLs). */
  photos: z.array(z.string()),
  opening_hours: openingHoursSchema.nullable(),
  /** The rescue cabinet it sits in, if any. */
  cabinet: z
    .object({ sn: z.string(), online: z.boolean(), door_status: z.number().int().nullable() })
    .nullable(),
  agency_id: z.number().int(),
  agency_name: z.string(),
  /** When its state last changed (ISO); for a removed AED, when it left. */
  update_time: z.string(),
  /**
   * True when the AED left the network (uninstalled or deleted) at update_time; drop it from your
   * copy. Only the status feed lists such AEDs (asked with changed_since); the others answer false.
   */
  removed: z.boolean(),
})
export type OpenAed = z.infer<typeof openAedSchema>

/** A nearby answer's row: the AED and its distance in metres from the asked point. */
export const nearbyAedSchema = openAedSchema.extend({
  distance: z.number().int(),
  /** False: an AED of the network, its readiness known. */
  third_party: z.literal(false),
})
export type NearbyAed = z.infer<typeof nearbyAedSchema>

/**
 * An approved third-party AED in the nearby answer (when 后台配置's xcx_display_third_party_aed
 * is 1): someone else's AED a citizen reported; nobody watches it, so its readiness is unknown.
 */
export const nearbyThirdPartySchema = z.object({
  third_party: z.literal(true),
  /** The review record's id. */
  id: z.number().int(),
  /** The serial if the submitter read it. */
  sn: z.string().nullable(),
  brand: z.string(),
  readiness: z.literal('unknown'),
  readiness_reasons: z.tuple([z.literal('third_party')]),
  lat: z.number(),
  lon: z.number(),
  coord: z.enum(['gcj02', 'wgs84']),
  address: z.string(),
  location_desc: z.string().nullable(),
  address_code: z.string().nullable(),
  photos: z.array(z.string()),
  distance: z.number().int(),
})
export type NearbyThirdParty = z.infer<typeof nearbyThirdPartySchema>

const changedSince = z.iso
  .datetime({ offset: true, message: 'OPEN_API_CHANGED_SINCE_INVALID' })
  .optional()
  .describe('ISO time: only what changed at or after it')

/** Paging of the open API's lists: at most 500 a page. */
const openPage = {
  page: z.coerce.number({ message: 'PAGE_INVALID' }).int('PAGE_INVALID').min(1, 'PAGE_INVALID').default(1),
  page_size: z.coerce
    .number({ message: 'PAGE_INVALID' })
    .int('PAGE_INVALID')
    .min(1, 'PAGE_INVALID')
    .max(500, 'PAGE_INVALID')
    .default(50),
}

/** GET /open-api/v1/aed/status and /open-api/v1/event/: oldest change first, so a poller can page forward. */
export const changedSinceQuery = z.object({ changed_since: changedSince, ...openPage, coord: coordQuery })
export type ChangedSinceQuery = z.output<typeof changedSinceQuery>

/** A device event (fault, warning, offset, offline), open or closed. */
export const openEventSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['fault', 'warning', 'offset', 'offline']),
  /** The fault or warning code ('' for offset and offline). */
  code: z.string(),
  /** The code's label in the request's language. */
  description: z.string(),
  sn: z.string(),
  agency_id: z.number().int(),
  /** When it began and, once it stopped holding, when it closed (ISO). */
  open_time: z.string(),
  close_time: z.string().nullable(),
  state: z.enum(['open', 'closed']),
  /** When it last changed: opened, closed or handled (ISO). */
  update_time: z.string(),
})
export type OpenEvent = z.infer<typeof openEventSchema>

/** A rescue: an AED in use (the event_push payload of device.rescue.*). */
export const openRescueSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  agency_id: z.number().int(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  coord: z.enum(COORDS),
  address: z.string().nullable(),
  cabinet_sn: z.string().nullable(),
})
export type OpenRescue = z.infer<typeof openRescueSchema>

/** A cabinet door alarm: each opening of a rescue cabinet's door (the console's 救护箱开门 alarm). */
export const openDoorAlarmSchema = z.object({
  id: z.number().int(),
  cabinet_sn: z.string(),
  /** The AED inside, if bound. */
  sn: z.string().nullable(),
  agency_id: z.number().int(),
  open_time: z.string(),
  close_time: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  coord: z.enum(COORDS),
})
export type OpenDoorAlarm = z.infer<typeof openDoorAlarmSchema>

/** A classroom item for a mini-program. */
export const openClassroomSchema = z.object({
  id: z.number().int(),
  /** 1 operation video, 2 first-aid knowledge, 3 news. */
  category: z.number().int(),
  title: z.string(),
  describe: z.string().nullable(),
  link: z.string().nullable(),
  illustration: z.string().nullable(),
  content_type: z.number().int(),
  create_time: z.string(),
})

export const snParams = z.object({
  sn: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'OPEN_API_SN_INVALID'),
})

/** POST /open-api/v1/call-event/: a call from the 120 centre or an SOS button (its place in `coord`). */
export const openCallForm = z.object({
  ...callFields,
  coord: z.enum(COORDS, { message: 'OPEN_API_COORD_INVALID' }).default('gcj02'),
  /** The integrator's own id of the call: the same id again is the same call. */
  external_id: z
    .string({ message: 'CALL_EXTERNAL_ID_INVALID' })
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'CALL_EXTERNAL_ID_INVALID'),
})
export type OpenCallForm = z.output<typeof openCallForm>

/** PUT /open-api/v1/call-event/{external_id}: the integrator closes its call. */
export const openCallCloseForm = callCloseForm

/** A call as the integrator sees it (and the webhooks `call.created`, `call.closed` send). */
export const openCallSchema = z.object({
  id: z.number().int(),
  external_id: z.string().nullable(),
  phone: z.string(),
  location: z.string(),
  address_code: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  coord: z.enum(COORDS),
  /** ISO 8601 (UTC). */
  call_time: z.string(),
  description: z.string().nullable(),
  status: z.number().int(),
  outcome: z.enum(CALL_OUTCOMES).nullable(),
  closed_at: z.string().nullable(),
  /** The AED used, when a device near the call started a rescue after it. */
  rescue: z.object({ device_sn: z.string(), event_time: z.string() }).nullable(),
})
export type OpenCall = z.infer<typeof openCallSchema>

/** Every endpoint of the open API, with the service each requires. */
export const openApi = {
  nearby: endpoint({
    method: 'GET',
    path: '/open-api/v1/aed/nearby',
    summary:
      'Ready AEDs near a point, nearest first (open_api); approved third-party AEDs too (third_party true, readiness unknown) when 后台配置 shows them, up to `limit` of each kind',
    query: nearbyQuery,
    response: z.object({ resource: z.array(z.union([nearbyAedSchema, nearbyThirdPartySchema])) }),
  }),
  status: endpoint({
    method: 'GET',
    path: '/open-api/v1/aed/status',
    summary: 'AED statuses changed since a time, oldest change first (open_api)',
    query: changedSinceQuery,
    response: paged(openAedSchema),
  }),
  aed: endpoint({
    method: 'GET',
    path: '/open-api/v1/aed/:sn',
    summary: 'One AED of the subtree (open_api)',
    params: snParams,
    query: z.object({ coord: coordQuery }),
    response: openAedSchema,
  }),
  events: endpoint({
    method: 'GET',
    path: '/open-api/v1/event/',
    summary: 'Device events, open and closed, changed since a time (open_api)',
    query: changedSinceQuery,
    response: paged(openEventSchema),
  }),
  callIntake: endpoint({
    method: 'POST',
    path: '/open-api/v1/call-event/',
    summary: 'Record a call (open_api): the same external_id again answers the same call, created false',
    body: openCallForm,
    response: callIntakeAnswer,
  }),
  callClose: endpoint({
    method: 'PUT',
    path: '/open-api/v1/call-event/:external_id',
    summary: 'Close the integrator’s own open call with its outcome (open_api)',
    params: z.object({
      external_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'CALL_EXTERNAL_ID_INVALID'),
    }),
    body: openCallCloseForm,
    response: openCallSchema,
  }),
  fileUpload: endpoint({
    method: 'POST',
    path: '/open-api/v1/file/',
    summary:
      'Upload one image of a submission (mini_program; multipart: file, a jpg, jpeg or png under 20M); its access_url goes in cert_img or install_imgs',
    body: z.object({ file: filePart('FILE_REQUIRED') }),
    response: uploadResultSchema,
  }),
  volunteer: endpoint({
    method: 'POST',
    path: '/open-api/v1/volunteer/',
    summary:
      'Submit a public volunteer for review (mini_program); one application in review per phone, the same one again answers it, created false',
    body: volunteerSubmission,
    response: submissionAnswer,
  }),
  thirdPartyAed: endpoint({
    method: 'POST',
    path: '/open-api/v1/third-party-aed/',
    summary:
      'Report a third-party AED for review (mini_program); one submission in review per phone, the same one again answers it, created false',
    body: thirdPartyAedSubmission,
    response: submissionAnswer,
  }),
  classroom: endpoint({
    method: 'GET',
    path: '/open-api/v1/classroom/',
    summary: 'First-aid classroom items (mini_program)',
    query: z.object({ ...openPage, category: z.coerce.number().int().min(1).max(3).optional() }),
    response: paged(openClassroomSchema),
  }),
}

/** The service each open-API endpoint requires (the route's guard reads it). */
export const OPEN_API_SERVICE_OF: Record<keyof typeof openApi, OpenApiService> = {
  nearby: 'open_api',
  status: 'open_api',
  aed: 'open_api',
  events: 'open_api',
  callIntake: 'open_api',
  callClose: 'open_api',
  classroom: 'mini_program',
  fileUpload: 'mini_program',
  volunteer: 'mini_program',
  thirdPartyAed: 'mini_program',
}

/** Webhook event types, each with the service that subscribes to it. */
export const WEBHOOK_EVENTS = {
  'device.event.opened': 'event_push',
  'device.event.closed': 'event_push',
  'device.rescue.started': 'event_push',
  'device.rescue.ended': 'event_push',
  'cabinet.door.alarm': 'event_push',
  'call.created': 'event_push',
  'call.closed': 'event_push',
  'call.dispatch': 'event_push',
  'device.status.changed': 'device_data_push',
  'webhook.test': 'event_push',
  /** A volunteer the integrator submitted was approved or rejected (only that configuration hears it). */
  'review.volunteer.decided': 'mini_program',
  /** A third-party AED the integrator submitted was approved or rejected (only that configuration hears it). */
  'review.aed.decided': 'mini_program',
} as const satisfies Record<string, OpenApiService>
export type WebhookEvent = keyof typeof WEBHOOK_EVENTS

/** A delivery's body, per Standard Webhooks: type, timestamp, data (what the matching read returns). */
export type WebhookPayload = { type: WebhookEvent; timestamp: string; data: Record<string, unknown> }
