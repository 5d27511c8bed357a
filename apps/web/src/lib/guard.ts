import { flattenRoutes, type RouteDef, routeAllowed, routeTree } from '@aed/contracts'
import { Paths } from './paths'
import { safeRedirect } from './safeRedirect'

export type GuardInput = {
  pathname: string
  search: string
  token: string | null
  permissions: readonly string[]
  routes?: RouteDef[]
}

export type GuardDecision = { type: 'allow' } | { type: 'redirect'; to: string }

/** Query keys the WeChat sign-in page adds when it returns to the console. */
const WECHAT_RETURN_KEYS = ['code', 'state'] as const

function trimSlash(path: string) {
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}

/** The console route definition for a path, if one declares it. */
export function routeFor(pathname: string, routes: RouteDef[] = routeTree): RouteDef | undefined {
  const path = trimSlash(pathname)
  return flattenRoutes(routes).find((r) => trimSlash(r.path) === path)
}

/**
 * Where a navigation may go. No token: only the login page, anything else goes to login with
 * the full original path as `redirect`. Signed in: the login page goes to its `redirect` or the
 * dashboard (a WeChat return keeps its code and state for the bind flow), and a route whose permission list
 * the member misses goes to 403.
 */
export function guard({
  pathname,
  search,
  token,
  permissions,
  routes = routeTree,
}: GuardInput): GuardDecision {
  const isLogin = trimSlash(pathname) === Paths.login
  if (!token) {
    if (isLogin) return { type: 'allow' }
    return { type: 'redirect', to: `${Paths.login}?redirect=${encodeURIComponent(pathname + search)}` }
  }
  if (isLogin) {
    const params = new URLSearchParams(search)
    const carried = new URLSearchParams()
    for (const key of WECHAT_RETURN_KEYS) {
      const value = params.get(key)
      if (value) carried.set(key, value)
    }
    const complete = WECHAT_RETURN_KEYS.every((key) => carried.has(key))
    if (complete) return { type: 'redirect', to: `${Paths.dashboard}?${carried.toString()}` }
    return { type: 'redirect', to: safeRedirect(params.get('redirect'), Paths.dashboard) }
  }
  const route = routeFor(pathname, routes)
  if (route && !routeAllowed(route.permissions, permissions)) return { type: 'redirect', to: Paths.forbidden }
  return { type: 'allow' }
}
