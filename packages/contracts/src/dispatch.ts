import { z } from 'zod'
import { get, post } from './endpoint.ts'

// 派单 (dispatch): a call (or a rescue no call explains) turned into responders running, some
// straight to the patient and some by way of the nearest ready AED. Every parameter is an
// organisation setting (settings.ts), with the published systems' values as defaults.

/** What a responder is sent to do: go to the patient, or fetch an AED on the way. */
export const ALERT_ROLES = ['patient', 'aed'] as const
export type AlertRole = (typeof ALERT_ROLES)[number]

/**
 * An alert's life: alerted (SMS sent, waiting for an answer), accepted, declined, expired (no
 * answer in time), arrived (at the patient), stood_down (enough others accepted, the call closed,
 * or its AED was replaced by another's).
 */
export const ALERT_STATES = ['alerted', 'accepted', 'declined', 'expired', 'arrived', 'stood_down'] as const
export type AlertState = (typeof ALERT_STATES)[number]

/** A dispatch: running (alerting, waiting), enough (enough accepted: no new alerts), closed (the call ended). */
export const DISPATCH_RUN_STATES = ['running', 'enough', 'closed'] as const

/** A responder's actions from the alert page. */
export const ALERT_ACTIONS = ['accept', 'decline', 'arrived', 'location'] as const
export type AlertAction = (typeof ALERT_ACTIONS)[number]

/** The published defaults of every dispatch parameter (each an organisation setting). */
export const DISPATCH_DEFAULTS = {
  /** Alerts of the first wave. */
  dispatch_first_wave: 5,
  /** The radius of each phase, metres: 500 m, then 1 km, then 2 km. */
  dispatch_radii_m: [500, 1000, 2000],
  /** Seconds before the next phase widens the radius while too few have accepted. */
  dispatch_phase_s: 60,
  /** Alerts of one call at most. */
  dispatch_max: 30,
  /** Seconds a responder has to answer before the alert passes to the next. */
  dispatch_answer_s: 45,
  /** Accepted responders that are enough: the others are told they are not needed. */
  dispatch_enough: 3,
  /** Share of the alerts sent straight to the patient, percent (the nearest); the rest by an AED. */
  dispatch_patient_pct: 33,
  /** Metres an AED may add to a responder's way to the patient for them to fetch it. */
  dispatch_aed_detour_m: 600,
  /** Walking speed, metres a second (Heartrunner's median 2.3). */
  dispatch_speed_mps: 2.3,
  /** 1: dispatch when a device reports a rescue that no call explains. */
  dispatch_on_rescue: 0,
  /** 1: a cabinet sounds its siren as well as unlocking when a responder accepts its AED. */
  dispatch_cabinet_siren: 0,
} as const

/** One alert as the dispatcher sees it. */
export const dispatchAlertSchema = z.object({
  id: z.number().int(),
  responder_id: z.number().int(),
  name: z.string(),
  /** Masked (3+****+4). */
  phone: z.string(),
  role: z.enum(ALERT_ROLES),
  /** The AED to fetch (role aed). */
  device_sn: z.string().nullable(),
  cabinet_sn: z.string().nullable(),
  state: z.enum(ALERT_STATES),
  /** Metres on the way (by the AED for role aed) and the time to arrive at the walking speed. */
  distance: z.number().int(),
  eta_s: z.number().int(),
  alerted_at: z.string(),
  answered_at: z.string().nullable(),
  arrived_at: z.string().nullable(),
  /**
   * Where the responder is (GCJ-02): the last shared position when it is under 30 minutes old
   * (`located_at` says when), else their home (`located_at` null).
   */
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  located_at: z.string().nullable(),
  /** Where the AED to fetch stands (role aed). */
  aed_lat: z.number().nullable(),
  aed_lon: z.number().nullable(),
})
export type DispatchAlert = z.infer<typeof dispatchAlertSchema>

/** A call's dispatch (GET /api/v1/aid-event/call-event/{id} answers it in data.dispatch). */
export const dispatchSchema = z.object({
  id: z.number().int(),
  state: z.enum(DISPATCH_RUN_STATES),
  phase: z.number().int(),
  radius: z.number().int(),
  accepted: z.number().int(),
  arrived: z.number().int(),
  alerts: z.array(dispatchAlertSchema),
  /** The ready AEDs it chose from, nearest first (marker 9 on the page draws them). */
  aeds: z.array(
    z.object({
      device_id: z.number().int(),
      device_sn: z.string(),
      lat: z.number(),
      lon: z.number(),
      distance: z.number().int(),
      cabinet_sn: z.string().nullable(),
    }),
  ),
})
export type Dispatch = z.infer<typeof dispatchSchema>

/** What the responder's page shows (GET /responder-api/v1/alert/{token}). */
export const responderAlertSchema = z.object({
  state: z.enum(ALERT_STATES),
  role: z.enum(ALERT_ROLES),
  /** False once the call closed (the link stops working then). */
  open: z.boolean(),
  responder_name: z.string(),
  call: z.object({
    location: z.string(),
    lat: z.number(),
    lon: z.number(),
    call_time: z.string(),
    description: z.string().nullable(),
  }),
  /** The AED to fetch (role aed): where it is, where inside, a photo, its cabinet. */
  aed: z
    .object({
      device_sn: z.string(),
      lat: z.number(),
      lon: z.number(),
      location: z.string().nullable(),
      location_desc: z.string().nullable(),
      photo: z.string().nullable(),
      cabinet_sn: z.string().nullable(),
      /** True once its cabinet was told to unlock. */
      unlocked: z.boolean(),
    })
    .nullable(),
  /** Metres to go and the time at walking speed, from where the responder was sent from. */
  distance: z.number().int(),
  eta_s: z.number().int(),
  /** Seconds left to answer (state alerted). */
  answer_left_s: z.number().int().nullable(),
  /** How many have accepted. */
  accepted: z.number().int(),
})
export type ResponderAlert = z.infer<typeof responderAlertSchema>

/** The alert link's token: 43 base64url characters (32 random bytes). */
export const alertTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'ALERT_LINK_INVALID'),
})

/** A responder's action; `location` carries the phone's position (WGS-84 from the browser, or GCJ-02). */
export const alertActionParams = alertTokenParams.extend({
  action: z.enum(ALERT_ACTIONS, { message: 'INVALID_INPUT' }),
})
export const alertActionBody = z
  .object({
    lat: z.number().min(-90).max(90).optional(),
    lon: z.number().min(-180).max(180).optional(),
    coord: z.enum(['gcj02', 'wgs84']).default('wgs84'),
    /** Metres (the browser's accuracy). */
    accuracy: z.number().min(0).max(100_000).optional(),
  })
  .default({ coord: 'wgs84' })

/** The responder's side (no sign-in: the alert link is the permission). */
export const responderAlertApi = {
  alert: get('/responder-api/v1/alert/:token', {
    summary: 'The alert a responder’s link opens: the call, the role, the AED to fetch',
    params: alertTokenParams,
    response: responderAlertSchema,
  }),
  act: post('/responder-api/v1/alert/:token/:action', {
    summary: 'Accept, decline, report arriving, or share the position (lat, lon)',
    params: alertActionParams,
    body: alertActionBody,
    response: responderAlertSchema,
  }),
}
