import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter } from 'react-router'
// The DOM flavour of RouterProvider lets navigations use flushSync (sign-out relies on it).
import { RouterProvider } from 'react-router/dom'
import { AppProviders } from './app/AppProviders'
import { routes } from './app/router'
import { configureRequest } from './lib/request'
import './styles/global.css'
import './styles/login.css'
import './styles/layout.css'
import './styles/settings.css'
import './styles/admin.css'

const router = createBrowserRouter(routes)
configureRequest({ navigate: (to) => void router.navigate(to, { replace: true }) })

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
)
