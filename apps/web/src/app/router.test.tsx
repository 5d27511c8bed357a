import { authApi } from '@aed/contracts/auth'
import { menuApi } from '@aed/contracts/menu'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { i18n } from '../i18n'
import { sessionStore } from '../lib/session'
import { StorageKey, storage } from '../lib/storage'
import { userInfo } from '../test/fixtures'
import { freshConsole } from '../test/freshConsole'
import { mockApi, on } from '../test/mockApi'
import { renderRoutes } from '../test/renderRoutes'

const menu = [
  {
    name: 'watchBoard',
    path: '/watchBoard',
    title: '监控看板',
    icon: 'DashboardOutlined',
    children: [{ name: 'watchBoard-dashboard', path: '/watchBoard/dashboard', title: '数据看板' }],
  },
  { name: 'systemManagement', path: '/system', title: '系统管理', icon: 'SettingOutlined' },
]

function api() {
  return mockApi([
    on(menuApi.menu, () => ({ code: 0, data: menu })),
    on(authApi.memberships, () => ({ code: 0, data: { count: 1, resource: [] } })),
  ])
}

freshConsole()

describe('fixed routes', () => {
  it('sends / to the login page and titles it', async () => {
    const { router } = renderRoutes('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'))
    await waitFor(() => expect(document.title).toBe('登录 - AED远程管理云平台'))
  })

  it('shows the 404 page for unknown paths when signed in, with Back Home', async () => {
    api()
    sessionStore.signIn(userInfo())
    const { router } = renderRoutes('/no/such/page')
    expect(await screen.findByText('抱歉，您访问的页面不存在。')).toBeInTheDocument()
    await userEvent.setup().click(screen.getByTestId('back-home'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/watchBoard/dashboard'))
  })

  it('shows errorMsg on the 500 page, else the default', async () => {
    sessionStore.signIn(userInfo())
    const first = renderRoutes(
      '/exception/500?errorMsg=%E6%95%B0%E6%8D%AE%E5%BA%93%E4%B8%8D%E5%8F%AF%E7%94%A8',
    )
    expect(await screen.findByText('数据库不可用')).toBeInTheDocument()
    first.unmount()
    renderRoutes('/exception/500/boom')
    expect(await screen.findByText('boom')).toBeInTheDocument()
  })
})

describe('console layout', () => {
  it('titles the dashboard and hides system management unless agency_member_role is 1', async () => {
    api()
    sessionStore.signIn(userInfo({ agency_member_role: 0 }))
    renderRoutes('/watchBoard/dashboard')
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('nav-menu')).toHaveTextContent('监控看板'))
    expect(screen.getByTestId('nav-menu')).not.toHaveTextContent('系统管理')
    expect(document.title).toBe('数据看板 - AED远程管理云平台')
  })

  it('shows system management for agency_member_role 1 and translates menu titles', async () => {
    api()
    sessionStore.signIn(userInfo({ agency_member_role: 1 }))
    renderRoutes('/watchBoard/dashboard')
    await waitFor(() => expect(screen.getByTestId('nav-menu')).toHaveTextContent('系统管理'))
    await i18n.changeLanguage('en-US')
    await waitFor(() => expect(screen.getByTestId('nav-menu')).toHaveTextContent('System management'))
    await waitFor(() => expect(document.title).toBe('Dashboard - AED remote management cloud platform'))
  })

  it('logs out to /user/login and clears the stored session', async () => {
    api()
    sessionStore.signIn(userInfo())
    const { router } = renderRoutes('/watchBoard/dashboard')
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('user-menu'))
    expect(await screen.findByText('138****0099')).toBeInTheDocument()
    await user.click(screen.getByTestId('logout'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'))
    expect(router.state.location.search).toBe('')
    expect(storage.get(StorageKey.token)).toBeNull()
    expect(storage.get(StorageKey.userInfo)).toBeNull()
  })
})
