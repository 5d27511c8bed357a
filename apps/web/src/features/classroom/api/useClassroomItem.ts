import { classroomApi } from '@aed/contracts/classroom'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { classroomKeys } from './keys'

/** One item with its rich text. */
export function useClassroomItem(id: number | null) {
  return useQuery({
    queryKey: classroomKeys.detail(id ?? 0),
    queryFn: ({ signal }) => callApi(classroomApi.detail, { params: { id: id as number }, signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
