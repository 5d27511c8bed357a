import { type Lang, maskPhone } from '@aed/contracts'
import { dictLabel, labelIn } from '@aed/contracts/constants'
import type { Device, DeviceListCan, FactoryDevice } from '@aed/contracts/device'
import { READINESS_LABELS, READINESS_REASONS, type ReadinessReason } from '@aed/contracts/device-protocol'
import { regionFullName } from '@aed/contracts/regions'
import { pick } from '../../lib/pick.ts'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { shownStatus } from '../engine/status.presenter.ts'
import type { DeviceRow, FactoryRow } from './device.repository.ts'
import { deviceRules } from './device.rules.ts'

// The status an installation shows, as the live status push shows it too (one presenter for both).
export { shownStatus } from '../engine/status.presenter.ts'

/** A registered device as anyone allowed to see it sees it (lists mask the manager's phone). */
export function deviceObject(row: DeviceRow, opts: { masked: boolean; lang: Lang }): Omit<Device, 'can'> {
  const status = shownStatus(row)
  return {
    ...pick(row, ['id', 'device_sn', 'model', 'fw_version']),
    status,
    status_text: dictLabel('device_status', status, opts.lang),
    readiness: row.readiness,
    readiness_text: labelIn(READINESS_LABELS[row.readiness], opts.lang),
    readiness_reasons: row.readiness_reasons,
    readiness_reasons_text: row.readiness_reasons.map((r) =>
      r in READINESS_REASONS ? labelIn(READINESS_REASONS[r as ReadinessReason], opts.lang) : r,
    ),
    last_pass_time: row.last_pass_at ? formatDateTime(row.last_pass_at) : null,
    last_report_time: row.last_seen_at ? formatDateTime(row.last_seen_at) : null,
    rssi: row.rssi,
    positioning_type: row.positioning_type,
    cable_voltage: row.cable_voltage,
    battery: row.battery,
    battery_expire: row.battery_expire,
    electrode_sheet_expire: row.electrode_sheet_expire,
    host_expire: row.host_expire,
    register_code: row.register_code,
    location: row.location,
    location_desc: row.location_desc,
    address_code: row.address_code,
    address_name: row.address_code ? regionFullName(row.address_code) : null,
    lat: row.lat,
    lon: row.lon,
    device_manager_id: row.device_manager_id,
    name: row.manager_name,
    phone: opts.masked ? maskPhone(row.manager_phone) : row.manager_phone,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    contact: row.contact,
    contact_phone: opts.masked ? maskPhone(row.contact_phone) : row.contact_phone,
    open_state: row.open_state,
    open_day: row.open_day,
    open_time_period: row.open_time_period,
    xcx_display: row.xcx_display,
    disable_abnormal_sms_notify: row.disable_abnormal_sms_notify,
    disable_abnormal_display: row.disable_abnormal_display,
    chest_shot_img: row.chest_shot_img,
    long_shot_img: row.long_shot_img,
    safety_radius: row.safety_radius,
    register_time: row.register_time.toISOString(),
    registrant: row.registrant_name,
  }
}

/** What the signed-in member may do with devices: edit with EDIT, delete with ALL, commands as a super administrator. */
export function deviceCan(auth: AuthContext): Device['can'] {
  return {
    edit: deviceRules.edit(auth),
    delete: deviceRules.delete(auth),
    command: deviceRules.command(auth),
  }
}

/** What the signed-in member may do from the device pages' toolbars, sent with their lists. */
export function deviceListCan(auth: AuthContext): DeviceListCan {
  return {
    register: deviceRules.edit(auth),
    export: deviceRules.edit(auth),
    abnormal_switches: deviceRules.abnormalSwitches(auth),
    clean: deviceRules.delete(auth),
    clean_all: deviceRules.cleanAll(auth),
    cable_voltage: deviceRules.cableVoltage(auth),
    import: deviceRules.import(auth),
    assign: deviceRules.assign(auth),
    delete: deviceRules.delete(auth),
  }
}

export function presentDevice(
  row: DeviceRow,
  auth: AuthContext,
  opts: { masked: boolean; lang: Lang },
): Device {
  const device = deviceObject(row, opts)
  const cable_voltage = deviceRules.cableVoltage(auth) ? device.cable_voltage : null
  return { ...device, cable_voltage, can: deviceCan(auth) }
}

/** A device of the factory list; deleting needs ALL and an unregistered device. */
export function presentFactoryDevice(row: FactoryRow, auth: AuthContext): FactoryDevice {
  return {
    id: row.id,
    device_sn: row.device_sn,
    model: row.model,
    fw_version: row.fw_version,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    create_time: row.create_time.toISOString(),
    is_register: row.installation_id === null ? 0 : 1,
    can: { delete: deviceRules.delete(auth) && row.installation_id === null },
  }
}
