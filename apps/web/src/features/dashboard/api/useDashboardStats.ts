import { deviceStatsApi } from '@aed/contracts/device-stats'
import { useQueries } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { DASHBOARD_REFRESH } from '../refresh'
import { dashboardKeys } from './keys'
import { useDashboardLiveSync } from './useDashboardLiveSync'

/**
 * The dashboard's statistics for a region (undefined: the whole scope): status counts, battery
 * and expiry bands, devices per region one level down. Refetched hourly, and the status and band
 * counts after device status pushes.
 */
export function useDashboardStats(addressCode: string | undefined) {
  useDashboardLiveSync()
  const region = addressCode ?? ''
  const query = { address_code: addressCode }
  const refetchInterval = DASHBOARD_REFRESH.statsMs
  const [state, bands, regions] = useQueries({
    queries: [
      {
        queryKey: dashboardKeys.stats('state', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.stateDistribution, { query, signal }),
        refetchInterval,
      },
      {
        queryKey: dashboardKeys.stats('bands', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.mainStateDistribution, { query, signal }),
        refetchInterval,
      },
      {
        queryKey: dashboardKeys.stats('regions', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.regionalDistribution, { query, signal }),
        refetchInterval,
      },
    ],
  })
  return { state, bands, regions }
}
