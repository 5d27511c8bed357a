import { LIVE_FALLBACK_POLL_MS } from '@aed/contracts/live'
import { messageApi } from '@aed/contracts/message'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { messageKeys } from './keys'

/** The bell's count: pushed while the socket is live, polled every 2 s only while it is not. */
export function useUnconfirmedAmount(live: boolean) {
  return useQuery({
    queryKey: messageKeys.amount(),
    queryFn: ({ signal }) => callApi(messageApi.unconfirmedAmount, { signal }),
    select: (data) => data.amount,
    // While live the count frames fill the cache; no request at all.
    enabled: !live,
    refetchInterval: LIVE_FALLBACK_POLL_MS,
  })
}
