import { callApi as calls } from '@aed/contracts/call'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { callKeys } from './keys'

/** One call with the normal devices and responders near it, and its timeline. */
export function useCallDetail(id: number | null) {
  return useQuery({
    queryKey: callKeys.detail(id ?? 0),
    queryFn: ({ signal }) => callApi(calls.detail, { params: { id: id ?? 0 }, signal }),
    enabled: id !== null,
  })
}
