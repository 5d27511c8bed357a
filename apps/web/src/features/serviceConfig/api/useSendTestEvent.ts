import { serviceConfigApi } from '@aed/contracts/service-config'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { serviceConfigKeys } from './keys'

/** Sends a webhook.test event to the configuration's push URL; refreshes its log. */
export function useSendTestEvent(id: number | null) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => sendApi(serviceConfigApi.test, { params: { id: id ?? 0 } }),
    onSettled: () => client.invalidateQueries({ queryKey: serviceConfigKeys.deliveries(id ?? 0) }),
  })
}
