import { serviceConfigApi, type WebhookDelivery } from '@aed/contracts/service-config'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { serviceConfigKeys } from './keys'

export type DeliveryQuery = {
  page: number
  page_size: number
  state?: WebhookDelivery['state']
  event?: string
}

/** While a delivery waits for its (re)try, the log asks again this often. */
export const PENDING_POLL_MS = 3000

/**
 * A page of a configuration's webhook delivery log, newest first, polled while some are pending
 * and `poll` (not while the endpoint is disabled: its pending deliveries wait for it).
 */
export function useWebhookDeliveries(id: number | null, query: DeliveryQuery, poll = true) {
  return useQuery({
    queryKey: serviceConfigKeys.deliveryPage(id ?? 0, query),
    queryFn: ({ signal }) => callApi(serviceConfigApi.deliveries, { params: { id: id ?? 0 }, query, signal }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      poll && q.state.data?.resource.some((d) => d.state === 'pending') ? PENDING_POLL_MS : false,
  })
}
