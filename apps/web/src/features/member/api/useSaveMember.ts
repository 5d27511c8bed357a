import type { Member, MemberForm } from '@aed/contracts/member'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { memberKey } from './memberKey'

/** POST /api/v1/member (new) or PUT /api/v1/member/{id} (phone locked); answers the server's message. */
export function useSaveMember() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: MemberForm }) =>
      id === null
        ? http.send<Member>('POST', '/v1/member', form)
        : http.send<Member>('PUT', `/v1/member/${id}`, form),
    onSuccess: () => client.invalidateQueries({ queryKey: memberKey }),
  })
}
