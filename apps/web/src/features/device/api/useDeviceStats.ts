import { deviceStatsApi } from '@aed/contracts/device-stats'
import { useQueries } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

const key = (name: string, region: string) => deviceKeys.stats(name, region)

/**
 * The device page's statistics for a region (the list's region filter): the status distribution,
 * the battery and expiry bands, the monthly maintenance and the key-maintenance counts.
 */
export function useDeviceStats(addressCode: string | undefined) {
  const region = addressCode ?? ''
  const query = { address_code: addressCode }
  const [state, bands, monthly, keyMaintenance] = useQueries({
    queries: [
      {
        queryKey: key('state', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.stateDistribution, { query, signal }),
      },
      {
        queryKey: key('bands', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.mainStateDistribution, { query, signal }),
      },
      {
        queryKey: key('monthly', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.maintenanceMonthly, { query, signal }),
      },
      {
        queryKey: key('key', region),
        queryFn: ({ signal }) => callApi(deviceStatsApi.keyMaintenance, { query, signal }),
      },
    ],
  })
  return { state, bands, monthly, keyMaintenance }
}
