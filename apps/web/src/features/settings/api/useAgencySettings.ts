import type { AgencySettings } from '@aed/contracts/settings'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export const settingsKey = ['agency', 'config'] as const

/** GET /api/v1/agency/config/?agency_id: the alert preferences of an organisation (own when absent). */
export function useAgencySettings(agencyId: number | undefined) {
  return useQuery({
    queryKey: [...settingsKey, agencyId ?? null],
    queryFn: ({ signal }) =>
      http.get<AgencySettings>('/v1/agency/config/', { signal, query: { agency_id: agencyId } }),
    staleTime: 0,
  })
}

/** POST /api/v1/agency/config/ with the whole settings object. */
export function useSaveAgencySettings() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: AgencySettings & { agency_id?: number }) =>
      http.send<AgencySettings>('POST', '/v1/agency/config/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKey }),
  })
}
