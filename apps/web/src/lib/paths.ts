import { flattenRoutes } from '@aed/contracts'

/** The path of a console route of the shared route tree (contracts' menu.ts), by its name. */
export function routePath(name: string): string {
  const route = flattenRoutes().find((r) => r.name === name)
  if (!route) throw new Error(`no route named ${name}`)
  return route.path
}

/** The fixed paths of the spec; console pages take theirs from the route tree. */
export const Paths = {
  root: '/',
  login: '/user/login',
  recover: '/user/recover',
  forbidden: '/exception/403',
  notFound: '/exception/404',
  serverError: '/exception/500',
  home: routePath('watchBoard'),
  dashboard: routePath('watchBoard-dashboard'),
} as const
