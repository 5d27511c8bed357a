import { agencyApi } from '@aed/contracts/agency'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { agencyKeys } from './keys'

/** One organisation with its whole phone. */
export function useAgency(id: number | null) {
  return useDetailQuery(agencyApi.detail, agencyKeys.detail, id)
}
