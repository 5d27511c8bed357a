import { memberApi } from '@aed/contracts/member'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { memberKeys } from './keys'

/** One user with whole phone and email. */
export function useMember(id: number | null) {
  return useDetailQuery(memberApi.detail, memberKeys.detail, id)
}
