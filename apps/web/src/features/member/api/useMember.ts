import { memberApi } from '@aed/contracts/member'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { memberKeys } from './keys'

/** One user with whole phone and email. */
export function useMember(id: number | null) {
  return useQuery({
    queryKey: memberKeys.detail(id ?? 0),
    queryFn: ({ signal }) => callApi(memberApi.detail, { params: { id: id as number }, signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
