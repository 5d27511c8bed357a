import { classroomApi } from '@aed/contracts/classroom'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { classroomKeys } from './keys'

/** Deletes a classroom item. */
export function useDeleteClassroom() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => sendApi(classroomApi.remove, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: classroomKeys.all }),
  })
}
