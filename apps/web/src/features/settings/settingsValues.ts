import type { AgencySettings } from '@aed/contracts/settings'
import dayjs, { type Dayjs } from 'dayjs'

/** The form's values: the off threshold as 0 (a select cannot hold null), the window as two times. */
export type SettingsValues = Omit<AgencySettings, 'location_offset' | 'exec_status_sms_time_period'> & {
  location_offset: number
  exec_status_sms_time_period: [Dayjs, Dayjs]
}

export const OFFSET_OFF = 0
const HHMM = 'HH:mm'

export function toSettingsValues(s: AgencySettings): SettingsValues {
  const [start, end] = s.exec_status_sms_time_period
  return {
    ...s,
    location_offset: s.location_offset ?? OFFSET_OFF,
    exec_status_sms_time_period: [dayjs(start, HHMM), dayjs(end, HHMM)],
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
  }
}
