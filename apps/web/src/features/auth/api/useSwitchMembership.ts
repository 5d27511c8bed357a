import { authApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'

export type SwitchMembershipInput = {
  member_id: number
  /** The sign-in token and phone while the session is not stored yet (organisation picker). */
  token?: string
  username?: string
}

/** A new token and session bound to another membership. */
export function useSwitchMembership() {
  return useMutation({
    mutationFn: ({ member_id, token, username }: SwitchMembershipInput) =>
      callApi(authApi.switchMembership, { body: { member_id }, token, username }),
  })
}
