import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { memberKey } from './memberKey'

/** DELETE /api/v1/member/{id}. */
export function useDeleteMember() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => http.send<unknown>('DELETE', `/v1/member/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: memberKey }),
  })
}
