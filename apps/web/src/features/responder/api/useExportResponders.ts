import { responderApi } from '@aed/contracts/responder'
import { useMutation } from '@tanstack/react-query'
import type { Filters } from '../../../components/DataTable/listParams'
import { callApi } from '../../../lib/api'
import { downloadBase64 } from '../../../lib/download'
import { RequestError } from '../../../lib/errors'

/** The spec's name of the export. */
export const EXPORT_FILE_NAME = '急救人员列表.xlsx'
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The list's filters with export_xls=true: the server answers the workbook as base64, saved here. */
export async function exportResponders(filters: Filters, order_by?: string) {
  // No paging: the export is every matching row (up to RESPONDER_EXPORT_MAX).
  const query: Record<string, string> = { export_xls: 'true' }
  for (const [key, value] of Object.entries(filters)) if (typeof value === 'string') query[key] = value
  if (order_by) query.order_by = order_by
  const data = await callApi(responderApi.list, { query })
  if (!('file_base64' in data)) throw new RequestError('unknown', 'not an export')
  downloadBase64(data.file_base64, EXPORT_FILE_NAME, XLSX)
  return data.count
}

/** 导出: every responder matching the list's filters, as 急救人员列表.xlsx. */
export function useExportResponders() {
  return useMutation({
    mutationFn: ({ filters, order_by }: { filters: Filters; order_by?: string }) =>
      exportResponders(filters, order_by),
  })
}
