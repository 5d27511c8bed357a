import type { AgencyNode } from '@aed/contracts/agency'
import { useQuery } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export const agencyKey = ['agency'] as const

/** GET /api/v1/agency/hierarchy/: the organisations of the member's subtree as a tree. */
export function useAgencyTree() {
  return useQuery({
    queryKey: [...agencyKey, 'hierarchy'],
    queryFn: async ({ signal }) =>
      (await http.get<{ resource: AgencyNode[] }>('/v1/agency/hierarchy/', { signal })).resource,
  })
}
