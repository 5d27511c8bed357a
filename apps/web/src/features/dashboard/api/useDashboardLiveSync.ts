import { LiveType } from '@aed/contracts/live'
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { throttle } from '../../../lib/throttle'
import { DASHBOARD_LIVE_MS } from '../refresh'
import { dashboardKeys } from './keys'

// One throttle per cache, not per listener: the status column and the bars both listen, and two
// invalidations in a row would cancel and repeat the same request.
const refreshers = new WeakMap<QueryClient, () => void>()

function refresherOf(client: QueryClient) {
  let refresh = refreshers.get(client)
  if (!refresh) {
    refresh = throttle(() => {
      void client.invalidateQueries({ queryKey: dashboardKeys.stats('state') })
      void client.invalidateQueries({ queryKey: dashboardKeys.stats('bands') })
    }, DASHBOARD_LIVE_MS)
    refreshers.set(client, refresh)
  }
  return refresh
}

/** Refetches the dashboard's status and band counts after pushed device status changes, at most once per 5 s. */
export function useDashboardLiveSync() {
  const client = useQueryClient()
  useLiveFrames(LiveType.DEVICE_STATUS, () => refresherOf(client)())
}
