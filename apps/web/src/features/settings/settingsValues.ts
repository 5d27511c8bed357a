import { DISPATCH_DEFAULTS } from '@aed/contracts/dispatch'
import {
  type AgencySettings,
  DEFAULT_ALARM_ESCALATE_MINUTES,
  DEFAULT_SETTINGS,
} from '@aed/contracts/settings'
import dayjs, { type Dayjs } from 'dayjs'

/** The eleven dispatch settings (派单), each optional in a saved object. */
export type DispatchKey = keyof typeof DISPATCH_DEFAULTS

/**
 * The form's values: the off threshold as 0 (a select cannot hold null), the window as two times,
 * the escalation minutes, the call and the dispatch settings always present (settings saved
 * before them had none).
 */
export type SettingsValues = Omit<
  AgencySettings,
  | 'location_offset'
  | 'exec_status_sms_time_period'
  | 'alarm_escalate_minutes'
  | 'call_close_minutes'
  | 'call_radius_m'
  | DispatchKey
> & {
  location_offset: number
  exec_status_sms_time_period: [Dayjs, Dayjs]
  alarm_escalate_minutes: number
  call_close_minutes: number
  call_radius_m: number
} & Required<Pick<AgencySettings, DispatchKey>>

/** The call settings' defaults: open calls close after 120 minutes, their surroundings reach 1000 m. */
export const DEFAULT_CALL_CLOSE_MINUTES = DEFAULT_SETTINGS.call_close_minutes ?? 120
export const DEFAULT_CALL_RADIUS_M = DEFAULT_SETTINGS.call_radius_m ?? 1000

export const OFFSET_OFF = 0
const HHMM = 'HH:mm'

/** The dispatch settings of `s`, the published defaults where it has none. */
function dispatchOf(
  s: Partial<Pick<AgencySettings, DispatchKey>>,
): Required<Pick<AgencySettings, DispatchKey>> {
  return {
    dispatch_first_wave: s.dispatch_first_wave ?? DISPATCH_DEFAULTS.dispatch_first_wave,
    dispatch_radii_m: [...(s.dispatch_radii_m ?? DISPATCH_DEFAULTS.dispatch_radii_m)],
    dispatch_phase_s: s.dispatch_phase_s ?? DISPATCH_DEFAULTS.dispatch_phase_s,
    dispatch_max: s.dispatch_max ?? DISPATCH_DEFAULTS.dispatch_max,
    dispatch_answer_s: s.dispatch_answer_s ?? DISPATCH_DEFAULTS.dispatch_answer_s,
    dispatch_enough: s.dispatch_enough ?? DISPATCH_DEFAULTS.dispatch_enough,
    dispatch_patient_pct: s.dispatch_patient_pct ?? DISPATCH_DEFAULTS.dispatch_patient_pct,
    dispatch_aed_detour_m: s.dispatch_aed_detour_m ?? DISPATCH_DEFAULTS.dispatch_aed_detour_m,
    dispatch_speed_mps: s.dispatch_speed_mps ?? DISPATCH_DEFAULTS.dispatch_speed_mps,
    dispatch_on_rescue: s.dispatch_on_rescue ?? DISPATCH_DEFAULTS.dispatch_on_rescue,
    dispatch_cabinet_siren: s.dispatch_cabinet_siren ?? DISPATCH_DEFAULTS.dispatch_cabinet_siren,
  }
}

export function toSettingsValues(s: AgencySettings): SettingsValues {
  const [start, end] = s.exec_status_sms_time_period
  return {
    ...s,
    location_offset: s.location_offset ?? OFFSET_OFF,
    exec_status_sms_time_period: [dayjs(start, HHMM), dayjs(end, HHMM)],
    alarm_escalate_minutes: s.alarm_escalate_minutes ?? DEFAULT_ALARM_ESCALATE_MINUTES,
    call_close_minutes: s.call_close_minutes ?? DEFAULT_CALL_CLOSE_MINUTES,
    call_radius_m: s.call_radius_m ?? DEFAULT_CALL_RADIUS_M,
    ...dispatchOf(s),
  }
}

export function toAgencySettings(v: SettingsValues): AgencySettings {
  const [start, end] = v.exec_status_sms_time_period
  return {
    aid_sms: v.aid_sms,
    exec_status_sms: v.exec_status_sms,
    exec_status_sms_time_period: [start.format(HHMM), end.format(HHMM)],
    location_offset: v.location_offset === OFFSET_OFF ? null : v.location_offset,
    alarm_sound: v.alarm_sound,
    electrode_sheet_expire: v.electrode_sheet_expire,
    battery_expire: v.battery_expire,
    alarm_escalate_minutes: v.alarm_escalate_minutes,
    call_close_minutes: v.call_close_minutes,
    call_radius_m: v.call_radius_m,
    ...dispatchOf(v),
  }
}
