import { AgencyType, can, permissionList, RoleType } from '@aed/contracts'
import type { Cabinet, CabinetCan, CabinetDetail, CabinetListCan } from '@aed/contracts/cabinet'
import { modelOfSerial } from '@aed/contracts/device'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { deviceRules } from '../device/device.rules.ts'
import type { BindRow, CabinetRow } from './cabinet.repository.ts'

/** The rules of spec section 6, for the caller (the service enforces the same functions). */
export const cabinetRules = {
  /** Bind and unbind: device EDIT (read-only members are refused). */
  bind: (auth: AuthContext) => can(auth, 'device', 'EDIT'),
  /** Assign: role_type 0, agency_type not 0 or 1 (ordinary organisations), not read-only. */
  assign: (auth: AuthContext) =>
    auth.role_type === RoleType.SUPER_ADMIN &&
    auth.agency_type === AgencyType.ORDINARY &&
    can(auth, 'device', 'EDIT'),
  /** Delete: role_type 0. */
  delete: (auth: AuthContext) => auth.role_type === RoleType.SUPER_ADMIN,
  /** Import: the devices' import rule (not read-only, agency_type not 2): cabinets are devices too. */
  import: deviceRules.import,
  /** unlock and siren: super administrators. */
  command: (auth: AuthContext) => auth.role_type === RoleType.SUPER_ADMIN && can(auth, 'device', 'EDIT'),
  /** The secret: system super administrators. */
  credential: (auth: AuthContext) => permissionList(auth).includes('system_super'),
}

export function cabinetCan(auth: AuthContext): CabinetCan {
  return {
    bind: cabinetRules.bind(auth),
    assign: cabinetRules.assign(auth),
    delete: cabinetRules.delete(auth),
    command: cabinetRules.command(auth),
    credential: cabinetRules.credential(auth),
  }
}

/** What the signed-in member may do from the cabinet page's toolbar, sent with the list. */
export function cabinetListCan(auth: AuthContext): CabinetListCan {
  return {
    import: cabinetRules.import(auth),
    assign: cabinetRules.assign(auth),
    delete: cabinetRules.delete(auth),
  }
}

/** A cabinet as anyone allowed to see it sees it. */
export function cabinetObject(row: CabinetRow): Omit<Cabinet, 'can'> {
  return {
    id: row.id,
    cabinet_sn: row.cabinet_sn,
    device_sn: row.device_sn,
    device_model: row.device_sn === null ? null : modelOfSerial(row.device_sn),
    device_id: row.device_id,
    bind_device: row.device_id === null ? 0 : 1,
    door_status: row.door_status,
    battery_power: row.battery_power,
    fw_version: row.fw_version,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    location: row.location,
    lat: row.lat,
    lon: row.lon,
    aed_present: row.aed_present,
    data_upload_time: row.data_upload_time ? formatDateTime(row.data_upload_time) : null,
    online: row.offline === null ? null : !row.offline,
    create_time: formatDateTime(row.create_time),
  }
}

export function presentCabinet(row: CabinetRow, auth: AuthContext): Cabinet {
  return { ...cabinetObject(row), can: cabinetCan(auth) }
}

/** The detail: the list's object, the bound AED, and who last assigned or bound it. */
export function presentCabinetDetail(
  row: CabinetRow,
  last: BindRow | null,
  auth: AuthContext,
): CabinetDetail {
  const base = presentCabinet(row, auth)
  return {
    ...base,
    altitude: row.altitude,
    aed_info:
      row.device_sn === null ? null : { device_sn: row.device_sn, device_model: base.device_model ?? '' },
    operator_info: last
      ? { agency_name: last.agency_name, operator: last.operator }
      : { agency_name: row.agency_name, operator: row.creator_name },
  }
}

/** A bind record as the full-screen history shows it. */
export function presentBind(r: BindRow) {
  return {
    id: r.id,
    operate_time: formatDateTime(r.operate_time),
    update_type: r.action,
    operator: r.operator,
    device_sn: r.device_sn,
    device_model: r.device_model,
    agency_name: r.agency_name,
  }
}
