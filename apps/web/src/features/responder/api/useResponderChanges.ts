import { responderApi } from '@aed/contracts/responder'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { responderKeys } from './keys'

/** How many history lines the detail panel shows. */
export const HISTORY_SIZE = 20

/**
 * A responder's latest history lines, newest first, fetched afresh each time the panel shows them
 * (as the detail is): lines the system writes (the daily certificate check) come with no action
 * of this page to invalidate them, and the detail beside them would otherwise say 已过期 over a
 * history that does not.
 */
export function useResponderChanges(id: number) {
  return useQuery({
    queryKey: responderKeys.changes(id),
    queryFn: ({ signal }) =>
      callApi(responderApi.changes, {
        params: { id },
        query: { page: 1, page_size: HISTORY_SIZE },
        signal,
      }),
    staleTime: 0,
  })
}
