import type { Member } from '@aed/contracts/member'
import { useQueryClient } from '@tanstack/react-query'
import { sessionStore } from '../../../lib/session'
import { authKeys } from '../../auth/api/keys'
import { memberKeys } from './keys'

/**
 * After a user is saved or deleted: the user lists and details; and the signed-in account's
 * memberships when the user is that account (adding oneself to another organisation).
 */
export function useInvalidateMembers() {
  const client = useQueryClient()
  return (saved?: Pick<Member, 'account'>) => {
    void client.invalidateQueries({ queryKey: memberKeys.all })
    if (saved && saved.account.id === sessionStore.get().userInfo?.account_id)
      void client.invalidateQueries({ queryKey: authKeys.memberships() })
  }
}
