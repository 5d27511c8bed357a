import { callApi as calls } from '@aed/contracts/call'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { callQuery } from './callQuery'
import { callKeys } from './keys'

/** A page of the calls with the toolbar's `can` (登记呼救); the time filter is read when fetching, so a preset means "until now". */
export function useCallList(request: ListRequest) {
  return useListQuery(request, callKeys.list, (params, signal) =>
    callApi(calls.list, {
      query: { page: params.page, page_size: params.page_size, ...callQuery(params.filters) },
      signal,
    }),
  )
}
