import { flattenRoutes, type RouteDef, routeTree } from '@aed/contracts'
import { type ComponentType, lazy as lazyComponent, Suspense } from 'react'
import { Navigate, type RouteObject } from 'react-router'
import { loadConsoleTexts } from '../i18n/consoleTexts'
import { Paths } from '../lib/paths'
import { PageLoading } from './PageLoading'
import { pages } from './pages'
import { RouteGuard } from './RouteGuard'
import type { RouteHandle } from './usePageTitle'

const title = (titleKey: string): RouteHandle => ({ titleKey })
const lazy = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() })
/** Errors are rare: the error page (antd Result and its pictures) loads only when one happens. */
const RouteErrorPage = lazyComponent(() =>
  import('../features/exception/pages/RouteErrorPage').then((m) => ({ default: m.RouteErrorPage })),
)

/** Each route of the shared tree: its page, or for a group without one, its first child. */
function consoleRoute(route: RouteDef): RouteObject {
  const page = pages[route.name]
  if (page) return { path: route.path, lazy: lazy(page) }
  const first = route.children?.[0]
  if (!first) throw new Error(`route ${route.name} has no page`)
  return { path: route.path, element: <Navigate to={first.path} replace /> }
}

/** The fixed routes of the spec, then the console pages of the route tree inside the layout. */
export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: (
      <Suspense fallback={<PageLoading />}>
        <RouteErrorPage />
      </Suspense>
    ),
    hydrateFallbackElement: <PageLoading />,
    children: [
      { path: Paths.root, element: <Navigate to={Paths.login} replace /> },
      {
        path: Paths.login,
        lazy: lazy(() => import('../features/auth/pages/LoginPage').then((m) => m.LoginPage)),
        handle: title('route.login'),
      },
      { path: Paths.recover, element: null, handle: title('route.recover') },
      {
        path: Paths.forbidden,
        lazy: lazy(() => import('../features/exception/pages/ForbiddenPage').then((m) => m.ForbiddenPage)),
        handle: title('route.exception403'),
      },
      {
        path: Paths.notFound,
        lazy: lazy(() => import('../features/exception/pages/NotFoundPage').then((m) => m.NotFoundPage)),
        handle: title('route.exception404'),
      },
      ...[Paths.serverError, `${Paths.serverError}/:errorMsg`].map((path) => ({
        path,
        lazy: lazy(() =>
          import('../features/exception/pages/ServerErrorPage').then((m) => m.ServerErrorPage),
        ),
        handle: title('route.exception500'),
      })),
      {
        // The console's frame, with the texts of its pages.
        lazy: lazy(
          async () => (await Promise.all([import('./layout/AppLayout'), loadConsoleTexts()]))[0].AppLayout,
        ),
        children: flattenRoutes(routeTree).map(consoleRoute),
      },
      {
        path: '*',
        lazy: lazy(() => import('../features/exception/pages/NotFoundPage').then((m) => m.NotFoundPage)),
        handle: title('route.exception404'),
      },
    ],
  },
]
