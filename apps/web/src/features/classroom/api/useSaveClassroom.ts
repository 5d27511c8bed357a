import type { ClassroomDetail } from '@aed/contracts/classroom'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { type ClassroomBody, classroomKey } from './classroomApi'

/** POST /api/v1/aid-classroom/ (new) or PUT /api/v1/aid-classroom/{id}. */
export function useSaveClassroom() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ClassroomBody }) =>
      id === null
        ? http.send<ClassroomDetail>('POST', '/v1/aid-classroom/', body)
        : http.send<ClassroomDetail>('PUT', `/v1/aid-classroom/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: classroomKey }),
  })
}
