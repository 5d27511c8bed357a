import { responderApi } from '@aed/contracts/responder'
import { useMutation } from '@tanstack/react-query'
import { type Filters, textFilters } from '../../../components/DataTable/listParams'
import { callApi } from '../../../lib/api'
import { saveXlsxExport } from '../../../lib/download'

/** The spec's name of the export. */
export const EXPORT_FILE_NAME = '急救人员列表.xlsx'

/** The list's filters with export_xls=true: the server answers the workbook as base64, saved here. */
export async function exportResponders(filters: Filters, order_by?: string) {
  // No paging: the export is every matching row (up to RESPONDER_EXPORT_MAX).
  const query: Record<string, string> = { export_xls: 'true', ...textFilters(filters) }
  if (order_by) query.order_by = order_by
  return saveXlsxExport(await callApi(responderApi.list, { query }), EXPORT_FILE_NAME)
}

/** 导出: every responder matching the list's filters, as 急救人员列表.xlsx. */
export function useExportResponders() {
  return useMutation({
    mutationFn: ({ filters, order_by }: { filters: Filters; order_by?: string }) =>
      exportResponders(filters, order_by),
  })
}
