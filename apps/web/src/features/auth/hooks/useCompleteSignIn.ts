import type { UserInfo } from '@aed/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearchParams } from 'react-router'
import { Paths } from '../../../lib/paths'
import { safeRedirect } from '../../../lib/safeRedirect'
import { sessionStore } from '../../../lib/session'
import { StorageKey, storage } from '../../../lib/storage'

/** Stores a chosen session and enters the console (the `redirect` query, else the dashboard). */
export function useCompleteSignIn() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [params] = useSearchParams()
  return (userInfo: UserInfo) => {
    queryClient.clear()
    sessionStore.signIn(userInfo)
    if (userInfo.password_expired) storage.set(StorageKey.passwordPrompt, true)
    else storage.remove(StorageKey.passwordPrompt)
    navigate(safeRedirect(params.get('redirect'), Paths.dashboard), { replace: true })
  }
}
