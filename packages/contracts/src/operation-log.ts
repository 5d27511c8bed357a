import { z } from 'zod'
import { get } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import { exportAnswer, exportXls, isoDate, pageOrExport, textFilter } from './fields.ts'

/** Days the operation log and other exports cover by default: the last 180 days. */
export const DEFAULT_EXPORT_DAYS = 180

export const operationLogQuery = pageQuery.extend({
  operator: textFilter,
  content: z.string().trim().max(100, 'TEXT_TOO_LONG').optional(),
  /** YYYY-MM-DD, inclusive, in the organisation's time zone; default 180 days ago. */
  start_time: isoDate.optional(),
  /** YYYY-MM-DD, inclusive; default today. */
  end_time: isoDate.optional(),
  /** true: answer `data.file_url` of an .xlsx of every matching row instead of a page. */
  export_xls: exportXls,
})
export type OperationLogQuery = z.output<typeof operationLogQuery>

export const operationLogSchema = z.object({
  id: z.number().int(),
  operator: z.string(),
  operation_type: z.string(),
  content: z.string(),
  agency_name: z.string().nullable(),
  /** YYYY-MM-DD HH:mm:ss in the organisation's time zone. */
  create_time: z.string(),
})
export type OperationLog = z.infer<typeof operationLogSchema>

export const exportSchema = exportAnswer

/** The operation log page's one call: a page, or with export_xls the file of every matching row. */
export const operationLogApi = {
  list: get('/api/v1/sys-mgmt/operation-log', {
    summary: 'Operation log (default range: the last 180 days); export_xls=true answers data.file_url',
    query: operationLogQuery,
    response: pageOrExport(paged(operationLogSchema)),
  }),
}
