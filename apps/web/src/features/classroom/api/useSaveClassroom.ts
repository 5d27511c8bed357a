import { classroomApi } from '@aed/contracts/classroom'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import type { ClassroomBody } from '../classroomRules'
import { classroomKeys } from './keys'

/** Creates a classroom item (id null) or modifies one; answers the server's message. */
export function useSaveClassroom() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ClassroomBody }) =>
      id === null
        ? sendApi(classroomApi.create, { body })
        : sendApi(classroomApi.update, { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: classroomKeys.all }),
  })
}
