import type { BodyIn } from '@aed/contracts'
import { authApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'

/** A code for one scene (login, forget, bind_wx). */
export function useSendSmsCode() {
  return useMutation({
    mutationFn: (body: BodyIn<typeof authApi.smsCode>) => callApi(authApi.smsCode, { body }),
  })
}
