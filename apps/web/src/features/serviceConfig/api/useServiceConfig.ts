import type { AppService } from '@aed/contracts/app-service'
import { useQuery } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { serviceConfigKey } from './serviceConfigApi'

/** GET /api/v1/agency/app-service/config/{id}: the detail, with secret and access token. */
export function useServiceConfig(id: number | null) {
  return useQuery({
    queryKey: [...serviceConfigKey, 'detail', id],
    queryFn: ({ signal }) => http.get<AppService>(`/v1/agency/app-service/config/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
