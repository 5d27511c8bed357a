import { Navigate, type RouteObject } from 'react-router'
import { OrganisationsPage } from '../features/agency/pages/OrganisationsPage'
import { LoginPage } from '../features/auth/pages/LoginPage'
import { ClassroomPage } from '../features/classroom/pages/ClassroomPage'
import { DashboardPage } from '../features/dashboard/pages/DashboardPage'
import { ForbiddenPage } from '../features/exception/pages/ForbiddenPage'
import { NotFoundPage } from '../features/exception/pages/NotFoundPage'
import { RouteErrorPage } from '../features/exception/pages/RouteErrorPage'
import { ServerErrorPage } from '../features/exception/pages/ServerErrorPage'
import { UsersPage } from '../features/member/pages/UsersPage'
import { OperationLogPage } from '../features/operationLog/pages/OperationLogPage'
import { ServiceConfigPage } from '../features/serviceConfig/pages/ServiceConfigPage'
import { SettingsPage } from '../features/settings/pages/SettingsPage'
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
          { path: Paths.organisationsRoot, element: <Navigate to={Paths.organisations} replace /> },
          { path: Paths.organisations, element: <OrganisationsPage /> },
          { path: Paths.usersRoot, element: <Navigate to={Paths.users} replace /> },
          { path: Paths.users, element: <UsersPage /> },
          { path: Paths.systemRoot, element: <Navigate to={Paths.classroom} replace /> },
          { path: Paths.classroom, element: <ClassroomPage /> },
          { path: Paths.serviceConfig, element: <ServiceConfigPage /> },
          { path: Paths.systemSettings, element: <SettingsPage /> },
          { path: Paths.operationLog, element: <OperationLogPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage />, handle: title('route.exception404') },
    ],
  },
]
