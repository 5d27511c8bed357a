import { z } from 'zod'
import { chinaPoint } from './call.ts'
import { AED_BRANDS } from './constants.ts'
import { del, get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import { emptyAsUnset, exportXls, optionalInt, textFilter } from './fields.ts'
import { STORED_IMAGE_URL } from './files.ts'

// 公众审核 (public review, spec 2.6-2.8): volunteers and third-party AEDs the public submits
// through an integrator (the mini-program's server, open API), reviewed by the system
// organisation; and the two system-wide switches of 后台配置.

/** audit_status: 1 in review, 2 approved, 0 rejected (spec 4). */
export const AuditStatus = { REJECTED: 0, IN_REVIEW: 1, APPROVED: 2 } as const

/** The tabs in the spec's order: in review, approved, rejected. */
export const AUDIT_TABS = [1, 2, 0] as const

/** At most two site photos of a third-party AED (spec 9). */
export const INSTALL_IMGS_MAX = 2

/** The upload's allow_suffix for a review image (spec 5: jpg, jpeg, png). */
export const REVIEW_IMAGE_SUFFIX = 'png,jpeg,jpg'

/** An image a submission may name: a jpg, jpeg or png this server stores (an upload's access_url). */
export const REVIEW_IMAGE_URL = STORED_IMAGE_URL

/** A third-party AED this close (metres) to one of ours or an approved one, with a similar place, is a possible duplicate. */
export const DUPLICATE_RADIUS_M = 50

/** Trigram similarity (pg_trgm) of the place texts at or above which two nearby AEDs look alike. */
export const DUPLICATE_SIMILARITY = 0.3

/** The brands a third-party AED may be (the Chinese name is stored). */
export const BRAND_NAMES = AED_BRANDS.map((b) => b.name) as [string, ...string[]]

/** A submitter's phone: a mainland mobile. */
export const SUBMITTER_PHONE = /^1[3-9]\d{9}$/

const { lat, lon } = chinaPoint('REVIEW_PLACE_REQUIRED', 'REVIEW_OUTSIDE_CHINA')

const image = (required: string) =>
  z
    .string({ message: required })
    .trim()
    .min(1, required)
    .max(500, 'TEXT_TOO_LONG')
    .regex(REVIEW_IMAGE_URL, 'REVIEW_IMAGE_INVALID')

const submitter = {
  submitter_name: z
    .string({ message: 'SUBMITTER_NAME_REQUIRED' })
    .trim()
    .min(1, 'SUBMITTER_NAME_REQUIRED')
    .max(50, 'TEXT_TOO_LONG'),
  submitter_phone: z
    .string({ message: 'SUBMITTER_PHONE_REQUIRED' })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().min(1, 'SUBMITTER_PHONE_REQUIRED').regex(SUBMITTER_PHONE, 'SUBMITTER_PHONE_INVALID')),
}

const brand = z.enum(BRAND_NAMES, { message: 'BRAND_REQUIRED' })

/** The images of a third-party AED: one or two stored jpg/jpeg/png. */
const installImgs = z
  .array(image('INSTALL_IMG_REQUIRED'), { message: 'INSTALL_IMG_REQUIRED' })
  .min(1, 'INSTALL_IMG_REQUIRED')
  .max(INSTALL_IMGS_MAX, 'INSTALL_IMGS_TOO_MANY')

/** The place of a third-party AED (GCJ-02 unless the open API's coord says otherwise). */
const aedPlace = {
  /** The install address (navigation address). */
  location: z
    .string({ message: 'AED_LOCATION_REQUIRED' })
    .trim()
    .min(1, 'AED_LOCATION_REQUIRED')
    .max(200, 'TEXT_TOO_LONG'),
  /** Where in the building. */
  location_desc: z.preprocess(
    (v) => (v === '' ? null : v),
    z.string().trim().max(200, 'TEXT_TOO_LONG').nullable().optional(),
  ),
  address_code: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .regex(/^\d{6}$/, 'REVIEW_REGION_INVALID')
      .nullable()
      .optional(),
  ),
  lat,
  lon,
}

const coord = z.enum(['gcj02', 'wgs84'], { message: 'OPEN_API_COORD_INVALID' }).default('gcj02')

/** POST /open-api/v1/volunteer/: a citizen volunteers as a responder (spec 3's fields, and where they guard). */
export const volunteerSubmission = z
  .object({
    ...submitter,
    /** The area the volunteer guards (守护区域), as words. */
    guard_area: z
      .string({ message: 'GUARD_AREA_REQUIRED' })
      .trim()
      .min(1, 'GUARD_AREA_REQUIRED')
      .max(200, 'TEXT_TOO_LONG'),
    /** 1: holds a first-aid certificate (its image in cert_img). */
    has_cert: z.union([z.literal(0), z.literal(1)], { message: 'HAS_CERT_REQUIRED' }),
    cert_img: z.preprocess((v) => (v === '' ? null : v), image('CERT_IMG_REQUIRED').nullable().optional()),
    /** The guarded area's point (optional: else found from guard_area by the map provider); dispatch alerts from it. */
    lat: lat.optional(),
    lon: lon.optional(),
    coord,
  })
  .superRefine((f, c) => {
    if (f.has_cert === 1 && !f.cert_img)
      c.addIssue({ code: 'custom', message: 'CERT_IMG_REQUIRED', path: ['cert_img'] })
    if ((f.lat === undefined) !== (f.lon === undefined))
      c.addIssue({ code: 'custom', message: 'REVIEW_PLACE_REQUIRED', path: ['lat'] })
  })
export type VolunteerSubmission = z.output<typeof volunteerSubmission>

/** POST /open-api/v1/third-party-aed/: an AED someone else owns, reported by a citizen. */
export const thirdPartyAedSubmission = z.object({
  brand,
  ...aedPlace,
  install_imgs: installImgs,
  ...submitter,
  /** The AED's serial if the submitter read it (a duplicate of one of ours is then certain). */
  device_sn: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'OPEN_API_SN_INVALID')
      .nullable()
      .optional(),
  ),
  coord,
})
export type ThirdPartyAedSubmission = z.output<typeof thirdPartyAedSubmission>

/** A submission's answer: its id and state; `created` false when the same submission came before. */
export const submissionAnswer = z.object({
  id: z.number().int(),
  created: z.boolean(),
  audit_status: z.number().int(),
})

/** What a possible duplicate is like: one of our AEDs, an approved third-party AED, or a responder (by phone). */
export const DUPLICATE_KINDS = ['device', 'third_party', 'responder'] as const

/** One possible duplicate of a submission, for the reviewer to compare side by side. */
export const duplicateSchema = z.object({
  kind: z.enum(DUPLICATE_KINDS),
  id: z.number().int(),
  /** The device's serial (device), the AED's serial if known (third_party), null for responders. */
  sn: z.string().nullable(),
  /** What the other record is called: the device's address, the AED's brand and address, the responder's name. */
  label: z.string(),
  /** Metres from the submission (AEDs). */
  distance: z.number().int().nullable(),
  /** Trigram similarity of the place texts, 0-1 (AEDs). */
  similarity: z.number().nullable(),
  /** Why it was matched: the same serial, near with a similar place, or the same phone. */
  reason: z.enum(['sn', 'place', 'phone']),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  location_desc: z.string().nullable(),
  /** Photos (close-up and far view of a device, site photos of a third-party AED). */
  photos: z.array(z.string()),
})
export type Duplicate = z.infer<typeof duplicateSchema>

/** What the signed-in member may do with a row (computed on the server). */
const rowCan = z.object({ audit: z.boolean(), edit: z.boolean(), delete: z.boolean() })

/** A volunteer as the review page lists it (spec 3). */
export const volunteerSchema = z.object({
  id: z.number().int(),
  submitter_name: z.string(),
  /** Masked (3+****+4) in the list and the export. */
  submitter_phone: z.string(),
  guard_area: z.string(),
  has_cert: z.number().int(),
  cert_img: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  create_time: z.string(),
  audit_time: z.string().nullable(),
  audit_status: z.number().int(),
  rejected_reason: z.string().nullable(),
  /** Who decided. */
  auditor: z.string().nullable(),
  /** The integrator's organisation that sent it. */
  source: z.string().nullable(),
  /** The responder entry approval made or joined (dispatch alerts it). */
  responder_id: z.number().int().nullable(),
  duplicates: z.array(duplicateSchema),
  can: rowCan,
})
export type Volunteer = z.infer<typeof volunteerSchema>

/** A third-party AED as the review page lists it (spec 3). */
export const thirdPartyAedSchema = z.object({
  id: z.number().int(),
  brand: z.string(),
  location: z.string(),
  location_desc: z.string().nullable(),
  address_code: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  install_imgs: z.array(z.string()),
  device_sn: z.string().nullable(),
  submitter_name: z.string(),
  /** Masked in the list and the export. */
  submitter_phone: z.string(),
  create_time: z.string(),
  audit_time: z.string().nullable(),
  audit_status: z.number().int(),
  rejected_reason: z.string().nullable(),
  auditor: z.string().nullable(),
  source: z.string().nullable(),
  duplicates: z.array(duplicateSchema),
  can: rowCan,
})
export type ThirdPartyAed = z.infer<typeof thirdPartyAedSchema>

/** An absent or empty audit_status is the in-review tab (issue 27). */
const auditStatusFilter = z.preprocess(
  (v) => (v === undefined || v === '' || v === null ? 1 : v),
  z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n === 1 || n === 2, 'INVALID_INPUT'),
)

export const volunteerListQuery = pageQuery.extend({
  audit_status: auditStatusFilter,
  name: textFilter,
  has_cert: optionalInt(0, 1),
  export_xls: exportXls,
})
export type VolunteerListQuery = z.output<typeof volunteerListQuery>

export const thirdPartyListQuery = pageQuery.extend({
  audit_status: auditStatusFilter,
  brand: z.preprocess(emptyAsUnset, brand.optional()),
  export_xls: exportXls,
})
export type ThirdPartyListQuery = z.output<typeof thirdPartyListQuery>

/** export_xls=true: the approved tab's file as base64 (spec: data.file_base64). */
export const reviewExport = z.object({ file_base64: z.string(), count: z.number().int() })

const listCan = z.object({ audit: z.boolean(), export: z.boolean() })

export const volunteerListAnswer = z.union([paged(volunteerSchema).extend({ can: listCan }), reviewExport])
export const thirdPartyListAnswer = z.union([
  paged(thirdPartyAedSchema).extend({ can: listCan }),
  reviewExport,
])

/** The reject reason: required when rejecting (a text area, at most 200). */
const rejectedReason = z.preprocess(
  (v) => (v === '' ? null : v),
  z.string().trim().max(200, 'TEXT_TOO_LONG').nullable().optional(),
)

/** Pass (2) or reject (0, with a reason). */
const auditFields = {
  audit_status: z.union([z.literal(0), z.literal(2)], { message: 'AUDIT_STATUS_INVALID' }),
  rejected_reason: rejectedReason,
}

/** A rejection says why (both kinds' decisions). */
const reasonWhenRejecting = (
  f: { audit_status: number; rejected_reason?: string | null },
  c: z.RefinementCtx,
) => {
  if (f.audit_status === 0 && !f.rejected_reason)
    c.addIssue({ code: 'custom', message: 'REJECT_REASON_REQUIRED', path: ['rejected_reason'] })
}

export const auditForm = z.object(auditFields).superRefine(reasonWhenRejecting)
export type AuditForm = z.output<typeof auditForm>

/** The third-party AED's edit dialog (spec 2.1 "change third-party device info"). */
export const thirdPartyEditFields = {
  brand,
  ...aedPlace,
  /** A picked place's point is required: 请选择安装位置 when missing. */
  lat: z.number({ message: 'AED_LOCATION_REQUIRED' }).pipe(lat),
  lon: z.number({ message: 'AED_LOCATION_REQUIRED' }).pipe(lon),
  install_imgs: installImgs,
}

/** PUT .../third-party/aed/{id}: update_type 1 audits, 2 edits (an approved AED). */
export const thirdPartyUpdateForm = z.discriminatedUnion(
  'update_type',
  [
    z.object({ update_type: z.literal(1), ...auditFields }).superRefine(reasonWhenRejecting),
    z.object({ update_type: z.literal(2), ...thirdPartyEditFields }),
  ],
  { message: 'UPDATE_TYPE_INVALID' },
)
export type ThirdPartyUpdateForm = z.output<typeof thirdPartyUpdateForm>

/** 后台配置: the two system-wide switches (spec 3's factory config). */
export const sysConfigForm = z.object({
  /** 1: dispatch alerts approved public volunteers too. */
  call_event_notify_aid_volunteer: z.union([z.literal(0), z.literal(1)], { message: 'INVALID_INPUT' }),
  /** 1: the open API's nearby answer lists approved third-party AEDs (readiness unknown). */
  xcx_display_third_party_aed: z.union([z.literal(0), z.literal(1)], { message: 'INVALID_INPUT' }),
})
export type SysConfig = z.output<typeof sysConfigForm>

export const sysConfigSchema = sysConfigForm.extend({
  update_time: z.string().nullable(),
  updator: z.string().nullable(),
  can: z.object({ edit: z.boolean() }),
})

/** The deleted record, for the operation log. */
export const reviewDeleted = z.object({ id: z.number().int(), name: z.string() })

/**
 * One approved third-party AED on the dashboard's layer, as a plain array:
 * [id, lon, lat, brand, location].
 */
export const thirdPartyPointSchema = z.tuple([
  z.number().int(),
  z.number(),
  z.number(),
  z.string(),
  z.string(),
])
export type ThirdPartyPoint = z.infer<typeof thirdPartyPointSchema>

/** The layer's largest answer. */
export const THIRD_PARTY_LAYER_MAX = 20_000

/** Every console call of 公众审核 and of the dashboard's third-party layer. */
export const reviewApi = {
  volunteers: get('/api/v1/backend_mgmt/aid-volunteer', {
    summary:
      'Public volunteers of a tab (audit_status 1 in review by default, 2 approved, 0 rejected; name, has_cert); export_xls=true answers 公共志愿者.xlsx in data.file_base64. System organisation only',
    query: volunteerListQuery,
    response: volunteerListAnswer,
  }),
  auditVolunteer: put('/api/v1/backend_mgmt/aid-volunteer/:id', {
    summary: 'Pass (audit_status 2) or reject (0, with rejected_reason) a volunteer in review',
    params: idParams,
    body: auditForm,
    response: volunteerSchema,
  }),
  deleteVolunteer: del('/api/v1/backend_mgmt/aid-volunteer/:id', {
    summary: 'Delete an approved volunteer (dispatch stops alerting them at once)',
    params: idParams,
    response: reviewDeleted,
  }),
  thirdPartyAeds: get('/api/v1/backend_mgmt/third-party/aed', {
    summary:
      'Third-party AEDs of a tab (audit_status, brand); export_xls=true answers 公共AED列表.xlsx in data.file_base64. System organisation only',
    query: thirdPartyListQuery,
    response: thirdPartyListAnswer,
  }),
  updateThirdPartyAed: put('/api/v1/backend_mgmt/third-party/aed/:id', {
    summary: 'Audit (update_type 1: audit_status, rejected_reason) or edit an approved AED (update_type 2)',
    params: idParams,
    body: thirdPartyUpdateForm,
    response: thirdPartyAedSchema,
  }),
  deleteThirdPartyAed: del('/api/v1/backend_mgmt/third-party/aed/:id', {
    summary: 'Delete an approved third-party AED (out of the nearby answer and the map at once)',
    params: idParams,
    response: reviewDeleted,
  }),
  sysConfig: get('/api/v1/backend_mgmt/sys-config', {
    summary: 'The two system-wide switches of 后台配置',
    response: sysConfigSchema,
  }),
  saveSysConfig: post('/api/v1/backend_mgmt/sys-config', {
    summary: 'Save the two switches (system organisation, EDIT)',
    body: sysConfigForm,
    response: sysConfigSchema,
  }),
  thirdPartyLayer: get('/api/v1/analysis-board/third-party-aed/location/', {
    summary: 'Approved third-party AEDs in a region, for the dashboard (public records: no submitter)',
    query: z.object({
      address_code: z.preprocess(
        emptyAsUnset,
        z
          .string()
          .regex(/^\d{2,6}$/, 'INVALID_INPUT')
          .optional(),
      ),
    }),
    response: z.object({
      count: z.number().int(),
      more: z.boolean(),
      resource: z.array(thirdPartyPointSchema),
    }),
  }),
}
