import { agencyApi } from '@aed/contracts/agency'
import { authApi } from '@aed/contracts/auth'
import { classroomApi } from '@aed/contracts/classroom'
import { menuApi } from '@aed/contracts/menu'
import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../lib/session'
import { orgMenu, tree } from '../test/adminFixtures'
import { userInfo } from '../test/fixtures'
import { freshConsole } from '../test/freshConsole'
import { mockApi, on } from '../test/mockApi'
import { renderRoutes } from '../test/renderRoutes'

function api() {
  return mockApi([
    on(menuApi.menu, () => ({ code: 0, data: orgMenu })),
    on(authApi.memberships, () => ({ code: 0, data: { count: 1, resource: [] } })),
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(agencyApi.list, () => ({ code: 0, data: { count: 0, resource: [], can: { create: true } } })),
    on(classroomApi.list, () => ({
      code: 0,
      data: { count: 0, resource: [], can: { create: true, edit: true, delete: true } },
    })),
  ])
}

freshConsole()

describe('administration routes', () => {
  it('open the organisation list with its title', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['agency'], permissions: { agency: 'EDIT' } }))
    renderRoutes('/organizationalManagement/organizational')
    expect(await screen.findByTestId('organisations-page')).toBeInTheDocument()
    await waitFor(() => expect(document.title).toBe('机构列表 - AED远程管理云平台'))
  })

  it('open agencyManagement-agencyList1 alone: the single-menu flag hides the navigation', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['agency'], permissions: { agency: 'EDIT' } }))
    const { router } = renderRoutes('/agencyManagement/agencyList1')
    expect(await screen.findByTestId('organisations-page')).toBeInTheDocument()
    expect(screen.getByTestId('app-layout')).toHaveAttribute('data-single-menu', 'true')
    expect(screen.queryByTestId('nav-menu')).toBeNull()
    await waitFor(() => expect(document.title).toBe('机构列表 - AED远程管理云平台'))
    // The flag follows each navigation: the menu's own organisation list has the navigation again.
    await act(() => router.navigate('/organizationalManagement/organizational'))
    expect(await screen.findByTestId('nav-menu')).toBeInTheDocument()
    expect(screen.getByTestId('app-layout')).not.toHaveAttribute('data-single-menu')
  })

  it('keep agencyManagement-agencyList1 to members of the agency area', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['device'], permissions: { device: 'EDIT' } }))
    const { router } = renderRoutes('/agencyManagement/agencyList1')
    await waitFor(() => expect(router.state.location.pathname).toBe('/exception/403'))
  })

  it('send a signed-in member who opens /user/login on to the console', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['agency'], permissions: { agency: 'EDIT' } }))
    const { router } = renderRoutes('/user/login?redirect=%2FsystemManagement%2Fclassroom')
    await waitFor(() => expect(router.state.location.pathname).toBe('/systemManagement/classroom'))
    expect(screen.queryByTestId('login-submit')).toBeNull()
  })

  it('send a menu group path to its first page', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['agency'], permissions: { agency: 'EDIT' } }))
    const { router } = renderRoutes('/systemManagement')
    await waitFor(() => expect(router.state.location.pathname).toBe('/systemManagement/classroom'))
    expect(await screen.findByTestId('classroom-page')).toBeInTheDocument()
  })

  it('keep service configuration to system super administrators', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['agency'], permissions: { agency: 'EDIT' } }))
    const { router } = renderRoutes('/systemManagement/serviceConfig')
    await waitFor(() => expect(router.state.location.pathname).toBe('/exception/403'))
  })
})
