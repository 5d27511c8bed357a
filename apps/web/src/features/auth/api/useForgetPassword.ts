import type { BodyIn } from '@aed/contracts'
import { authApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'

/** Sets a new password with an SMS code. */
export function useForgetPassword() {
  return useMutation({
    mutationFn: (body: BodyIn<typeof authApi.forgetPassword>) => sendApi(authApi.forgetPassword, { body }),
  })
}
