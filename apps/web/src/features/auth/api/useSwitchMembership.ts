import type { UserInfo } from '@aed/contracts'
import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

export type SwitchMembershipInput = {
  member_id: number
  /** The sign-in token and phone while the session is not stored yet (organisation picker). */
  token?: string
  username?: string
}

/** POST /api/v1/member/current-list/: a new token and session bound to another membership. */
export function useSwitchMembership() {
  return useMutation({
    mutationFn: ({ member_id, token, username }: SwitchMembershipInput) =>
      http.post<UserInfo>('/v1/member/current-list/', { member_id }, { token, username }),
  })
}
