import { pathOf } from '@aed/contracts'
import { type DeviceLocationQuery, dashboardApi, MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import { callApi } from '../../../lib/api'
import { API_BASE, buildHeaders, buildUrl, REQUEST_TIMEOUT_MS } from '../../../lib/request'
import { clusterClient } from '../map/clusterClient'
import { type DeviceLayer, layerOf } from '../map/deviceLayer'

type Query = Pick<DeviceLocationQuery, 'address_code'> & { status_list: string }

/**
 * The device layer of a region and statuses. The cluster worker fetches and reads it (2.5 MB of
 * JSON at 100,000 devices stays off the main thread, and the worker indexes it at once); where
 * there is no worker, or the answer is not a code-0 one, the console's request client asks, so
 * errors are shown and handled as for every call.
 */
export async function fetchDeviceLayer(query: Query, signal: AbortSignal): Promise<DeviceLayer> {
  const client = clusterClient()
  if (client) {
    const fetched = await client.fetch(urlOf(query), headers(), REQUEST_TIMEOUT_MS, signal)
    if (signal.aborted) throw new DOMException('The request was aborted', 'AbortError')
    if (fetched) {
      // The request is the worker's: its timing, on the page's clock, for the benchmark.
      const t = fetched.timing
      if (t)
        performance.mark('dashboard:response', {
          startTime: t.responseEnd - performance.timeOrigin,
          detail: t,
        })
      return fetched.layer
    }
  }
  return layerOf(await callApi(dashboardApi.deviceLocation, { query, signal }), MAP_DEVICE_STATUSES)
}

const urlOf = (query: Query) =>
  buildUrl(pathOf(dashboardApi.deviceLocation).slice(API_BASE.length), {
    address_code: query.address_code,
    status_list: query.status_list,
  })

/** The headers lib/request sends with a GET (language, token and user), as entries a worker can take. */
const headers = (): [string, string][] => [...buildHeaders()]
