import { z } from 'zod'
import { DISPATCH_DEFAULTS } from './dispatch.ts'
import { get, post } from './endpoint.ts'

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/

/** SMS schedule options: 1 daily, 2 Monday to Friday, 0 none. */
export const smsSchedule = z.union([z.literal(0), z.literal(1), z.literal(2)], {
  message: 'SETTINGS_INVALID',
})
/** Location-offset thresholds in km; null switches the check off. */
export const LOCATION_OFFSET_OPTIONS = [1, 2, 3, 5, 10, 15, 20, 30] as const

/** Minutes an unconfirmed alarm waits for each escalation step when the organisation saved none. */
export const DEFAULT_ALARM_ESCALATE_MINUTES = 5

/** A whole-number setting within [min, max], optional (its default applies when absent). */
const settingInt = (min: number, max: number) =>
  z.number().int('SETTINGS_INVALID').min(min, 'SETTINGS_INVALID').max(max, 'SETTINGS_INVALID').optional()

/** System settings (alert preferences) of one organisation. */
export const agencySettingsSchema = z
  .object({
    /** SMS on first-aid events. */
    aid_sms: smsSchedule,
    /** SMS on abnormal device status. */
    exec_status_sms: smsSchedule,
    /** Window in which abnormal-status SMS go out, [start, end] as HH:mm. */
    exec_status_sms_time_period: z.tuple([
      z.string().regex(HHMM, 'SETTINGS_TIME_INVALID'),
      z.string().regex(HHMM, 'SETTINGS_TIME_INVALID'),
    ]),
    location_offset: z
      .number()
      .refine((v) => (LOCATION_OFFSET_OPTIONS as readonly number[]).includes(v), 'SETTINGS_INVALID')
      .nullable(),
    alarm_sound: z.union([z.literal(0), z.literal(1)], { message: 'SETTINGS_INVALID' }),
    /** Months before pad expiry to remind; 0 none. */
    electrode_sheet_expire: z.number().int().min(0, 'SETTINGS_INVALID').max(3, 'SETTINGS_INVALID'),
    battery_expire: z.number().int().min(0, 'SETTINGS_INVALID').max(3, 'SETTINGS_INVALID'),
    /** Minutes an unconfirmed first-aid or door alarm waits before each escalation step; absent in settings saved before it (default 5). */
    alarm_escalate_minutes: z
      .number()
      .int('SETTINGS_INVALID')
      .min(1, 'SETTINGS_INVALID')
      .max(60, 'SETTINGS_INVALID')
      .optional(),
    /** Minutes an open call stays open before it closes by itself; absent in older settings (default 120). */
    call_close_minutes: z
      .number()
      .int('SETTINGS_INVALID')
      .min(10, 'SETTINGS_INVALID')
      .max(1440, 'SETTINGS_INVALID')
      .optional(),
    /**
     * Metres around a call: the devices and responders its detail shows, and how far a rescue may
     * start from it to count as its AED use; absent in older settings (default 1000).
     */
    call_radius_m: z
      .number()
      .int('SETTINGS_INVALID')
      .min(100, 'SETTINGS_INVALID')
      .max(5000, 'SETTINGS_INVALID')
      .optional(),
    // Dispatch (issue 26): each optional, DISPATCH_DEFAULTS (dispatch.ts) where absent.
    dispatch_first_wave: settingInt(1, 30),
    dispatch_radii_m: z
      .array(z.number().int('SETTINGS_INVALID').min(100, 'SETTINGS_INVALID').max(10_000, 'SETTINGS_INVALID'))
      .min(1, 'SETTINGS_INVALID')
      .max(5, 'SETTINGS_INVALID')
      .refine((r) => r.every((v, i) => i === 0 || v > r[i - 1]), 'SETTINGS_INVALID')
      .optional(),
    dispatch_phase_s: settingInt(15, 600),
    dispatch_max: settingInt(1, 100),
    dispatch_answer_s: settingInt(15, 300),
    dispatch_enough: settingInt(1, 30),
    dispatch_patient_pct: settingInt(0, 100),
    dispatch_aed_detour_m: settingInt(0, 3000),
    dispatch_speed_mps: z.number().min(0.5, 'SETTINGS_INVALID').max(10, 'SETTINGS_INVALID').optional(),
    dispatch_on_rescue: z.union([z.literal(0), z.literal(1)], { message: 'SETTINGS_INVALID' }).optional(),
    dispatch_cabinet_siren: z.union([z.literal(0), z.literal(1)], { message: 'SETTINGS_INVALID' }).optional(),
  })
  .refine((v) => v.exec_status_sms_time_period[0] < v.exec_status_sms_time_period[1], {
    message: 'SETTINGS_TIME_ORDER',
    path: ['exec_status_sms_time_period'],
  })
export type AgencySettings = z.infer<typeof agencySettingsSchema>

export const DEFAULT_SETTINGS: AgencySettings = {
  aid_sms: 1,
  exec_status_sms: 2,
  exec_status_sms_time_period: ['08:00', '20:00'],
  location_offset: 1,
  alarm_sound: 1,
  electrode_sheet_expire: 1,
  battery_expire: 1,
  alarm_escalate_minutes: DEFAULT_ALARM_ESCALATE_MINUTES,
  call_close_minutes: 120,
  call_radius_m: 1000,
  ...DISPATCH_DEFAULTS,
  dispatch_radii_m: [...DISPATCH_DEFAULTS.dispatch_radii_m],
}

/** A rescue that starts this long after a call, near it, is the call's AED use. */
export const CALL_RESCUE_LINK_MS = 30 * 60_000

export const settingsQuery = z.object({
  /** Another organisation of the subtree; the member's own when absent. */
  agency_id: z.coerce.number().int().positive().optional(),
})

/** Settings as saved and answered: with the organisation they belong to. */
export const agencySettingsAnswer = agencySettingsSchema.and(z.object({ agency_id: z.number() }))

/** Every call of the system settings page. */
export const settingsApi = {
  get: get('/api/v1/agency/config/', {
    summary: 'System settings of an organisation (defaults until saved)',
    query: settingsQuery,
    response: agencySettingsAnswer,
  }),
  save: post('/api/v1/agency/config/', {
    summary: 'Save the whole settings object of an organisation',
    body: agencySettingsSchema.and(z.object({ agency_id: z.number().int().positive().optional() })),
    response: agencySettingsAnswer,
  }),
}
