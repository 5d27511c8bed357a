import type { BodyIn } from '@aed/contracts'
import { responderApi } from '@aed/contracts/responder'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateResponders } from './useInvalidateResponders'

export type RenewBody = BodyIn<typeof responderApi.renew>

/** Renews a professional's certificate: a new expiry, a new image, perhaps a new number. */
export function useRenewResponder() {
  const invalidate = useInvalidateResponders()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RenewBody }) =>
      sendApi(responderApi.renew, { params: { id }, body }),
    onSuccess: invalidate,
  })
}
