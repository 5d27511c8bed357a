import type { Paged } from '@aed/contracts'
import type { ClassroomDetail, ClassroomItem } from '@aed/contracts/classroom'
import { type ListParams, toQuery } from '../../../components/DataTable/listParams'
import { http } from '../../../lib/request'

export const classroomKey = ['aid-classroom'] as const

/** The classroom form as the dialog sends it; the server applies the required rules. */
export type ClassroomBody = {
  category: number
  title: string
  describe: string
  link: string
  illustration: string | null
  content_type: number
  content: string
}

/** GET /api/v1/aid-classroom/: a page of classroom items (title, category filters). */
export function fetchClassroom(params: ListParams, signal: AbortSignal) {
  return http.get<Paged<ClassroomItem>>('/v1/aid-classroom/', { signal, query: toQuery(params) })
}

export function getClassroomItem(id: number, signal: AbortSignal) {
  return http.get<ClassroomDetail>(`/v1/aid-classroom/${id}`, { signal })
}
