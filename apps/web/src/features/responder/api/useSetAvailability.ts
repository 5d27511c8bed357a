import type { BodyIn } from '@aed/contracts'
import { responderApi } from '@aed/contracts/responder'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateResponders } from './useInvalidateResponders'

export type AvailabilityBody = BodyIn<typeof responderApi.setAvailability>

/** Pauses (with an optional reason) or resumes the alerts to a responder. */
export function useSetAvailability() {
  const invalidate = useInvalidateResponders()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AvailabilityBody }) =>
      sendApi(responderApi.setAvailability, { params: { id }, body }),
    onSuccess: invalidate,
  })
}
