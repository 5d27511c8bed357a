import { agencyApi } from '@aed/contracts/agency'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { agencyKeys } from './keys'

/** The organisations of the member's subtree as a tree. */
export function useAgencyTree() {
  return useQuery({
    queryKey: agencyKeys.tree(),
    queryFn: async ({ signal }) => (await callApi(agencyApi.tree, { signal })).resource,
  })
}
