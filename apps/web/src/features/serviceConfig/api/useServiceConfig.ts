import { appServiceApi } from '@aed/contracts/app-service'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { appServiceKeys } from './keys'

/** The detail, with secret and access token. */
export function useServiceConfig(id: number | null) {
  return useDetailQuery(appServiceApi.detail, appServiceKeys.detail, id)
}
