import { type MemberForm, memberApi } from '@aed/contracts/member'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateMembers } from './useInvalidateMembers'

/** Adds a user (id null) or edits one (phone locked); answers the server's message. */
export function useSaveMember() {
  const invalidate = useInvalidateMembers()
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: MemberForm }) =>
      id === null
        ? sendApi(memberApi.create, { body: form })
        : sendApi(memberApi.update, { params: { id }, body: form }),
    onSuccess: ({ data }) => invalidate(data),
  })
}
