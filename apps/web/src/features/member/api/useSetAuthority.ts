import type { BodyIn } from '@aed/contracts'
import { memberApi } from '@aed/contracts/member'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateMembers } from './useInvalidateMembers'

export type AuthorityBody = BodyIn<typeof memberApi.setAuthority>

/** The 权限管理 dialog: permissions and usage period of one user. */
export function useSetAuthority() {
  const invalidate = useInvalidateMembers()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AuthorityBody }) =>
      sendApi(memberApi.setAuthority, { params: { id }, body }),
    onSuccess: () => invalidate(),
  })
}
