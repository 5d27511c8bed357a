import { z } from 'zod'
import { get, post } from './endpoint.ts'
import { agencyFields, exportAnswer, optionalDate } from './fields.ts'
import { importForm } from './import.ts'

export { IMPORT_FAILURE_FILE_NAME, importFailureSchema, importForm } from './import.ts'

/** Days the device data export covers by default: the last 7 (spec section 5). */
export const DEVICE_EXPORT_DAYS = 7

/** export_type of the data export. */
export const ExportType = { DEVICES: 1, INSPECTIONS: 2, SELF_CHECKS: 3, RESCUES: 4 } as const
export type ExportTypeValue = (typeof ExportType)[keyof typeof ExportType]

/** The name each export downloads as (设备列表.xlsx is the spec's; the others follow it). */
export const EXPORT_FILE_NAMES: Readonly<Record<ExportTypeValue, string>> = {
  1: '设备列表.xlsx',
  2: '巡检记录.xlsx',
  3: '自检记录.xlsx',
  4: '急救记录.xlsx',
}

/** Largest import file: a filled template of IMPORT_MAX_ROWS rows is far below it. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024
/** Devices one import may create. */
export const IMPORT_MAX_ROWS = 10_000

/** GET /api/v1/device/data-export. */
export const dataExportQuery = z.object({
  /** 1 device list, 2 inspection records, 3 self-check records, 4 rescue records. */
  export_type: z.coerce
    .number({ message: 'EXPORT_TYPE_REQUIRED' })
    .int('EXPORT_TYPE_REQUIRED')
    .min(1, 'EXPORT_TYPE_REQUIRED')
    .max(4, 'EXPORT_TYPE_REQUIRED')
    .transform((v) => v as ExportTypeValue),
  /** YYYY-MM-DD, inclusive; default 7 days ago. */
  start_time: optionalDate(),
  /** YYYY-MM-DD, inclusive; default today. */
  end_time: optionalDate(),
})
export type DataExportQuery = z.output<typeof dataExportQuery>

export const importResultSchema = z.object({
  /** Devices created. */
  count: z.number().int(),
  ...agencyFields,
})
export type ImportResult = z.infer<typeof importResultSchema>

/** Device exports and the factory import. */
export const deviceIoApi = {
  dataExport: get('/api/v1/device/data-export', {
    summary:
      'Export (export_type 1 device list, 2 inspection, 3 self-check, 4 rescue records) of a date range, default the last 7 days; answers data.file_url',
    query: dataExportQuery,
    response: exportAnswer,
  }),
  importDevices: post('/api/v1/device/import/', {
    summary:
      'Factory import (multipart: import_file, agency_id): every row or none; a refusal answers 导入失败！ with data.file_base64 of the rows and their reasons',
    body: importForm,
    response: importResultSchema,
  }),
}
