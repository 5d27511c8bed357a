import { z } from 'zod'
import { deviceSchema } from './device.ts'
import { get, post } from './endpoint.ts'
import { paged, pageQuery, pageSize } from './envelope.ts'
import { faultSourceFields, handledByFields, offsetFields, warningFields } from './event.ts'
import { blankAsUnset, count, optionalDate, requiredText } from './fields.ts'
import { STORED_IMAGE_URL } from './files.ts'

/** The serial the detail is opened for. */
const serial = requiredText('DEVICE_SN_REQUIRED', 32, 'DEVICE_SN_REQUIRED')

/** From a rescue event: its rows (usage log), or the records of its span (the other tabs). */
const rescueEventId = z.preprocess(blankAsUnset, z.string().trim().max(64).optional())

/** Tabs answered one object or a short page: the device itself, or the usage log (10 a page). */
export const singleDetailQuery = pageQuery.extend({
  device_sn: serial,
  data_type: z.enum(['base', 'usage_log'], { message: 'DETAIL_TYPE_INVALID' }),
  rescue_event_id: rescueEventId,
})
export type SingleDetailQuery = z.output<typeof singleDetailQuery>

/** The record tabs of the detail, 500 a page. */
export const pageDetailQuery = pageQuery.extend({
  device_sn: serial,
  data_type: z.enum(['detect', 'early_warn', 'fault', 'inspect', 'offset'], {
    message: 'DETAIL_TYPE_INVALID',
  }),
  rescue_event_id: rescueEventId,
  page_size: pageSize(500, 500),
})
export type PageDetailQuery = z.output<typeof pageDetailQuery>
export type PageDetailType = PageDetailQuery['data_type']

// Rows are strict objects so that a list of one kind can never be read as another.

/** A self-test the device reported (detection record). */
export const detectRowSchema = z.strictObject({
  id: z.number().int(),
  /** -1 user inspection, 0 power-on, 1 standby, 2 user self-test. */
  report_type: z.number().int(),
  report_type_text: z.string(),
  /** 1 passed, 0 failed. */
  check_result: z.number().int(),
  fault_codes: z.array(z.string()),
  battery: z.number().int().nullable(),
  check_time: z.string(),
})
export type DetectRow = z.infer<typeof detectRowSchema>

/** An early warning: event_type is its code (what kind of warning); invalid_time when it cleared. */
export const earlyWarnRowSchema = z.strictObject({
  id: z.number().int(),
  event_type: z.string(),
  event_code: z.string(),
  ...warningFields,
})
export type EarlyWarnRow = z.infer<typeof earlyWarnRowSchema>

/** A fault a self-test found, until a later one passed (recover_time); who handled it and how. */
export const faultRowSchema = z.strictObject({
  id: z.number().int(),
  ...faultSourceFields,
  fault_code: z.string(),
  fault_desc: z.string().nullable(),
  check_time: z.string(),
  recover_time: z.string().nullable(),
  ...handledByFields,
})
export type FaultRow = z.infer<typeof faultRowSchema>

/** A routine inspection staff recorded. */
export const inspectRowSchema = z.strictObject({
  id: z.number().int(),
  /** 1 normal, 0 abnormal. */
  inspect_status: z.number().int(),
  process_content: z.string(),
  inspector_name: z.string(),
  inspect_time: z.string(),
  /** Up to two photos (INSPECTION_IMGS_MAX). */
  imgs: z.array(z.string()),
})
export type InspectRow = z.infer<typeof inspectRowSchema>

/** A location offset: where the device was found, how far (metres) from where it is installed. */
export const offsetRowSchema = z.strictObject({
  id: z.number().int(),
  ...offsetFields,
  recover_time: z.string().nullable(),
})
export type OffsetRow = z.infer<typeof offsetRowSchema>

/** A step of a rescue as the device reported it. */
export const usageLogRowSchema = z.strictObject({
  id: z.number().int(),
  rescue_event_id: z.string(),
  event_desc: z.string(),
  event_para: z.string().nullable(),
  event_time: z.string(),
})
export type UsageLogRow = z.infer<typeof usageLogRowSchema>

/** How many photos an inspection keeps (as a third-party AED's install_imgs). */
export const INSPECTION_IMGS_MAX = 2

/** A routine inspection from the detail. */
export const inspectionForm = z.object({
  device_sn: serial,
  inspect_status: z.union([z.literal(0), z.literal(1)], { message: 'INSPECT_STATUS_REQUIRED' }),
  process_content: z.string().trim().max(500, 'TEXT_TOO_LONG').default(''),
  inspector_name: requiredText('INSPECTOR_REQUIRED', 50),
  /** ISO 8601 with its offset; not in the future. */
  inspect_time: z.iso.datetime({ offset: true, message: 'INSPECT_TIME_REQUIRED' }),
  /** Photos uploaded through the files endpoint (their access_url), at most two. */
  imgs: z.preprocess(
    (v) => (Array.isArray(v) ? v.filter((x) => x !== '' && x !== null) : v),
    z
      .array(z.string().trim().max(500, 'TEXT_TOO_LONG').regex(STORED_IMAGE_URL, 'REVIEW_IMAGE_INVALID'))
      .max(INSPECTION_IMGS_MAX, 'INSTALL_IMGS_TOO_MANY')
      .default([]),
  ),
})
export type InspectionForm = z.output<typeof inspectionForm>

/** What the clean-up deletes: 1 rescue events, 2 warnings, 3 offsets, 4 faults; 'all' everything. */
export const CleanType = { RESCUE: 1, WARNING: 2, OFFSET: 3, FAULT: 4, ALL: 'all' } as const
const cleanType = z.preprocess(
  (v) => (typeof v === 'string' && /^[1-4]$/.test(v) ? Number(v) : v),
  z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal('all')], {
    message: 'CLEAN_TYPE_REQUIRED',
  }),
)
export type CleanTypeValue = 1 | 2 | 3 | 4 | 'all'

/** Delete install info by serial: which records, in which date range (inclusive; open ends allowed). */
export const cleanForm = z.object({
  device_sn: requiredText('CLEAN_SN_REQUIRED', 32, 'CLEAN_SN_INVALID'),
  /** A list; a single value is taken as a list of one; none is refused (请选择删除信息！). */
  data_type: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(cleanType).max(5, 'CLEAN_TYPE_REQUIRED'),
  ),
  start_time: optionalDate(blankAsUnset),
  end_time: optionalDate(blankAsUnset),
})
export type CleanForm = z.output<typeof cleanForm>

/** How many rows of each kind the clean-up deleted (usage logs go with their rescue). */
export const cleanAnswer = z.object({
  device_sn: z.string(),
  data_type: z.array(z.union([z.number().int(), z.literal('all')])),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  deleted: z.object({
    rescue: count,
    early_warn: count,
    offset: count,
    fault: count,
    offline: count,
    detect: count,
  }),
})
export type CleanAnswer = z.infer<typeof cleanAnswer>

/** The device detail's tabs and what writes or clears their records. */
export const deviceDetailApi = {
  single: get('/api/v1/device/single-detail/', {
    summary:
      'Device detail by serial: data_type=base the device, usage_log its usage log (10 a page; rescue_event_id: one rescue)',
    query: singleDetailQuery,
    response: z.union([deviceSchema, paged(usageLogRowSchema)]),
  }),
  page: get('/api/v1/device/page-detail/', {
    summary:
      'A record tab of the device detail (detect, early_warn, fault, inspect, offset), newest first, 500 a page; rescue_event_id: the rescue’s span',
    query: pageDetailQuery,
    response: paged(
      z.union([detectRowSchema, earlyWarnRowSchema, faultRowSchema, inspectRowSchema, offsetRowSchema]),
    ),
  }),
  inspect: post('/api/v1/device/inspection/', {
    summary: 'Record a routine inspection of a registered device',
    body: inspectionForm,
    response: inspectRowSchema.extend({ device_sn: z.string() }),
  }),
  clean: post('/api/v1/device/setup/clean/', {
    summary:
      'Delete install info by serial: rescue events (1), warnings (2), offsets (3), faults (4) in a date range; all: every record the device reported (system super administrators)',
    body: cleanForm,
    response: cleanAnswer,
  }),
}
