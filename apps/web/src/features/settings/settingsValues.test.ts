import { DISPATCH_DEFAULTS } from '@aed/contracts/dispatch'
import { DEFAULT_SETTINGS } from '@aed/contracts/settings'
import dayjs from 'dayjs'
import customParseFormat from 'dayjs/plugin/customParseFormat'
import { describe, expect, it } from 'vitest'
import { toAgencySettings, toSettingsValues } from './settingsValues'

dayjs.extend(customParseFormat)

describe('system settings values', () => {
  it('round-trip, with the location check off as null', () => {
    const s = {
      aid_sms: 1 as const,
      exec_status_sms: 2 as const,
      exec_status_sms_time_period: ['08:00', '20:30'] as [string, string],
      location_offset: null,
      alarm_sound: 0 as const,
      electrode_sheet_expire: 3,
      battery_expire: 0,
      alarm_escalate_minutes: 10,
      call_close_minutes: 60,
      call_radius_m: 500,
      dispatch_first_wave: 8,
      dispatch_radii_m: [300, 800],
      dispatch_phase_s: 90,
      dispatch_max: 20,
      dispatch_answer_s: 60,
      dispatch_enough: 4,
      dispatch_patient_pct: 50,
      dispatch_aed_detour_m: 400,
      dispatch_speed_mps: 1.8,
      dispatch_on_rescue: 1 as const,
      dispatch_cabinet_siren: 1 as const,
    }
    const v = toSettingsValues(s)
    expect(v.location_offset).toBe(0)
    expect(toAgencySettings(v)).toEqual(s)
    expect(toAgencySettings({ ...v, location_offset: 5 }).location_offset).toBe(5)
  })

  it('fills the escalation minutes of settings saved before they existed with the default', () => {
    const { alarm_escalate_minutes: _, ...old } = DEFAULT_SETTINGS
    expect(toSettingsValues(old).alarm_escalate_minutes).toBe(5)
    expect(toAgencySettings(toSettingsValues(old)).alarm_escalate_minutes).toBe(5)
  })

  it('fills the call settings of settings saved before them with 120 minutes and 1000 m', () => {
    const { call_close_minutes: _, call_radius_m: __, ...old } = DEFAULT_SETTINGS
    expect(toAgencySettings(toSettingsValues(old))).toMatchObject({
      call_close_minutes: 120,
      call_radius_m: 1000,
    })
  })

  it('fills the dispatch settings of settings saved before them with the published defaults', () => {
    const old = Object.fromEntries(
      Object.entries(DEFAULT_SETTINGS).filter(([k]) => !k.startsWith('dispatch_')),
    ) as typeof DEFAULT_SETTINGS
    expect(toAgencySettings(toSettingsValues(old))).toMatchObject({
      ...DISPATCH_DEFAULTS,
      dispatch_radii_m: [500, 1000, 2000],
    })
  })
})
