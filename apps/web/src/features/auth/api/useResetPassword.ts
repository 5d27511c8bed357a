import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export type ResetPasswordPayload = { password: string; password_again: string; old_password?: string }

/** POST /api/v1/member/reset-password/: answers a fresh token. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (payload: ResetPasswordPayload) =>
      http.post<{ token: string }>('/v1/member/reset-password/', payload),
  })
}
