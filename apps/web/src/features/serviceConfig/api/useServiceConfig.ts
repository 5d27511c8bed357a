import { serviceConfigApi } from '@aed/contracts/service-config'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { serviceConfigKeys } from './keys'

/** The detail, with secret and access token. */
export function useServiceConfig(id: number | null) {
  return useDetailQuery(serviceConfigApi.detail, serviceConfigKeys.detail, id)
}
