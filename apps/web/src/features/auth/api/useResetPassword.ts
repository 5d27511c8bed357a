import type { BodyIn } from '@aed/contracts'
import { authApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'

export type ResetPasswordPayload = BodyIn<typeof authApi.resetPassword>

/** Changes the password: answers a fresh token. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordPayload) => sendApi(authApi.resetPassword, { body }),
  })
}
