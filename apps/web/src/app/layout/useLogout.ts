import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { Paths } from '../../lib/paths'
import { sessionStore } from '../../lib/session'

/** Clears the stored session and cached data, then goes to /user/login. */
export function useLogout() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  return () => {
    sessionStore.clear()
    queryClient.clear()
    // One render for both changes, so the guard never sees the old page without a token.
    navigate(Paths.login, { replace: true, flushSync: true })
  }
}
