import type { BodyIn } from '@aed/contracts'
import { authApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'

export type LoginPayload = BodyIn<typeof authApi.login>

/** Signs in: answers the session (UserInfo) with every membership. */
export function useLogin() {
  return useMutation({ mutationFn: (body: LoginPayload) => callApi(authApi.login, { body }) })
}
