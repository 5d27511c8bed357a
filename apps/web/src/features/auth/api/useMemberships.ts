import { authApi } from '@aed/contracts/auth'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { authKeys } from './keys'

/** The organisations of the signed-in account. */
export function useMemberships(token: string | null) {
  return useQuery({
    queryKey: authKeys.memberships(token),
    queryFn: ({ signal }) => callApi(authApi.memberships, { signal }),
    enabled: Boolean(token),
  })
}
