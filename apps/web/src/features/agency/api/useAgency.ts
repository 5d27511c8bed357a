import type { Agency } from '@aed/contracts/agency'
import { useQuery } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { agencyKey } from './useAgencyTree'

/** GET /api/v1/agency/{id}: one organisation with its whole phone. */
export function useAgency(id: number | null) {
  return useQuery({
    queryKey: [...agencyKey, 'detail', id],
    queryFn: ({ signal }) => http.get<Agency>(`/v1/agency/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
