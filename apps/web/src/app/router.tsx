import { Navigate, type RouteObject } from 'react-router'
import { LoginPage } from '../features/auth/pages/LoginPage'
import { DashboardPage } from '../features/dashboard/pages/DashboardPage'
import { ForbiddenPage } from '../features/exception/pages/ForbiddenPage'
import { NotFoundPage } from '../features/exception/pages/NotFoundPage'
import { RouteErrorPage } from '../features/exception/pages/RouteErrorPage'
import { ServerErrorPage } from '../features/exception/pages/ServerErrorPage'
import { AppLayout } from './layout/AppLayout'
import { Paths } from './paths'
import { RouteGuard } from './RouteGuard'
import type { RouteHandle } from './usePageTitle'

const title = (titleKey: string): RouteHandle => ({ titleKey })

/** The fixed routes of the spec; console pages live inside the layout route. */
export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: Paths.root, element: <Navigate to={Paths.login} replace /> },
      { path: Paths.login, id: 'login', element: <LoginPage />, handle: title('route.login') },
      { path: Paths.recover, element: null, handle: title('route.recover') },
      { path: Paths.forbidden, element: <ForbiddenPage />, handle: title('route.exception403') },
      { path: Paths.notFound, element: <NotFoundPage />, handle: title('route.exception404') },
      { path: Paths.serverError, element: <ServerErrorPage />, handle: title('route.exception500') },
      {
        path: `${Paths.serverError}/:errorMsg`,
        element: <ServerErrorPage />,
        handle: title('route.exception500'),
      },
      {
        element: <AppLayout />,
        children: [
          { path: Paths.home, element: <DashboardPage /> },
          { path: Paths.dashboard, element: <DashboardPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage />, handle: title('route.exception404') },
    ],
  },
]
