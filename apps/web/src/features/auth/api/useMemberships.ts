import type { Membership, Paged } from '@aed/contracts'
import { useQuery } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export const membershipsKey = (token: string | null) => ['member', 'current-list', token] as const

/** GET /api/v1/member/current-list/: the organisations of the signed-in account. */
export function useMemberships(token: string | null) {
  return useQuery({
    queryKey: membershipsKey(token),
    queryFn: ({ signal }) => http.get<Paged<Membership>>('/v1/member/current-list/', { signal }),
    enabled: Boolean(token),
  })
}
