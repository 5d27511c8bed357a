import { classroomApi } from '@aed/contracts/classroom'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { classroomKeys } from './keys'

/** One item with its rich text. */
export function useClassroomItem(id: number | null) {
  return useDetailQuery(classroomApi.detail, classroomKeys.detail, id)
}
