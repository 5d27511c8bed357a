import type { Permissions } from '@aed/contracts'
import type { Member } from '@aed/contracts/member'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { memberKey } from './memberKey'

export type AuthorityBody = { permissions: Permissions; use_expire: string | null }

/** PUT /api/v1/member/{id}/authority/: the 权限管理 dialog. */
export function useSetAuthority() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AuthorityBody }) =>
      http.send<Member>('PUT', `/v1/member/${id}/authority/`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: memberKey }),
  })
}
