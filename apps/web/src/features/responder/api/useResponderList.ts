import { responderApi } from '@aed/contracts/responder'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { RequestError } from '../../../lib/errors'
import { responderKeys } from './keys'

/** A page of responders (name, qualification, certificate, organisation, dispatch filters; phones masked). */
export function useResponderList(request: ListRequest) {
  return useListQuery(request, responderKeys.list, async (params, signal) => {
    const data = await callApi(responderApi.list, { query: toQuery(params), signal })
    // The list answers a page unless export_xls is asked, which this query never does.
    if (!('resource' in data)) throw new RequestError('unknown', 'not a page')
    return data
  })
}
