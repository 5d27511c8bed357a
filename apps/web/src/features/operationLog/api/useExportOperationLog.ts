import { operationLogApi } from '@aed/contracts/operation-log'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import type { logQuery } from '../logQuery'

/** The same filters with export_xls=true: the server answers the .xlsx file's URL. */
async function exportOperationLog(query: ReturnType<typeof logQuery>) {
  const data = await callApi(operationLogApi.list, { query: { ...query, export_xls: 'true' } })
  if (!('file_url' in data)) throw new RequestError('unknown', 'not an export')
  return data
}

/** Asks the server for an .xlsx of every matching row. */
export function useExportOperationLog() {
  return useMutation({ mutationFn: exportOperationLog })
}
