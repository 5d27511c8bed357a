import { appServiceApi } from '@aed/contracts/app-service'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { appServiceKeys } from './keys'

/** The detail, with secret and access token. */
export function useServiceConfig(id: number | null) {
  return useQuery({
    queryKey: appServiceKeys.detail(id ?? 0),
    queryFn: ({ signal }) => callApi(appServiceApi.detail, { params: { id: id as number }, signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
