import { reviewApi } from '@aed/contracts/review'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import { reviewKeys } from './keys'

/** A page of one tab's third-party AEDs (audit_status 1, 2 or 0; brand filter; phones masked). */
export function useThirdPartyAedList(status: number, request: ListRequest) {
  return useListQuery(
    request,
    (params) => reviewKeys.page('third_party', status, params),
    async (params, signal) => {
      const data = await callApi(reviewApi.thirdPartyAeds, {
        query: { ...toQuery(params), audit_status: status },
        signal,
      })
      if (!('resource' in data)) throw new RequestError('unknown', 'not a page')
      return data
    },
  )
}
