import type { Paged } from '@aed/contracts'
import type { AppService } from '@aed/contracts/app-service'
import { type ListParams, toQuery } from '../../../components/DataTable/listParams'
import { http } from '../../../lib/request'

export const serviceConfigKey = ['app-service'] as const

/** GET /api/v1/agency/app-service/config: agency_id, service, start_time and end_time filters. */
export function fetchServiceConfigs(params: ListParams, signal: AbortSignal) {
  return http.get<Paged<AppService>>('/v1/agency/app-service/config', { signal, query: toQuery(params) })
}
