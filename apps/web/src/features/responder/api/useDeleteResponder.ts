import { responderApi } from '@aed/contracts/responder'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateResponders } from './useInvalidateResponders'

/** Deletes a responder (the account stays). */
export function useDeleteResponder() {
  const invalidate = useInvalidateResponders()
  return useMutation({
    mutationFn: (id: number) => sendApi(responderApi.remove, { params: { id } }),
    onSuccess: invalidate,
  })
}
