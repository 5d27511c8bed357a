import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { classroomKey } from './classroomApi'

/** DELETE /api/v1/aid-classroom/{id}. */
export function useDeleteClassroom() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => http.send<unknown>('DELETE', `/v1/aid-classroom/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: classroomKey }),
  })
}
