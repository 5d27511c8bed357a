import type { DataOf } from '@aed/contracts'
import { memberApi } from '@aed/contracts/member'
import type { QueryClient } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { memberKeys } from './keys'

export type AccountLookup = DataOf<typeof memberApi.lookupAccount>

/** An existing person to prefill the user dialog. */
export function lookupAccount(client: QueryClient, phone: string) {
  return client.fetchQuery({
    queryKey: memberKeys.account(phone),
    queryFn: ({ signal }) => callApi(memberApi.lookupAccount, { params: { phone }, signal }),
    staleTime: 60_000,
  })
}
