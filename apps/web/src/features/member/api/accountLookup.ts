import type { accountLookupSchema } from '@aed/contracts/member'
import type { QueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { memberKey } from './memberKey'

export type AccountLookup = ReturnType<typeof accountLookupSchema.parse>

/** GET /api/v1/account/{phone}: an existing person to prefill the user dialog. */
export function lookupAccount(client: QueryClient, phone: string) {
  return client.fetchQuery({
    queryKey: [...memberKey, 'account', phone],
    queryFn: ({ signal }) => http.get<AccountLookup>(`/v1/account/${phone}`, { signal }),
    staleTime: 60_000,
  })
}
