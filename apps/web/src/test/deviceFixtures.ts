import type { Device, DeviceListCan, FactoryDevice } from '@aed/contracts/device'

export function device(patch: Partial<Device> = {}): Device {
  return {
    id: 7,
    device_sn: 'M672412211',
    model: 'D10',
    fw_version: 'V1.2.1',
    status: 0,
    status_text: '正常',
    readiness: 'ready',
    readiness_text: '可用',
    readiness_reasons: [],
    readiness_reasons_text: [],
    last_pass_time: '2026-11-22 09:12:00',
    last_report_time: '2026-11-22 10:40:00',
    rssi: -71,
    positioning_type: 'gps',
    cable_voltage: null,
    battery: 80,
    battery_expire: '2030-03-27',
    electrode_sheet_expire: '2030-04-26',
    host_expire: '2031-09-23',
    register_code: 'R20261122000270',
    location: '广东省广州市天河区天河路299号',
    location_desc: '北入口',
    address_code: '440106',
    address_name: '广东省广州市天河区',
    lat: 23.135963,
    lon: 113.325471,
    device_manager_id: 12,
    name: '李雷',
    phone: '138****0012',
    agency_id: 4,
    agency_name: '杭州市西湖区急救中心',
    contact: '李娜',
    contact_phone: '13934692226',
    open_state: 2,
    open_day: [],
    open_time_period: [],
    xcx_display: 1,
    disable_abnormal_sms_notify: 0,
    disable_abnormal_display: 0,
    chest_shot_img: '/files/chest.png',
    long_shot_img: '/files/long.png',
    safety_radius: null,
    register_time: '2026-11-22T00:58:33Z',
    registrant: '华南总代理管理员',
    can: { edit: true, delete: true, command: true },
    ...patch,
  }
}

export function factoryDevice(patch: Partial<FactoryDevice> = {}): FactoryDevice {
  return {
    id: 21,
    device_sn: 'M732514246',
    model: 'D10A',
    fw_version: 'V2.0.0',
    agency_id: 1,
    agency_name: 'AED云平台运营中心',
    create_time: '2026-11-20T01:54:01Z',
    is_register: 0,
    can: { delete: true },
    ...patch,
  }
}

/** A device list's toolbar `can`: nothing allowed unless patched. */
export function deviceListCan(patch: Partial<DeviceListCan> = {}): DeviceListCan {
  return {
    register: false,
    export: false,
    abnormal_switches: false,
    clean: false,
    clean_all: false,
    cable_voltage: false,
    import: false,
    assign: false,
    delete: false,
    ...patch,
  }
}

/** A device list's toolbar `can` with everything allowed, as a system super administrator gets it. */
export const everyDeviceCan: DeviceListCan = {
  register: true,
  export: true,
  abnormal_switches: true,
  clean: true,
  clean_all: true,
  cable_voltage: true,
  import: true,
  assign: true,
  delete: true,
}
