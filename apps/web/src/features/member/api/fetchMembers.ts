import type { Paged } from '@aed/contracts'
import type { Member } from '@aed/contracts/member'
import { type ListParams, toQuery } from '../../../components/DataTable/listParams'
import { http } from '../../../lib/request'

/** GET /api/v1/member/: a page of users (name, role, agency, phone filters; phones and emails masked). */
export function fetchMembers(params: ListParams, signal: AbortSignal) {
  return http.get<Paged<Member>>('/v1/member/', { signal, query: toQuery(params) })
}
