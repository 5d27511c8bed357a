import { z } from 'zod'
import { del, get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import {
  agencyFields,
  emptyAsUnset,
  exportXls,
  optionalDistrict,
  optionalId,
  optionalInt,
  regionFilter,
  textFilter,
} from './fields.ts'
import { importForm } from './import.ts'

// 急救人员 (first-aid responders): the spec's aid-man register (console-shell-and-admin.md 2, 3,
// 5, 7) and what a responder network needs besides: certificates that expire, pauses, a history.

/** The responder form's phone pattern (spec 5): 1, then 3, 4, 5, 7 or 8, then nine digits. */
export const RESPONDER_PHONE = /^1[34578]\d{9}$/

/** An image the certificate may be: the console's upload of jpg, jpeg or png (stored URL or path). */
export const CERT_IMAGE_URL = /^(https?:\/\/|\/)\S+\.(png|jpe?g)(\?\S*)?$/i

/** The upload's allow_suffix for a certificate image. */
export const CERT_IMAGE_SUFFIX = 'png,jpeg,jpg'

/** Days before a certificate's expiry when the responder and the organisation are reminded. */
export const CERT_REMINDER_DAYS = [30, 7] as const

/** The list's and the export's largest page: a whole organisation's register. */
export const RESPONDER_EXPORT_MAX = 50_000

/** The import file's largest size (multipart). */
export const RESPONDER_IMPORT_MAX_BYTES = 5 * 1024 * 1024

/** The import's largest sheet. */
export const RESPONDER_IMPORT_MAX_ROWS = 5000

/** The import template's columns, in order (text cells). */
export const RESPONDER_TEMPLATE_HEADERS = [
  '姓名',
  '电话',
  '性别',
  '出生日期',
  '邮箱',
  '常驻地址',
  '具体位置',
  '经度',
  '纬度',
  '区域编码',
  '急救资质',
  '证书编号',
  '证书有效期',
  '绑定机构设备',
] as const

/** aid_aptitude: 0 non-professional, 1 professional. */
export const AidAptitude = { LAY: 0, PROFESSIONAL: 1 } as const

/**
 * Whether a responder can be alerted now, and if not why: `ready`; `paused` (on holiday, moved
 * away); `certificate_expired` (a professional whose certificate ran out). Paused wins.
 */
export const DISPATCH_STATES = ['ready', 'paused', 'certificate_expired'] as const
export type DispatchState = (typeof DISPATCH_STATES)[number]

/**
 * What a responder's history records: created, edited, imported, certificate renewed, paused,
 * resumed, reminded 30 or 7 days before expiry, expired.
 */
export const RESPONDER_CHANGE_KINDS = [
  'created',
  'updated',
  'imported',
  'renewed',
  'paused',
  'resumed',
  'reminded_30',
  'reminded_7',
  'expired',
] as const
export type ResponderChangeKind = (typeof RESPONDER_CHANGE_KINDS)[number]

/** A YYYY-MM-DD date a form may send as '' or null when cleared. */
const formDate = (required: string) =>
  z.preprocess((v) => (v === '' ? null : v), z.iso.date({ message: required }).nullable().optional())

const text = (max: number) => z.string().trim().max(max, 'TEXT_TOO_LONG')

/**
 * The person, as the dialog sends it (the spec's nested account). Keys are in the order of the
 * dialog's submit-time checks, so the first refusal is the one the console would show.
 */
export const responderAccountForm = z.object({
  phone: z
    .string({ message: 'CONTACT_PHONE_REQUIRED' })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, 'CONTACT_PHONE_REQUIRED')
        .length(11, 'CONTACT_PHONE_WRONG')
        .regex(RESPONDER_PHONE, 'RESPONDER_PHONE_PATTERN'),
    ),
  name: z
    .string({ message: 'RESPONDER_NAME_REQUIRED' })
    .trim()
    .min(1, 'RESPONDER_NAME_REQUIRED')
    .max(50, 'TEXT_TOO_LONG'),
  birth: z.preprocess((v) => (v === '' ? undefined : v), z.iso.date({ message: 'BIRTH_REQUIRED' })),
  gender: z.union([z.literal(1), z.literal(2)], { message: 'GENDER_REQUIRED' }),
  lat: z.number({ message: 'ADDRESS_PICK' }).min(-90, 'ADDRESS_PICK').max(90, 'ADDRESS_PICK'),
  lon: z.number({ message: 'RESPONDER_POINT_REQUIRED' }).min(-180).max(180),
  /** The resident address (常驻地址) as the picker or search named it. */
  location: z.string({ message: 'RESIDENCE_PICK' }).trim().min(1, 'RESIDENCE_PICK').max(200, 'TEXT_TOO_LONG'),
  /** 具体位置: building, floor, room. */
  location_desc: text(200).nullable().optional(),
  address_code: optionalDistrict('ADDRESS_PICK'),
  email: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .trim()
      .max(100, 'TEXT_TOO_LONG')
      .regex(/^\w+([-+.]\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*$/, 'EMAIL_WRONG')
      .nullable()
      .optional(),
  ),
})

/** A certificate's fields (professionals): number, expiry and image, all required then. */
const certificateFields = {
  certificate_num: z.preprocess((v) => (v === '' ? null : v), text(50).nullable().optional()),
  certificate_expire: formDate('CERT_EXPIRE_REQUIRED'),
  certificate_img: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .trim()
      .max(500, 'TEXT_TOO_LONG')
      .regex(CERT_IMAGE_URL, 'CERT_IMG_NOT_IMAGE')
      .nullable()
      .optional(),
  ),
}

/** The add / edit dialog's save payload (spec 3): the account, qualification, certificate, organisation, bound flag. */
export const responderForm = z
  .object({
    /** The looked-up account; the phone decides which account is used, this is informative. */
    account_id: z.number().int().positive().nullable().optional(),
    account: responderAccountForm,
    aid_aptitude: z.union([z.literal(0), z.literal(1)], { message: 'APTITUDE_REQUIRED' }),
    ...certificateFields,
    agency_id: z.number({ message: 'MEMBER_AGENCY_REQUIRED' }).int().positive('MEMBER_AGENCY_REQUIRED'),
    /** 1: the responder may use the organisation's devices (绑定机构设备). */
    status: z.union([z.literal(0), z.literal(1)], { message: 'BIND_DEVICE_REQUIRED' }),
  })
  .superRefine((f, c) => {
    if (f.aid_aptitude !== AidAptitude.PROFESSIONAL) return
    if (!f.certificate_img)
      c.addIssue({ code: 'custom', message: 'CERT_IMG_REQUIRED', path: ['certificate_img'] })
    if (!f.certificate_num)
      c.addIssue({ code: 'custom', message: 'CERT_NUM_REQUIRED', path: ['certificate_num'] })
    if (!f.certificate_expire)
      c.addIssue({ code: 'custom', message: 'CERT_EXPIRE_REQUIRED', path: ['certificate_expire'] })
  })
export type ResponderForm = z.output<typeof responderForm>
export type ResponderFormIn = z.input<typeof responderForm>

/** A certificate renewal: a new expiry after today and a new image (the number may change too). */
export const responderRenewForm = z.object({
  certificate_num: z.preprocess(
    (v) => (v === '' ? undefined : v),
    text(50).min(1, 'CERT_NUM_REQUIRED').optional(),
  ),
  certificate_expire: z.iso.date({ message: 'CERT_EXPIRE_REQUIRED' }),
  certificate_img: z
    .string({ message: 'CERT_IMG_REQUIRED' })
    .trim()
    .min(1, 'CERT_IMG_REQUIRED')
    .max(500, 'TEXT_TOO_LONG')
    .regex(CERT_IMAGE_URL, 'CERT_IMG_NOT_IMAGE'),
})
export type ResponderRenewForm = z.output<typeof responderRenewForm>

/** Pause (with why) or resume a responder's alerts. */
export const responderAvailabilityForm = z.object({
  paused: z.boolean({ message: 'INVALID_INPUT' }),
  reason: z.preprocess((v) => (v === '' ? null : v), text(100).nullable().optional()),
})
export type ResponderAvailabilityForm = z.output<typeof responderAvailabilityForm>

const account = z.object({
  id: z.number().int(),
  name: z.string(),
  gender: z.number().int().nullable(),
  birth: z.string().nullable(),
  /** Masked (3+****+4) in lists and exports, whole in the detail. */
  phone: z.string(),
  /** Masked in lists and exports. */
  email: z.string().nullable(),
  address_code: z.string().nullable(),
  location: z.string().nullable(),
  location_desc: z.string().nullable(),
  lon: z.number().nullable(),
  lat: z.number().nullable(),
})

/** A responder as listed, fetched and exported (spec 3 plus dispatch state and pause). */
export const responderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  gender: z.number().int().nullable(),
  birth: z.string().nullable(),
  /** Whole years on today's date (the organisations' time zone); derived, never stored. */
  age: z.number().int().nullable(),
  phone: z.string(),
  email: z.string().nullable(),
  location: z.string().nullable(),
  location_desc: z.string().nullable(),
  address_code: z.string().nullable(),
  lon: z.number().nullable(),
  lat: z.number().nullable(),
  aid_aptitude: z.number().int(),
  certificate_num: z.string().nullable(),
  certificate_expire: z.string().nullable(),
  certificate_img: z.string().nullable(),
  /** 1 valid, 0 expired, derived from the expiry and today; null for non-professionals (shown as a dash). */
  certificate_status: z.number().int().nullable(),
  /** Days until the certificate expires (negative after); null for non-professionals. */
  certificate_days_left: z.number().int().nullable(),
  ...agencyFields,
  /** 1: bound to the organisation's devices (绑定机构设备). */
  status: z.number().int(),
  paused: z.boolean(),
  pause_reason: z.string().nullable(),
  /** An approved public volunteer (公共志愿者, issue 27): alerted while 后台配置 says so. */
  volunteer: z.boolean(),
  /** Whether an alert may reach this responder now, and why not. */
  dispatch_state: z.enum(DISPATCH_STATES),
  creator: z.string().nullable(),
  create_time: z.string(),
  updator: z.string().nullable(),
  /** The spec's "updater name" (the same as updator). */
  updator_name: z.string().nullable(),
  update_time: z.string(),
  account,
  /** What the signed-in member may do with this responder (computed on the server). */
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
})
export type Responder = z.infer<typeof responderSchema>

/** What the signed-in member may do from the list's toolbar: register and import with aid_man EDIT. */
export const responderListCanSchema = z.object({ create: z.boolean() })

export const responderListQuery = pageQuery.extend({
  page_size: z.coerce.number().int().min(1).max(500).default(10),
  name: textFilter,
  aid_aptitude: optionalInt(0, 1),
  certificate_status: optionalInt(0, 1),
  agency_id: optionalId(),
  /** ready, paused or certificate_expired. */
  dispatch_state: z.preprocess(emptyAsUnset, z.enum(DISPATCH_STATES).optional()),
  export_xls: exportXls,
})
export type ResponderListQuery = z.output<typeof responderListQuery>

/** export_xls=true: 急救人员列表.xlsx as base64 (spec: data.file_base64). */
export const responderExport = z.object({ file_base64: z.string(), count: z.number().int() })

/** The list's answer: a page, or the export. */
export const responderListAnswer = z.union([
  paged(responderSchema).extend({ can: responderListCanSchema }),
  responderExport,
])

/** One line of a responder's history (人员记录). */
export const responderChangeSchema = z.object({
  id: z.number().int(),
  kind: z.enum(RESPONDER_CHANGE_KINDS),
  /** What changed, in the reader's language (fields, the new expiry, the pause reason). */
  detail: z.string(),
  /** Who did it; null for the system (the daily certificate check). */
  operator: z.string().nullable(),
  create_time: z.string(),
})
export type ResponderChange = z.infer<typeof responderChangeSchema>

export const responderImportResult = z.object({
  count: z.number().int(),
  /** Of them, professionals. */
  professional: z.number().int(),
  ...agencyFields,
})
export type ResponderImportResult = z.infer<typeof responderImportResult>

/** A layer point's dispatch state: 0 ready, 1 paused, 2 certificate expired (DISPATCH_STATES' order). */
export const LAYER_STATES = DISPATCH_STATES

/**
 * One responder on the dashboard's layer 5, as a plain array (a province holds 20,000):
 * [id, lon, lat, aid_aptitude, state (index in LAYER_STATES), name].
 */
export const responderPointSchema = z.tuple([
  z.number().int(),
  z.number(),
  z.number(),
  z.number().int(),
  z.number().int().min(0).max(2),
  z.string(),
])
export type ResponderPoint = z.infer<typeof responderPointSchema>

/** The layer's answer: the points in `resource` (spec: "responder locations in a resource list"). */
export const responderLocationsSchema = z.object({
  /** Points in `resource`. */
  count: z.number().int(),
  /** True when the region held more than RESPONDER_LAYER_MAX: the newest are shown. */
  more: z.boolean(),
  resource: z.array(responderPointSchema),
})

/** The layer's largest answer: a whole province of responders. */
export const RESPONDER_LAYER_MAX = 50_000

/** The deleted responder, for the operation log. */
export const responderDeleted = z.object({ id: z.number(), name: z.string(), agency_name: z.string() })

/** Every call of the responder page (急救人员列表) and of the dashboard's responder layer. */
export const responderApi = {
  list: get('/api/v1/aid-man/', {
    summary:
      'Responders of the subtree (filters name, aid_aptitude, certificate_status, agency_id, dispatch_state; phones and emails masked); export_xls=true answers 急救人员列表.xlsx in data.file_base64',
    query: responderListQuery,
    response: responderListAnswer,
  }),
  create: post('/api/v1/aid-man/', {
    summary: 'Register a responder (the phone’s account is reused or created)',
    body: responderForm,
    response: responderSchema,
  }),
  uploadInfo: get('/api/v1/aid-man/upload-info', {
    summary: 'The responder import template (.xlsx URL)',
    response: z.object({ template_url: z.string() }),
  }),
  importResponders: post('/api/v1/aid-man/import', {
    summary:
      'Import responders (multipart: import_file, agency_id): every row or none; a refusal answers 导入失败！ with data.file_base64 of the rows and their reasons',
    body: importForm,
    response: responderImportResult,
  }),
  detail: get('/api/v1/aid-man/:id', {
    summary: 'One responder (phone and email whole)',
    params: idParams,
    response: responderSchema,
  }),
  update: put('/api/v1/aid-man/:id', {
    summary: 'Edit a responder (the phone stays the account’s)',
    params: idParams,
    body: responderForm,
    response: responderSchema,
  }),
  remove: del('/api/v1/aid-man/:id', {
    summary: 'Delete a responder (the account stays)',
    params: idParams,
    response: responderDeleted,
  }),
  renew: put('/api/v1/aid-man/:id/certificate/', {
    summary: 'Renew a professional’s certificate: a new expiry after today and a new image',
    params: idParams,
    body: responderRenewForm,
    response: responderSchema,
  }),
  setAvailability: put('/api/v1/aid-man/:id/availability/', {
    summary: 'Pause (with a reason) or resume a responder’s alerts',
    params: idParams,
    body: responderAvailabilityForm,
    response: responderSchema,
  }),
  changes: get('/api/v1/aid-man/:id/changes/', {
    summary: 'A responder’s history, newest first',
    params: idParams,
    query: pageQuery,
    response: paged(responderChangeSchema),
  }),
  location: get('/api/v1/analysis-board/aid-man/location/', {
    summary: 'Responders of the scope in the region (address_code) with a place, for the dashboard’s layer 5',
    query: z.object({ address_code: regionFilter }),
    response: responderLocationsSchema,
  }),
}
