import { agencyApi } from '@aed/contracts/agency'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { agencyKeys } from './keys'

/** One organisation with its whole phone. */
export function useAgency(id: number | null) {
  return useQuery({
    queryKey: agencyKeys.detail(id ?? 0),
    queryFn: ({ signal }) => callApi(agencyApi.detail, { params: { id: id as number }, signal }),
    enabled: id !== null,
    staleTime: 0,
  })
}
