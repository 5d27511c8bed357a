import { Navigate, Outlet, useLocation } from 'react-router'
import { useSession } from '../lib/useSession'
import { guard } from './guard'
import { usePageTitle } from './usePageTitle'

/** Applies the guard decision to every navigation and keeps the page title current. */
export function RouteGuard() {
  const location = useLocation()
  const { token, permissions } = useSession()
  usePageTitle(location.pathname)
  const decision = guard({ pathname: location.pathname, search: location.search, token, permissions })
  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />
  return <Outlet />
}
