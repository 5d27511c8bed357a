import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the users page: lists, details and the account lookup by phone. */
export const memberKeys = {
  ...resourceKeys('member'),
  account: (phone: string) => ['member', 'account', phone] as const,
}
