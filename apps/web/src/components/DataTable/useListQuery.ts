import type { Paged } from '@aed/contracts'
import { keepPreviousData, type QueryKey, type UseQueryResult, useQuery } from '@tanstack/react-query'
import type { ListParams } from './listParams'

/** What a list hook is asked for: page, size, sort and filters, and whether the list was cleared. */
export type ListRequest = ListParams & { cleared?: boolean }

/** The part of a list query a `DataTable` (or a map of the same rows) reads. */
export type ListQuery<T> = Pick<UseQueryResult<Paged<T>>, 'data' | 'isFetching' | 'dataUpdatedAt'>

/**
 * One page of a list: the feature's list hooks call this with their query key and fetch. A
 * cleared list asks nothing; the previous page stays on screen while the next one loads. The
 * answer may carry more than the page, such as the toolbar's `can`.
 */
export function useListQuery<T, A extends Paged<T> = Paged<T>>(
  request: ListRequest,
  key: (params: ListParams) => QueryKey,
  fetch: (params: ListParams, signal: AbortSignal) => Promise<A>,
): UseQueryResult<A> {
  const params: ListParams = {
    page: request.page,
    page_size: request.page_size,
    order_by: request.order_by,
    filters: request.filters,
  }
  return useQuery({
    queryKey: key(params),
    queryFn: ({ signal }) => fetch(params, signal),
    enabled: !request.cleared,
    placeholderData: keepPreviousData,
  })
}
