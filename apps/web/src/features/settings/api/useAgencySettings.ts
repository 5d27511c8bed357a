import { settingsApi } from '@aed/contracts/settings'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { settingsKeys } from './keys'

/** The alert preferences of an organisation (the member's own when absent). */
export function useAgencySettings(agencyId: number | undefined) {
  return useQuery({
    queryKey: settingsKeys.detail(agencyId ?? 'own'),
    queryFn: ({ signal }) => callApi(settingsApi.get, { query: { agency_id: agencyId }, signal }),
    staleTime: 0,
  })
}
