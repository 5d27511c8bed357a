import type { DataOf, Endpoint, idParams } from '@aed/contracts'
import { type QueryKey, type UseQueryResult, useQuery } from '@tanstack/react-query'
import { callApi } from './api'

/** A `GET .../:id` endpoint of a contracts table. */
type DetailEndpoint = Endpoint & { method: 'GET'; params: typeof idParams }

/** One record for a dialog: asked only while `id` is set, and fetched afresh each time it opens. */
export function useDetailQuery<E extends DetailEndpoint>(
  endpoint: E,
  key: (id: number) => QueryKey,
  id: number | null,
): UseQueryResult<DataOf<E>> {
  return useQuery({
    queryKey: key(id ?? 0),
    // E's params are idParams, which TypeScript cannot see through the generic call input.
    queryFn: ({ signal }) =>
      callApi(endpoint, { params: { id: id as number }, signal } as unknown as Parameters<
        typeof callApi<E>
      >[1]),
    enabled: id !== null,
    staleTime: 0,
  })
}
