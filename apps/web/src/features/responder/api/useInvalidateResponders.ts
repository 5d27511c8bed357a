import { useQueryClient } from '@tanstack/react-query'
import { responderKeys } from './keys'

/** After any responder write: the lists, the details and their histories. */
export function useInvalidateResponders() {
  const client = useQueryClient()
  return () => void client.invalidateQueries({ queryKey: responderKeys.all })
}
