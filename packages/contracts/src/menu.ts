import { z } from 'zod'
import type { PermissionArea } from './permissions.ts'

/** One entry of the server-built sidebar menu. */
export type MenuItem = {
  /** Route name, also the i18n key `menu.<name>` in the console. */
  name: string
  path: string
  /** Title in the requester's language. */
  title: string
  icon?: string
  children?: MenuItem[]
}

export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    title: z.string(),
    icon: z.string().optional(),
    children: z.array(menuItemSchema).optional(),
  }),
)

/** A console route: its permission list decides both the menu and the route guard. */
export type RouteDef = {
  name: string
  path: string
  title: [zh: string, en: string]
  icon?: string
  /** Allowed when the member holds at least one; empty or absent means open to every member. */
  permissions?: PermissionArea[]
  /** Shown in the menu. */
  menu?: boolean
  children?: RouteDef[]
}

/**
 * The console's navigable routes. Later features add their entries here; the server builds
 * the menu from it and the console's guard checks the same permission lists.
 */
export const routeTree: RouteDef[] = [
  {
    name: 'watchBoard',
    path: '/watchBoard',
    title: ['监控看板', 'Watch board'],
    icon: 'DashboardOutlined',
    menu: true,
    children: [
      {
        name: 'watchBoard-dashboard',
        path: '/watchBoard/dashboard',
        title: ['数据看板', 'Dashboard'],
        menu: true,
      },
    ],
  },
]

/** Flattens the route tree, children after their parent. */
export function flattenRoutes(routes: RouteDef[] = routeTree): RouteDef[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])])
}

/** Whether a member holding `held` may open a route that declares `needed`. */
export function routeAllowed(needed: readonly string[] | undefined, held: readonly string[]): boolean {
  return !needed || needed.length === 0 || needed.some((p) => held.includes(p))
}
