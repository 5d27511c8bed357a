import { z } from 'zod'
import { DEVICE_MODELS, type Label } from './constants.ts'
import { READINESS } from './device-protocol.ts'
import { del, get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import {
  agencyFields,
  agencyPick,
  assignIds,
  emptyAsUnset,
  exportAnswer,
  exportXls,
  optionalDate,
  optionalDistrict,
  optionalId,
  optionalInt,
  optionalText,
  pageOrExport,
  pointInput,
  regionFilter,
  requiredText,
  textFilter,
} from './fields.ts'

export { exportAnswer }

/** Serials: letters and digits, as printed on the device. */
export const DEVICE_SN = /^[A-Za-z0-9]{6,32}$/

/** The model of a serial from its characters 2-3 ("64" → D100); '' when the code is unknown. */
export function modelOfSerial(sn: string): string {
  return DEVICE_MODELS[sn.slice(1, 3)] ?? ''
}

/** update_type of a device change: 0 register, 1 routine change, 2 move, 3 replace, 5 delete. */
export const UpdateType = { REGISTER: 0, CHANGE: 1, MOVE: 2, REPLACE: 3, DELETE: 5 } as const

const date = (requiredKey: string) => z.iso.date({ message: requiredKey })

/** The device list's filters (registered list, or the factory list with device_list_type 2). */
export const deviceListQuery = pageQuery.extend({
  /** 2: the factory list of every device made; otherwise the registered devices. */
  device_list_type: optionalInt(1, 2),
  device_sn: textFilter,
  model: z.string().trim().max(16).optional(),
  status: optionalInt(0, 4),
  /** A region code: the devices installed in it and below it. */
  address_code: regionFilter,
  /** Installed in the last 7, 30 or 90 days. */
  install_days: z.preprocess(
    emptyAsUnset,
    z.coerce
      .number()
      .pipe(z.union([z.literal(7), z.literal(30), z.literal(90)]))
      .optional(),
  ),
  /** A custom install range (YYYY-MM-DD, inclusive). */
  start_time: optionalDate(),
  end_time: optionalDate(),
  /** Battery band of the data dictionary: 0 exhausted, 1 low, 2 normal. */
  battery_state: optionalInt(0, 2),
  /** Expiry bands of the data dictionary (expiry_band, host_expiry_band): 0 expired ... 3 far. */
  battery_expire_state: optionalInt(0, 3),
  electrode_sheet_expire_state: optionalInt(0, 3),
  host_expire_state: optionalInt(0, 3),
  agency_id: optionalId(),
  manager_id: optionalId(),
  /** Factory list: '' all, 1 registered, 0 not. */
  is_register: optionalInt(0, 1),
  /** true: answer `data.file_url` of a 设备列表.xlsx of every matching row instead of a page. */
  export_xls: exportXls,
})
export type DeviceListQuery = z.output<typeof deviceListQuery>

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/

/** The register and change dialog (POST registers, PUT changes with update_type). */
export const deviceForm = z
  .object({
    device_sn: z.string({ message: 'DEVICE_SN_REQUIRED' }).trim().regex(DEVICE_SN, 'DEVICE_SN_REQUIRED'),
    agency_id: agencyPick,
    location: requiredText('DEVICE_LOCATION_REQUIRED', 200),
    location_desc: optionalText(200),
    address_code: optionalDistrict('ADDRESS_TO_DISTRICT'),
    ...pointInput('DEVICE_LOCATION_REQUIRED'),
    device_manager_id: z.number().int().positive().nullable().optional(),
    contact: optionalText(50),
    contact_phone: optionalText(20),
    open_state: z.union([z.literal(0), z.literal(1), z.literal(2)], { message: 'OPEN_STATE_REQUIRED' }),
    /** Days of the week it is open, 1 Monday ... 7 Sunday (semi-open only). */
    open_day: z.array(z.number().int().min(1).max(7)).max(7).default([]),
    /** Opening periods ['08:00', '18:00'] (semi-open only). */
    open_time_period: z
      .array(
        z.tuple([z.string().regex(HHMM, 'SETTINGS_TIME_INVALID'), z.string().regex(HHMM, 'TIME_FORMAT')]),
      )
      .max(4)
      .default([]),
    xcx_display: z.union([z.literal(0), z.literal(1)], { message: 'XCX_DISPLAY_REQUIRED' }),
    /** Super administrators only. */
    disable_abnormal_sms_notify: z.union([z.literal(0), z.literal(1)]).optional(),
    disable_abnormal_display: z.union([z.literal(0), z.literal(1)]).optional(),
    chest_shot_img: z.string({ message: 'CHEST_IMG_REQUIRED' }).trim().min(1, 'CHEST_IMG_REQUIRED').max(500),
    long_shot_img: z.string({ message: 'LONG_IMG_REQUIRED' }).trim().min(1, 'LONG_IMG_REQUIRED').max(500),
    battery_expire: date('BATTERY_EXPIRE_REQUIRED'),
    electrode_sheet_expire: date('ELECTRODE_EXPIRE_REQUIRED'),
    host_expire: date('HOST_EXPIRE_REQUIRED'),
    safety_radius: z
      .number({ message: 'SAFETY_RADIUS_RANGE' })
      .int()
      .min(0, 'SAFETY_RADIUS_RANGE')
      .max(10000, 'SAFETY_RADIUS_RANGE')
      .nullable()
      .optional(),
  })
  .superRefine((f, ctx) => {
    if (f.open_state === 1 && f.open_day.length === 0)
      ctx.addIssue({ code: 'custom', path: ['open_day'], message: 'OPEN_DAY_REQUIRED' })
    if (f.open_state === 1 && f.open_time_period.length === 0)
      ctx.addIssue({ code: 'custom', path: ['open_time_period'], message: 'OPEN_PERIOD_REQUIRED' })
    for (const [i, [a, b]] of f.open_time_period.entries()) {
      if (a >= b)
        ctx.addIssue({ code: 'custom', path: ['open_time_period', i], message: 'SETTINGS_TIME_ORDER' })
    }
  })
export type DeviceForm = z.output<typeof deviceForm>

/** A change from the device dialog: the form plus what kind of change it is. */
export const deviceUpdate = z.intersection(
  deviceForm,
  z.object({
    update_type: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'UPDATE_TYPE_REQUIRED' }),
    /** Replace (3): the serial of the device that takes the site. */
    new_device_sn: z.string().trim().max(32).optional(),
  }),
)
export type DeviceUpdate = z.output<typeof deviceUpdate>

/** Which device a row is: id, serial, model (from the serial) and the firmware it last reported. */
const deviceIdentity = {
  id: z.number().int(),
  device_sn: z.string(),
  model: z.string(),
  fw_version: z.string().nullable(),
}

/**
 * A device's status 0-4 (shown as 0 when disable_abnormal_display is 1) and whether it would work
 * if someone collapsed now (ready, not_ready, or unknown: offline, never reported), each labelled.
 */
export const deviceStateFields = {
  status: z.number().int(),
  status_text: z.string(),
  readiness: z.enum(READINESS),
  readiness_text: z.string(),
}

/** How a device's latest fix was made (the gateway's `positioning_type`), labelled. */
export const POSITIONING_TYPE_LABELS: Readonly<Record<string, Label>> = {
  gps: ['GPS定位', 'GPS'],
  lbs: ['基站定位', 'Cell towers (LBS)'],
  wifi: ['WiFi定位', 'Wi-Fi'],
}

/** A registered device as the list and the detail show it. */
export const deviceSchema = z.object({
  ...deviceIdentity,
  ...deviceStateFields,
  /** Why not ready (READINESS_REASONS keys), with their labels. */
  readiness_reasons: z.array(z.string()),
  readiness_reasons_text: z.array(z.string()),
  /** The last self-test that passed, and the last message of any kind ('YYYY-MM-DD HH:mm:ss'). */
  last_pass_time: z.string().nullable(),
  last_report_time: z.string().nullable(),
  /** The latest mobile signal (dBm) and how the latest fix was made (gps, lbs, wifi), as the device reported them. */
  rssi: z.number().int().nullable(),
  positioning_type: z.string().nullable(),
  /** The latest cable (electrode) voltage in volts: for system super administrators only, else null. */
  cable_voltage: z.number().nullable(),
  battery: z.number().int().nullable(),
  battery_expire: z.string(),
  electrode_sheet_expire: z.string(),
  host_expire: z.string(),
  register_code: z.string(),
  location: z.string(),
  location_desc: z.string().nullable(),
  address_code: z.string().nullable(),
  address_name: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  device_manager_id: z.number().int().nullable(),
  /** The manager's name and phone (masked in lists). */
  name: z.string().nullable(),
  phone: z.string().nullable(),
  ...agencyFields,
  contact: z.string().nullable(),
  contact_phone: z.string().nullable(),
  open_state: z.number().int(),
  open_day: z.array(z.number().int()),
  open_time_period: z.array(z.tuple([z.string(), z.string()])),
  xcx_display: z.number().int(),
  disable_abnormal_sms_notify: z.number().int(),
  disable_abnormal_display: z.number().int(),
  chest_shot_img: z.string(),
  long_shot_img: z.string(),
  safety_radius: z.number().int().nullable(),
  register_time: z.string(),
  registrant: z.string().nullable(),
  /**
   * What the signed-in member may do with this device (computed on the server): edit with EDIT,
   * delete with ALL, send a command (self-test, locate) as a super administrator.
   */
  can: z.object({ edit: z.boolean(), delete: z.boolean(), command: z.boolean() }),
})
export type Device = z.infer<typeof deviceSchema>

/** A device of the factory list. */
export const factoryDeviceSchema = z.object({
  ...deviceIdentity,
  ...agencyFields,
  create_time: z.string(),
  /** 1 registered (installed at a site), 0 not. */
  is_register: z.union([z.literal(0), z.literal(1)]),
  can: z.object({ delete: z.boolean() }),
})
export type FactoryDevice = z.infer<typeof factoryDeviceSchema>

/** What the signed-in member may do from the device pages' toolbars (computed on the server by the rules its writes enforce). */
export const deviceListCanSchema = z.object({
  /** Register a device, and export the list: EDIT on devices. */
  register: z.boolean(),
  export: z.boolean(),
  /** The device dialog's switches (abnormal-status SMS off, abnormal display off): super administrators. */
  abnormal_switches: z.boolean(),
  /** 清除安装信息: ALL on devices; every record a device reported ('all'): system super administrators. */
  clean: z.boolean(),
  clean_all: z.boolean(),
  /** The electrode-voltage column (cable_voltage): system super administrators. */
  cable_voltage: z.boolean(),
  /** The factory list: import (EDIT, outside ordinary organisations), assign (super administrators with EDIT), delete (ALL). */
  import: z.boolean(),
  assign: z.boolean(),
  delete: z.boolean(),
})
export type DeviceListCan = z.infer<typeof deviceListCanSchema>

/** One row of an installation's change record. */
export const changeRecordSchema = z.object({
  update_time: z.string(),
  updator: z.string(),
  update_field: z.string(),
  old_device_sn: z.string().nullable(),
  update_type: z.number().int(),
})

export const credentialSchema = z.object({ sn: z.string(), secret: z.string() })

/** Every device call of the device pages. */
export const deviceApi = {
  list: get('/api/v1/device/', {
    summary:
      'Registered devices (device_list_type=2: the factory list); export_xls=true answers data.file_url',
    query: deviceListQuery,
    response: pageOrExport(
      paged(z.union([deviceSchema, factoryDeviceSchema])).extend({ can: deviceListCanSchema }),
    ),
  }),
  register: post('/api/v1/device/', {
    summary: 'Register a device of the factory list at a site',
    body: deviceForm,
    response: deviceSchema,
  }),
  detail: get('/api/v1/device/:id', {
    summary: 'One registered device',
    params: idParams,
    response: deviceSchema,
  }),
  update: put('/api/v1/device/:id', {
    summary: 'Routine change (1), move (2) or replace (3) of an installed device',
    params: idParams,
    body: deviceUpdate,
    response: deviceSchema,
  }),
  remove: del('/api/v1/device/:id', {
    summary:
      'Delete the install information (the device goes back to unregistered); device_list_type=2 deletes a factory device',
    params: idParams,
    query: z.object({ device_list_type: optionalInt(1, 2) }),
    response: z.object({ id: z.number().int(), device_sn: z.string(), register_code: z.string().nullable() }),
  }),
  assign: put('/api/v1/device/agency-assign', {
    summary: 'Assign factory devices to an organisation',
    body: z.object({ agency_id: agencyPick, device_ids: assignIds }),
    response: z.object({ ...agencyFields, device_sn_list: z.array(z.string()) }),
  }),
  changeRecord: get('/api/v1/device/change-record/', {
    summary: 'The change record of an installation',
    query: z.object({ register_code: z.string().trim().min(1).max(32) }),
    response: paged(changeRecordSchema),
  }),
  credential: get('/api/v1/device/:id/credential', {
    summary: 'The device secret (system super administrators; written to the operation log)',
    params: idParams,
    response: credentialSchema,
  }),
  rotateCredential: post('/api/v1/device/:id/credential', {
    summary: 'Issue a new device secret; the old one keeps working for 24 hours',
    params: idParams,
    response: credentialSchema,
  }),
}
