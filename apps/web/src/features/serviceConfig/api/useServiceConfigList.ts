import { appServiceApi } from '@aed/contracts/app-service'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { appServiceKeys } from './keys'

/** A page of service configurations: agency_id, service, start_time and end_time filters. */
export function useServiceConfigList(request: ListRequest) {
  return useListQuery(request, appServiceKeys.list, (params, signal) =>
    callApi(appServiceApi.list, { query: toQuery(params), signal }),
  )
}
