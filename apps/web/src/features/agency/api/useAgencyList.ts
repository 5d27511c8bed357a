import { agencyApi } from '@aed/contracts/agency'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { agencyKeys } from './keys'

/** A page of organisations (name and type filters), within the tree node `indexLink` when given. */
export function useAgencyList(request: ListRequest, indexLink: string | null) {
  const index_link = indexLink ?? undefined
  return useListQuery(
    request,
    (params) => agencyKeys.list({ ...params, index_link }),
    (params, signal) => callApi(agencyApi.list, { query: { ...toQuery(params), index_link }, signal }),
  )
}
