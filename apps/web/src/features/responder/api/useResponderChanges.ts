import { responderApi } from '@aed/contracts/responder'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { responderKeys } from './keys'

/** How many history lines the detail panel shows. */
export const HISTORY_SIZE = 20

/** A responder's latest history lines, newest first. */
export function useResponderChanges(id: number) {
  return useQuery({
    queryKey: responderKeys.changes(id),
    queryFn: ({ signal }) =>
      callApi(responderApi.changes, {
        params: { id },
        query: { page: 1, page_size: HISTORY_SIZE },
        signal,
      }),
  })
}
