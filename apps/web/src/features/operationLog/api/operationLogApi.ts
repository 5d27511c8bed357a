import type { Paged } from '@aed/contracts'
import type { OperationLog } from '@aed/contracts/operation-log'
import type { ListParams } from '../../../components/DataTable/listParams'
import { http } from '../../../lib/request'
import { logQuery } from '../logQuery'

export const operationLogKey = ['operation-log'] as const
const PATH = '/v1/sys-mgmt/operation-log'

/** GET /api/v1/sys-mgmt/operation-log: a page of the log. */
export function fetchOperationLog(params: ListParams, signal: AbortSignal) {
  return http.get<Paged<OperationLog>>(PATH, {
    signal,
    query: { page: params.page, page_size: params.page_size, ...logQuery(params.filters) },
  })
}

/** The same filters with export_xls=true: the server answers the .xlsx file's URL. */
export function exportOperationLog(query: ReturnType<typeof logQuery>) {
  return http.get<{ file_url: string; count: number }>(PATH, { query: { ...query, export_xls: true } })
}
