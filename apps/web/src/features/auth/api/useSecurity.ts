import type { BodyIn } from '@aed/contracts'
import { authApi } from '@aed/contracts/auth'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { callApi, sendApi } from '../../../lib/api'
import { authKeys } from './keys'

/** The signed-in account's security settings. */
export function useSecurity(enabled: boolean) {
  return useQuery({
    queryKey: authKeys.security(),
    queryFn: ({ signal }) => callApi(authApi.security, { signal }),
    enabled,
  })
}

/** Switches SMS dual verification, confirmed by the password. */
export function useUpdateSecurity() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: BodyIn<typeof authApi.setSecurity>) => sendApi(authApi.setSecurity, { body }),
    onSuccess: ({ data }) => client.setQueryData(authKeys.security(), data),
  })
}
