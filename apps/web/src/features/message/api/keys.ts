import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the message centre: the list (one per language) and the bell's count. */
export const messageKeys = {
  ...resourceKeys('message'),
  amount: () => ['message', 'amount'] as const,
}
