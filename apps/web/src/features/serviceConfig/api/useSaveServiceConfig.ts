import type { AppService } from '@aed/contracts/app-service'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { serviceConfigKey } from './serviceConfigApi'

export type ServiceConfigBody =
  | { id: null; agency_id: number; service: string[]; state: 0 | 1 }
  | { id: number; service: string[]; state: 0 | 1; regenerate?: boolean }

/** POST /api/v1/agency/app-service/config (new) or PUT …/{id} (services, state, new secret). */
export function useSaveServiceConfig() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...body }: ServiceConfigBody) =>
      id === null
        ? http.send<AppService>('POST', '/v1/agency/app-service/config', body)
        : http.send<AppService>('PUT', `/v1/agency/app-service/config/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceConfigKey }),
  })
}
