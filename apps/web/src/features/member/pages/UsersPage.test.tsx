import { agencyApi } from '@aed/contracts/agency'
import { memberApi } from '@aed/contracts/member'
import { menuApi } from '@aed/contracts/menu'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { member, orgMenu, tree } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { UsersPage } from './UsersPage'

function api(menu = orgMenu, rows = [member()], can = { create: true }) {
  return mockApi([
    on(menuApi.menu, () => ({ code: 0, data: menu })),
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(memberApi.list, () => ({ code: 0, data: { count: rows.length, resource: rows, can } })),
    on(memberApi.detail, () => ({
      code: 0,
      data: member({ account: { ...member().account, phone: '13912345678', email: 'w@aed.cn' } }),
    })),
    on(memberApi.remove, () => ({
      code: 0,
      msg: '删除成功！',
      data: { id: 5, name: '王五', agency_name: '杭州市西湖区急救中心' },
    })),
  ])
}

const superAdmin = () => userInfo({ role_type: 0, agency_type: 0, agency_id: 1, permissions: {} })

freshConsole()

describe('UsersPage', () => {
  it('filters by organisation only when the menu has the organisation list', async () => {
    api()
    sessionStore.signIn(superAdmin())
    const first = renderWithProviders(<UsersPage />)
    await screen.findByText('王五')
    await waitFor(() => expect(screen.getByTestId('filter-agency')).toBeInTheDocument())
    expect(screen.getByTestId('filter-phone')).toBeInTheDocument()
    first.unmount()
    api([orgMenu[1]])
    renderWithProviders(<UsersPage />)
    await screen.findByText('王五')
    expect(screen.queryByTestId('filter-agency')).toBeNull()
    expect(screen.getByTestId('filter-phone')).toBeInTheDocument()
  })

  it('follows the list’s can for add and the actions, not the member’s role', async () => {
    api(orgMenu, [member()], { create: false })
    sessionStore.signIn(superAdmin())
    const first = renderWithProviders(<UsersPage />)
    await screen.findByText('王五')
    expect(screen.queryByTestId('member-add')).toBeNull()
    expect(screen.queryByTestId('member-edit-5')).toBeNull()
    first.unmount()

    api(orgMenu, [member()], { create: true })
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { member: 'READ_ONLY' } }))
    renderWithProviders(<UsersPage />)
    await screen.findByText('王五')
    expect(screen.getByTestId('member-add')).toBeInTheDocument()
  })

  it('shows read-only members no add, edit or delete', async () => {
    api(orgMenu, [member()], { create: false })
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { member: 'READ_ONLY' } }))
    renderWithProviders(<UsersPage />)
    await screen.findByText('王五')
    expect(screen.queryByTestId('member-add')).toBeNull()
    expect(screen.queryByTestId('member-edit-5')).toBeNull()
    expect(screen.queryByTestId('member-delete-5')).toBeNull()
  })

  it('opens 新建用户 at width 1000 and 更改用户信息 with the phone locked', async () => {
    api()
    sessionStore.signIn(superAdmin())
    renderWithProviders(<UsersPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('member-add'))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('新建用户')).toBeInTheDocument()
    expect(dialog.closest('.ant-modal')).toHaveStyle({ width: '1000px' })
    expect(screen.getByTestId('member-phone')).not.toBeDisabled()
    // New users start as general users: no permission-management row until the role is administrator.
    expect(screen.queryByTestId('permission-member')).toBeNull()
    await user.click(screen.getByTestId('member-role'))
    await user.click(await screen.findByTitle('管理员'))
    expect(await screen.findByTestId('permission-member')).toBeInTheDocument()
    await user.click(within(dialog).getByText(/取\s?消/))
    await user.click(screen.getByTestId('member-edit-5'))
    await waitFor(() => expect(screen.getByText('更改用户信息')).toBeInTheDocument())
    await waitFor(() => expect(screen.getByTestId('member-phone')).toHaveValue('13912345678'))
    expect(screen.getByTestId('member-phone')).toBeDisabled()
    expect(screen.queryByTestId('permission-member')).toBeNull()
  })

  it('asks 是否删除用户{name} and shows the server message', async () => {
    const fetchMock = api()
    sessionStore.signIn(superAdmin())
    renderWithProviders(<UsersPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('member-delete-5'))
    expect(await screen.findByText('是否删除用户王五')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('删除成功！')).toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true)
  })
})
