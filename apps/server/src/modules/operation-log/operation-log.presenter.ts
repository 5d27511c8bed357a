import type { OperationLog } from '@aed/contracts/operation-log'
import { formatDateTime } from '../../lib/time.ts'
import type { XlsxColumn } from '../../providers/storage/xlsx.ts'
import type { LogRow } from './operation-log.repository.ts'

/** One log entry as the page shows it. */
export const presentLog = (r: LogRow): OperationLog => ({
  id: r.id,
  operator: r.operator,
  operation_type: r.operation_type,
  content: r.content,
  agency_name: r.agency_name,
  create_time: formatDateTime(r.create_time),
})

/** The columns of the exported spreadsheet, as the page's columns. */
export const logColumns: XlsxColumn<LogRow>[] = [
  { header: '操作人', width: 16, value: (r) => r.operator },
  { header: '操作类型', width: 16, value: (r) => r.operation_type },
  { header: '操作内容', width: 60, value: (r) => r.content },
  { header: '所属机构', width: 24, value: (r) => r.agency_name },
  { header: '操作时间', width: 20, value: (r) => formatDateTime(r.create_time) },
]
