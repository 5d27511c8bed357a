import { serviceConfigApi } from '@aed/contracts/service-config'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { serviceConfigKeys } from './keys'

/** Sends one delivery of the configuration again now (same webhook-id); refreshes its log. */
export function useResendDelivery(id: number | null) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (deliveryId: number) =>
      sendApi(serviceConfigApi.resend, { params: { id: id ?? 0, delivery_id: deliveryId } }),
    onSettled: () => client.invalidateQueries({ queryKey: serviceConfigKeys.deliveries(id ?? 0) }),
  })
}
