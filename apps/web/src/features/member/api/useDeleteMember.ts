import { memberApi } from '@aed/contracts/member'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateMembers } from './useInvalidateMembers'

/** Deletes a user from its organisation. */
export function useDeleteMember() {
  const invalidate = useInvalidateMembers()
  return useMutation({
    mutationFn: (id: number) => sendApi(memberApi.remove, { params: { id } }),
    onSuccess: () => invalidate(),
  })
}
