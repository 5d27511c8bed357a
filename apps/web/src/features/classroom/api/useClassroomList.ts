import { classroomApi } from '@aed/contracts/classroom'
import { toQuery } from '../../../components/DataTable/listParams'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { classroomKeys } from './keys'

/** A page of classroom items (title and category filters). */
export function useClassroomList(request: ListRequest) {
  return useListQuery(request, classroomKeys.list, (params, signal) =>
    callApi(classroomApi.list, { query: toQuery(params), signal }),
  )
}
