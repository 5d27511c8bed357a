import type { Device } from '@aed/contracts/device'
import dayjs, { type Dayjs } from 'dayjs'
import type { DeviceBody, DeviceUpdateBody } from '../api/useSaveDevice'

/** An opening period as the dialog holds it: two times of day. */
export type Period = [Dayjs | null, Dayjs | null] | null

/** The register / change dialog's fields. */
export type DeviceFormValues = {
  device_sn?: string
  agency_id?: number
  device_manager_id?: number | null
  contact?: string
  contact_phone?: string
  location?: string
  location_desc?: string
  /** A path of region codes, or a stored code. */
  region?: string[] | string | null
  lat?: number | null
  lon?: number | null
  open_state?: 0 | 1 | 2
  open_day?: number[]
  open_time_period?: Period[]
  xcx_display?: 0 | 1
  disable_abnormal_sms_notify?: boolean
  disable_abnormal_display?: boolean
  chest_shot_img?: string | null
  long_shot_img?: string | null
  battery_expire?: Dayjs | null
  electrode_sheet_expire?: Dayjs | null
  host_expire?: Dayjs | null
  /** Editing only: 1 routine change, 2 move, 3 replace. */
  update_type?: 1 | 2 | 3
  new_device_sn?: string
}

const HHMM = 'HH:mm'
const DAY = 'YYYY-MM-DD'

/** A new device's dialog: open all day every day, shown in the mini-program, the member's organisation. */
export function newDeviceValues(agencyId: number | undefined): DeviceFormValues {
  return {
    agency_id: agencyId,
    open_state: 2,
    open_day: [],
    open_time_period: [null],
    xcx_display: 1,
    disable_abnormal_sms_notify: false,
    disable_abnormal_display: false,
  }
}

/** The dialog's values of an installed device; the change starts as a routine change. */
export function fromDevice(d: Device): DeviceFormValues {
  const periods = d.open_time_period.map(([a, b]): Period => [dayjs(a, HHMM), dayjs(b, HHMM)])
  return {
    device_sn: d.device_sn,
    agency_id: d.agency_id,
    device_manager_id: d.device_manager_id,
    contact: d.contact ?? '',
    contact_phone: d.contact_phone ?? '',
    location: d.location,
    location_desc: d.location_desc ?? '',
    region: d.address_code,
    lat: d.lat,
    lon: d.lon,
    open_state: d.open_state as 0 | 1 | 2,
    open_day: d.open_day,
    open_time_period: periods.length ? periods : [null],
    xcx_display: d.xcx_display === 1 ? 1 : 0,
    disable_abnormal_sms_notify: d.disable_abnormal_sms_notify === 1,
    disable_abnormal_display: d.disable_abnormal_display === 1,
    chest_shot_img: d.chest_shot_img,
    long_shot_img: d.long_shot_img,
    battery_expire: dayjs(d.battery_expire),
    electrode_sheet_expire: dayjs(d.electrode_sheet_expire),
    host_expire: dayjs(d.host_expire),
    update_type: 1,
    new_device_sn: '',
  }
}

const regionCode = (r: DeviceFormValues['region']) => (Array.isArray(r) ? r.at(-1) : r) || null
const blankToNull = (s: string | undefined | null) => s?.trim() || null
const day = (d: Dayjs | null | undefined) => (d ? d.format(DAY) : '')

/** The periods that are filled in, as 'HH:mm' pairs. */
export function filledPeriods(periods: Period[] | undefined): [string, string][] {
  return (periods ?? [])
    .filter((p): p is [Dayjs, Dayjs] => Boolean(p?.[0] && p[1]))
    .map(([a, b]) => [a.format(HHMM), b.format(HHMM)])
}

/**
 * The request body. Days and periods go only with semi-open; the two switches only when the
 * member may set them (`can.abnormal_switches`; others keep what is stored); the safety radius,
 * not in the dialog, keeps its value.
 */
export function toDeviceBody(
  v: DeviceFormValues,
  stored: Device | undefined,
  abnormalSwitches: boolean,
): DeviceBody {
  const semi = v.open_state === 1
  return {
    device_sn: (v.device_sn ?? '').trim(),
    agency_id: v.agency_id as number,
    location: (v.location ?? '').trim(),
    location_desc: blankToNull(v.location_desc),
    address_code: regionCode(v.region),
    lat: v.lat as number,
    lon: v.lon as number,
    device_manager_id: v.device_manager_id ?? null,
    contact: blankToNull(v.contact),
    contact_phone: blankToNull(v.contact_phone),
    open_state: v.open_state as 0 | 1 | 2,
    open_day: semi ? [...(v.open_day ?? [])].sort((a, b) => a - b) : [],
    open_time_period: semi ? filledPeriods(v.open_time_period) : [],
    xcx_display: v.xcx_display as 0 | 1,
    ...(abnormalSwitches
      ? {
          disable_abnormal_sms_notify: v.disable_abnormal_sms_notify ? 1 : 0,
          disable_abnormal_display: v.disable_abnormal_display ? 1 : 0,
        }
      : {}),
    chest_shot_img: v.chest_shot_img ?? '',
    long_shot_img: v.long_shot_img ?? '',
    battery_expire: day(v.battery_expire),
    electrode_sheet_expire: day(v.electrode_sheet_expire),
    host_expire: day(v.host_expire),
    safety_radius: stored?.safety_radius ?? null,
  }
}

/** A change: the body plus its kind, and the new serial when replacing. */
export function toDeviceUpdate(
  v: DeviceFormValues,
  stored: Device,
  abnormalSwitches: boolean,
): DeviceUpdateBody {
  return {
    ...toDeviceBody(v, stored, abnormalSwitches),
    device_sn: stored.device_sn,
    update_type: v.update_type ?? 1,
    ...(v.update_type === 3 ? { new_device_sn: (v.new_device_sn ?? '').trim() } : {}),
  }
}
