import { z } from 'zod'
import { credentialSchema } from './device.ts'
import { commandSchema } from './device-command.ts'
import { del, get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import {
  agencyFields,
  agencyPick,
  assignIds,
  optionalId,
  optionalInt,
  pointOrNull,
  textFilter,
} from './fields.ts'
import { IMPORT_FAILURE_FILE_NAME, importForm } from './import.ts'

/** Cabinet serials: 6-32 letters and digits, as device serials (printed on the cabinet). */
export const CABINET_SN = /^[A-Za-z0-9]{6,32}$/

/** update_type of PUT /api/v1/cabinet/:id: 1 assign to an organisation, 2 bind an AED, 3 unbind. */
export const CabinetUpdateType = { ASSIGN: 1, BIND: 2, UNBIND: 3 } as const
export type CabinetUpdateTypeValue = (typeof CabinetUpdateType)[keyof typeof CabinetUpdateType]

/** Commands a cabinet takes from the console (super administrators). */
export const CABINET_CONSOLE_COMMANDS = ['unlock', 'siren'] as const

/** Columns of the cabinet import template, in order (绑定AED is optional). */
export const CABINET_TEMPLATE_HEADERS = ['救护箱编号', '绑定AED'] as const
/** Cabinets one import may create. */
export const CABINET_IMPORT_MAX_ROWS = 5_000
/** The file the console saves a refused import's rows as (the spec's name). */
export const CABINET_IMPORT_FAILURE_FILE_NAME = IMPORT_FAILURE_FILE_NAME
/** Largest import file. */
export const CABINET_IMPORT_MAX_BYTES = 5 * 1024 * 1024

/** The list's filters (spec 2.3). */
export const cabinetListQuery = pageQuery.extend({
  /** Substring of the cabinet number. */
  cabinet_sn: textFilter,
  /** Substring of the bound AED's serial. */
  device_sn: textFilter,
  /** 1 open, 0 closed (a cabinet that never reported matches neither). */
  door_status: optionalInt(0, 1),
  /** 1 bound to an AED, 0 not. */
  bind_status: optionalInt(0, 1),
  /** An organisation of the scope (its subtree). */
  agency_id: optionalId(),
})
export type CabinetListQuery = z.output<typeof cabinetListQuery>

/** What the signed-in member may do with a cabinet (computed on the server, spec section 6). */
export const cabinetCanSchema = z.object({
  /** Bind or unbind an AED: EDIT on devices. */
  bind: z.boolean(),
  /** Assign to an organisation: role_type 0 of an ordinary organisation (agency_type 2), not read-only. */
  assign: z.boolean(),
  /** Delete: role_type 0 (a bound cabinet is still refused: 存在救护箱已绑定AED，解绑后删除！). */
  delete: z.boolean(),
  /** unlock and siren: role_type 0 with EDIT. */
  command: z.boolean(),
  /** Read or rotate the secret: system super administrators. */
  credential: z.boolean(),
})
export type CabinetCan = z.infer<typeof cabinetCanSchema>

/** What the signed-in member may do from the cabinet page's toolbar (computed on the server, spec section 6). */
export const cabinetListCanSchema = z.object({
  /** Import: EDIT on devices, outside ordinary organisations (agency_type 0 and 1 import, choosing the organisation). */
  import: z.boolean(),
  /** Assign the selected cabinets: as a cabinet's `can.assign`. */
  assign: z.boolean(),
  /** Delete the selected cabinets: as a cabinet's `can.delete`. */
  delete: z.boolean(),
})
export type CabinetListCan = z.infer<typeof cabinetListCanSchema>

/** The bound AED's serial and model (model from serial characters 2-3); null when unbound. */
const boundAed = { device_sn: z.string().nullable(), device_model: z.string().nullable() }

/** What a cabinet reports of itself: door 1 open, 0 closed; battery 0-100; null when not reported. */
const cabinetReport = {
  door_status: z.number().int().nullable(),
  battery_power: z.number().int().nullable(),
  fw_version: z.string().nullable(),
}

/** A cabinet as the list shows it (spec 3: Cabinet). */
export const cabinetSchema = z.object({
  id: z.number().int(),
  cabinet_sn: z.string(),
  ...boundAed,
  device_id: z.number().int().nullable(),
  /** 1 bound, 0 not. */
  bind_device: z.union([z.literal(0), z.literal(1)]),
  /** As last reported; null before its first report. */
  ...cabinetReport,
  ...agencyFields,
  /** The latest reported position (GCJ-02) and its address. */
  location: z.string().nullable(),
  ...pointOrNull,
  /** Whether the AED is inside, as last reported; null when unknown. */
  aed_present: z.boolean().nullable(),
  /** The last report ('YYYY-MM-DD HH:mm:ss'); null when it never reported. */
  data_upload_time: z.string().nullable(),
  /** true online, false offline (the deadline sweep), null when it never reported. */
  online: z.boolean().nullable(),
  create_time: z.string(),
  can: cabinetCanSchema,
})
export type Cabinet = z.infer<typeof cabinetSchema>

/** One cabinet with the bound AED and who last assigned or bound it (spec 3: Detail). */
export const cabinetDetailSchema = cabinetSchema.extend({
  altitude: z.number().nullable(),
  aed_info: z.object({ device_sn: z.string(), device_model: z.string() }).nullable(),
  /** The latest bind record's organisation and operator; the cabinet's organisation and creator before any. */
  operator_info: z.object({ agency_name: z.string(), operator: z.string().nullable() }),
})
export type CabinetDetail = z.infer<typeof cabinetDetailSchema>

/**
 * PUT /api/v1/cabinet/:id. update_type 1 assign (agency_id), 2 bind (device_sn), 3 unbind.
 * A missing device_sn answers 请输入绑定AED, an empty one 绑定设备不能为空！ (spec 5).
 * cabinet_sn may be sent (the spec's console sends it) and is ignored: a number never changes.
 */
export const cabinetUpdate = z
  .object({
    update_type: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'UPDATE_TYPE_REQUIRED' }),
    agency_id: agencyPick.optional(),
    device_sn: z.string().max(50, 'CABINET_BIND_SN_INVALID').optional(),
    cabinet_sn: z.string().max(50).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.update_type === 1 && b.agency_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['agency_id'], message: 'DEVICE_AGENCY_REQUIRED' })
    if (b.update_type === 2 && b.device_sn === undefined)
      ctx.addIssue({ code: 'custom', path: ['device_sn'], message: 'CABINET_BIND_SN_REQUIRED' })
    else if (b.update_type === 2 && (b.device_sn ?? '').trim() === '')
      ctx.addIssue({ code: 'custom', path: ['device_sn'], message: 'CABINET_BIND_SN_EMPTY' })
  })
export type CabinetUpdate = z.output<typeof cabinetUpdate>

/** POST /api/v1/cabinet/: a new cabinet (system super administrators: it issues the secret). */
export const cabinetCreate = z.object({
  cabinet_sn: z.string({ message: 'CABINET_SN_REQUIRED' }).trim().regex(CABINET_SN, 'CABINET_SN_FORMAT'),
  agency_id: agencyPick,
})
export type CabinetCreate = z.output<typeof cabinetCreate>

/** The created cabinet and its secret, answered this once (later: the credential endpoint). */
export const cabinetCreated = cabinetDetailSchema.extend({ secret: z.string() })

/** Toolbar assign of several cabinets at once (all or nothing). */
export const cabinetAssign = z.object({ agency_id: agencyPick, cabinet_ids: assignIds })

/** Toolbar delete: all or nothing; a bound cabinet refuses the whole batch. */
export const cabinetBatchDestroy = z.object({
  cabinet_sn_list: z.array(z.string().trim().max(50), { message: 'CABINET_DELETE_EMPTY' }).max(1000),
})

/** A self-check record (spec 3: Cabinet message record): one cabinet_status or door report. */
export const cabinetRecordSchema = z.object({
  id: z.number().int(),
  update_time: z.string(),
  /** cabinet_status or door. */
  upload_data_type: z.string(),
  ...boundAed,
  ...cabinetReport,
  location: z.string().nullable(),
  altitude: z.number().nullable(),
  ...pointOrNull,
  aed_present: z.boolean().nullable(),
})
export type CabinetRecord = z.infer<typeof cabinetRecordSchema>

/** A bind record (spec 3): assignment (1), bind (2), unbind (3). */
export const cabinetBindRecordSchema = z.object({
  id: z.number().int(),
  operate_time: z.string(),
  /** 1 assign, 2 bind AED, 3 unbind (DATA_DICT.cabinet_update_type). */
  update_type: z.number().int(),
  operator: z.string(),
  ...boundAed,
  agency_name: z.string(),
})
export type CabinetBindRecord = z.infer<typeof cabinetBindRecordSchema>

/** The import's upload (multipart/form-data): import_file (救护箱编号, 绑定AED optional), agency_id, import_xls. */
export const cabinetImportForm = importForm

export const cabinetImportResult = z.object({
  count: z.number().int(),
  /** Of them, cabinets bound to an AED of the file. */
  bound: z.number().int(),
  ...agencyFields,
})
export type CabinetImportResult = z.infer<typeof cabinetImportResult>

/** A cabinet's secret, as a device's: the same call shape on both pages. */
export const cabinetCredentialSchema = credentialSchema

export const cabinetCommandForm = z.object({
  name: z.enum(CABINET_CONSOLE_COMMANDS, { message: 'COMMAND_INVALID' }),
})

/** Every cabinet call of the cabinet page. */
export const cabinetApi = {
  list: get('/api/v1/cabinet/', {
    summary: 'Cabinets of the subtree (filters: cabinet_sn, device_sn, door_status, bind_status)',
    query: cabinetListQuery,
    response: paged(cabinetSchema).extend({ can: cabinetListCanSchema }),
  }),
  create: post('/api/v1/cabinet/', {
    summary:
      'Create a cabinet (system super administrators): cabinet_sn (6-32 letters or digits), agency_id; answers its secret once',
    body: cabinetCreate,
    response: cabinetCreated,
  }),
  uploadInfo: get('/api/v1/cabinet/upload-info', {
    summary: 'The cabinet import template (.xlsx URL)',
    response: z.object({ template_url: z.string() }),
  }),
  importCabinets: post('/api/v1/cabinet/import', {
    summary:
      'Import cabinets (multipart: import_file, agency_id, import_xls): every row or none; a refusal answers 导入失败！ with data.file_base64',
    body: cabinetImportForm,
    response: cabinetImportResult,
  }),
  bindRecord: get('/api/v1/cabinet/bind-record', {
    summary: 'Bind records of a cabinet (assign, bind, unbind), newest first',
    query: pageQuery.extend({ cabinet_id: z.coerce.number({ message: 'INVALID_INPUT' }).int().positive() }),
    response: paged(cabinetBindRecordSchema),
  }),
  assign: put('/api/v1/cabinet/agency-assign', {
    summary: 'Assign several cabinets to an organisation (all or nothing; each writes a bind record)',
    body: cabinetAssign,
    response: z.object({ ...agencyFields, cabinet_sn_list: z.array(z.string()) }),
  }),
  batchDestroy: del('/api/v1/cabinet/batch-destroy', {
    summary: 'Delete cabinets by number (super administrators; all or nothing; bound ones refuse)',
    body: cabinetBatchDestroy,
    response: z.object({ cabinet_sn_list: z.array(z.string()) }),
  }),
  detail: get('/api/v1/cabinet/:id', {
    summary: 'One cabinet with aed_info and operator_info',
    params: idParams,
    response: cabinetDetailSchema,
  }),
  update: put('/api/v1/cabinet/:id', {
    summary: 'update_type 1 assign (agency_id), 2 bind an AED (device_sn), 3 unbind',
    params: idParams,
    body: cabinetUpdate,
    response: cabinetDetailSchema,
  }),
  records: get('/api/v1/cabinet/:id/record', {
    summary: 'Self-check records of a cabinet (cabinet_status and door reports), newest first',
    params: idParams,
    query: pageQuery,
    response: paged(cabinetRecordSchema),
  }),
  credential: get('/api/v1/cabinet/:id/credential', {
    summary: 'The cabinet secret (system super administrators; written to the operation log)',
    params: idParams,
    response: cabinetCredentialSchema,
  }),
  rotateCredential: post('/api/v1/cabinet/:id/credential', {
    summary: 'Issue a new cabinet secret; the old one keeps working for 24 hours',
    params: idParams,
    response: cabinetCredentialSchema,
  }),
  sendCommand: post('/api/v1/cabinet/:id/command', {
    summary: 'Ask a cabinet to unlock or sound its siren (super administrators)',
    params: idParams,
    body: cabinetCommandForm,
    response: commandSchema,
  }),
  commands: get('/api/v1/cabinet/:id/command', {
    summary: 'The last 20 commands sent to a cabinet, newest first, with their state and ack',
    params: idParams,
    response: z.array(commandSchema),
  }),
}
