import type { securitySchema } from '@aed/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export type Security = ReturnType<typeof securitySchema.parse>

const key = ['member', 'security'] as const

/** GET /api/v1/member/security/: the signed-in account's security settings. */
export function useSecurity(enabled: boolean) {
  return useQuery({ queryKey: key, queryFn: () => http.get<Security>('/v1/member/security/'), enabled })
}

/** PUT /api/v1/member/security/: switch SMS dual verification, confirmed by the password. */
export function useUpdateSecurity() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { sms_dual_verify: boolean; password: string }) =>
      http.put<Security>('/v1/member/security/', body),
    onSuccess: (data) => client.setQueryData(key, data),
  })
}
