import type { Member } from '@aed/contracts/member'
import { useQuery } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { memberKey } from './memberKey'

/** GET /api/v1/member/{id}: one user with whole phone and email. */
export function useMember(id: number | null) {
  return useQuery({
    queryKey: [...memberKey, 'detail', id],
    queryFn: ({ signal }) => http.get<Member>(`/v1/member/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
