import { useQuery } from '@tanstack/react-query'
import { classroomKey, getClassroomItem } from './classroomApi'

/** GET /api/v1/aid-classroom/{id}: one item with its rich text. */
export function useClassroomItem(id: number | null) {
  return useQuery({
    queryKey: [...classroomKey, 'detail', id],
    queryFn: ({ signal }) => getClassroomItem(id as number, signal),
    enabled: id !== null,
    staleTime: 0,
  })
}
