import { serviceConfigApi } from '@aed/contracts/service-config'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { serviceConfigKeys } from './keys'

/** A page of service configurations: agency_id, service, start_time and end_time filters. */
export function useServiceConfigList(request: ListRequest) {
  return useListQuery(request, serviceConfigKeys.list, (params, signal) =>
    callApi(serviceConfigApi.list, { query: toQuery(params), signal }),
  )
}
