import { rescueApi } from '@aed/contracts/rescue'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { rescueKeys } from './keys'
import { rescueQuery } from './rescueQuery'

/** A page of the rescues; the time filter is read when fetching, so a preset means "until now". */
export function useRescueList(request: ListRequest) {
  return useListQuery(request, rescueKeys.list, (params, signal) =>
    callApi(rescueApi.list, {
      query: { page: params.page, page_size: params.page_size, ...rescueQuery(params.filters) },
      signal,
    }),
  )
}
