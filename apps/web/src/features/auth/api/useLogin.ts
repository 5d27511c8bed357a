import type { UserInfo } from '@aed/contracts'
import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export type LoginPayload = {
  mobile: string
  password?: string
  sms_code?: string
  login_way: 1 | 2
  member_type: 3
}

/** POST /api/v1/member/login: answers the session (UserInfo) with every membership. */
export function useLogin() {
  return useMutation({
    mutationFn: (payload: LoginPayload) => http.post<UserInfo>('/v1/member/login', payload),
  })
}
