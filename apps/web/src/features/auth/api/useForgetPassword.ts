import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export type ForgetPasswordPayload = { phone: string; sms_code: string; password: string; re_password: string }

/** POST /api/v1/member/forget-password/. */
export function useForgetPassword() {
  return useMutation({
    mutationFn: (payload: ForgetPasswordPayload) =>
      http.post<unknown>('/v1/member/forget-password/', payload),
  })
}
