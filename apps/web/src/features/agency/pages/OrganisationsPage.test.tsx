import { agencyApi } from '@aed/contracts/agency'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { agency, tree } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { OrganisationsPage } from './OrganisationsPage'

const stateCalls: unknown[] = []
function api(can = { create: true }) {
  return mockApi([
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(agencyApi.list, () => ({ code: 0, data: { count: 1, resource: [agency()], can } })),
    on(agencyApi.detail, () => ({ code: 0, data: agency({ phone: '0571-12341234' }) })),
    on(agencyApi.setState, ({ body }) => {
      stateCalls.push(body)
      return { code: 0, msg: '禁用成功！', data: { id: 4, name: '杭州市西湖区急救中心', disabled: true } }
    }),
  ])
}

freshConsole({
  reset: () => {
    stateCalls.length = 0
  },
  signedIn: userInfo({ role_type: 0, agency_type: 0, agency_id: 1, permissions: {} }),
})

async function options() {
  let items: string[] = []
  await waitFor(() => {
    const open = document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    items = [...(open?.querySelectorAll('.ant-select-item-option') ?? [])].map((o) => o.textContent ?? '')
    expect(items.length).toBeGreaterThan(0)
  })
  return items
}

describe('OrganisationsPage', () => {
  it('lists name, type, parent, level N级机构, masked phone and address', async () => {
    api()
    renderWithProviders(<OrganisationsPage />)
    const row = await screen.findByTestId('row-4')
    for (const text of [
      '杭州市西湖区急救中心',
      '普通机构',
      '华东区域总代理',
      '3级机构',
      '057****1234',
      '浙江省杭州市西湖区文三路20号',
    ])
      expect(row).toHaveTextContent(text)
  })

  it('follows the list’s can for add and the actions, not the member’s role', async () => {
    api({ create: false })
    renderWithProviders(<OrganisationsPage />)
    await screen.findByTestId('row-4')
    expect(screen.queryByTestId('agency-add')).toBeNull()
    expect(screen.queryByTestId('agency-edit-4')).toBeNull()
  })

  it('collapses and expands the whole tree', async () => {
    api()
    renderWithProviders(<OrganisationsPage />)
    expect(await screen.findByTestId('agency-node-4')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(screen.getByTestId('agency-tree-collapse'))
    await waitFor(() => expect(screen.queryByTestId('agency-node-4')).toBeNull())
    await user.click(screen.getByTestId('agency-tree-expand'))
    expect(await screen.findByTestId('agency-node-4')).toBeInTheDocument()
  })

  it('filters the list by the chosen tree node through the URL', async () => {
    const fetchMock = api()
    const { router } = renderWithProviders(<OrganisationsPage />)
    await userEvent.setup().click(await screen.findByTestId('agency-node-2'))
    await waitFor(() => expect(router.state.location.search).toBe('?index_link=%2F2%2F'))
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('index_link=%2F2%2F'))).toBe(true),
    )
  })

  it('adds with 新增机构: general agent and ordinary for system members, level under the parent', async () => {
    api()
    renderWithProviders(<OrganisationsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('agency-add'))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('新增机构')).toBeInTheDocument()
    await user.click(screen.getByTestId('agency-type'))
    expect(await options()).toEqual(['总代理', '普通机构'])
    expect(screen.getByTestId('agency-level')).toHaveValue('2级机构')
    await user.click(screen.getByTestId('agency-parent'))
    await waitFor(() =>
      expect(document.querySelectorAll('.ant-select-item-option[title="华东区域总代理"]').length).toBe(1),
    )
    await user.click(document.querySelector('.ant-select-item-option[title="华东区域总代理"]')!)
    expect(screen.getByTestId('agency-level')).toHaveValue('3级机构')
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('请输入机构名称')).toBeInTheDocument()
    expect(await screen.findByText('地址需要选择到区!')).toBeInTheDocument()
  })

  it('modifies with 修改机构 and the whole phone, offering the system type too', async () => {
    api()
    renderWithProviders(<OrganisationsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('agency-edit-4'))
    expect(await screen.findByText('修改机构')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('agency-phone')).toHaveValue('0571-12341234'))
    await user.click(screen.getByTestId('agency-type'))
    expect(await options()).toEqual(['系统机构', '总代理', '普通机构'])
  })

  it('disables after the confirm that the organisation and those below lose all functions', async () => {
    api()
    renderWithProviders(<OrganisationsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('agency-toggle-4'))
    expect(await screen.findByText(/禁用后，该机构及其下级机构将失去所有功能/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('禁用成功！')).toBeInTheDocument()
    expect(stateCalls).toEqual([{ disabled: true }])
  })
})
