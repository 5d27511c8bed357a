import type { Paged } from '@aed/contracts'
import type { Agency } from '@aed/contracts/agency'
import { type ListParams, toQuery } from '../../../components/DataTable/listParams'
import { http } from '../../../lib/request'

/** GET /api/v1/agency/: a page of organisations (name, index_link, agency_type filters). */
export function fetchAgencies(params: ListParams, signal: AbortSignal, indexLink?: string | null) {
  return http.get<Paged<Agency>>('/v1/agency/', {
    signal,
    query: { ...toQuery(params), index_link: indexLink ?? undefined },
  })
}
