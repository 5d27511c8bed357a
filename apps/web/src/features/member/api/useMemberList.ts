import { memberApi } from '@aed/contracts/member'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { memberKeys } from './keys'

/** A page of users (name, role, agency, phone filters; phones and emails masked). */
export function useMemberList(request: ListRequest) {
  return useListQuery(request, memberKeys.list, (params, signal) =>
    callApi(memberApi.list, { query: toQuery(params), signal }),
  )
}
