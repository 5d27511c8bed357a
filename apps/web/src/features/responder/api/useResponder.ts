import { responderApi } from '@aed/contracts/responder'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { responderKeys } from './keys'

/** One responder with whole phone and email. */
export function useResponder(id: number | null) {
  return useDetailQuery(responderApi.detail, responderKeys.detail, id)
}
