import { operationLogApi } from '@aed/contracts/operation-log'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { logQuery } from '../logQuery'
import { operationLogKeys } from './keys'

/** A page of the log: operator, content and time filters (default the last 180 days). */
export function useOperationLogList(request: ListRequest) {
  return useListQuery(request, operationLogKeys.list, async (params, signal) => {
    const query = { page: params.page, page_size: params.page_size, ...logQuery(params.filters) }
    const data = await callApi(operationLogApi.list, { query, signal })
    return 'resource' in data ? data : { count: 0, resource: [] }
  })
}
