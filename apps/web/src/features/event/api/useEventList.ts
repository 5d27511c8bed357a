import type { EventKind, EventListCan, EventRowOf } from '@aed/contracts/event'
import { type ListRequest, useListQuery } from '../../../components/DataTable/useListQuery'
import { callApi } from '../../../lib/api'
import { eventQuery, listEndpoint } from './eventQuery'
import { eventKeys } from './keys'

/** A page of one kind's current (current=true) or past events with the page's filters, and the page's `can`. */
export function useEventList<K extends EventKind>(kind: K, current: boolean, request: ListRequest) {
  return useListQuery<EventRowOf[K], { count: number; resource: EventRowOf[K][]; can?: EventListCan }>(
    request,
    (params) => eventKeys.page(kind, current, params),
    async (params, signal) => {
      const query = { page: params.page, page_size: params.page_size, ...eventQuery(params.filters, current) }
      const data = await callApi(listEndpoint(kind), { query, signal })
      return 'resource' in data
        ? { count: data.count, resource: data.resource as EventRowOf[K][], can: data.can }
        : { count: 0, resource: [] }
    },
  )
}
