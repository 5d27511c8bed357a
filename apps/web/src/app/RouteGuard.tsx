import { Navigate, Outlet, useLocation, useNavigation } from 'react-router'
import { guard } from '../lib/guard'
import { Paths } from '../lib/paths'
import { useSession } from '../lib/useSession'
import { usePageTitle } from './usePageTitle'

/** Applies the guard decision to every navigation and keeps the page title current. */
export function RouteGuard() {
  const location = useLocation()
  const navigation = useNavigation()
  const { token, permissions } = useSession()
  usePageTitle(location.pathname)
  const decision = guard({ pathname: location.pathname, search: location.search, token, permissions })
  if (decision.type === 'redirect') {
    // Signing out already heads to the login page, whose chunk may still be loading: wait for it
    // rather than redirect again with the old page as `redirect`.
    if (navigation.state !== 'idle' && navigation.location?.pathname === Paths.login) return null
    return <Navigate to={decision.to} replace />
  }
  return <Outlet />
}
