import { deviceApi } from '@aed/contracts/device'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { deviceListCan, everyDeviceCan, factoryDevice } from '../../../test/deviceFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, recordOn } from '../../../test/mockApi'
import { pageRoutes } from '../../../test/pageRoutes'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { FactoryDevicesPage } from './FactoryDevicesPage'

const calls: { list: MockCall[]; assign: MockCall[]; remove: MockCall[] } = {
  list: [],
  assign: [],
  remove: [],
}
const rows = [
  factoryDevice(),
  factoryDevice({ id: 22, device_sn: 'M642603738', is_register: 1, can: { delete: false } }),
]

/** The list's `can`, as the server computes it for the member signed in. */
const editorCan = deviceListCan({ register: true, export: true, import: true })
const systemSuperCan = everyDeviceCan
const ordinarySuperCan = { ...systemSuperCan, clean_all: false, import: false }
let answeredCan = deviceListCan()

function api() {
  return mockApi([
    ...pageRoutes(),
    recordOn(deviceApi.list, calls.list, () => ({
      code: 0,
      data: { count: rows.length, resource: rows, can: answeredCan },
    })),
    recordOn(deviceApi.assign, calls.assign, () => {
      return {
        code: 0,
        msg: '分配成功！',
        data: { agency_id: 4, agency_name: '杭州市西湖区急救中心', device_sn_list: ['M732514246'] },
      }
    }),
    recordOn(deviceApi.remove, calls.remove, () => ({
      code: 0,
      msg: '删除成功！',
      data: { id: 21, device_sn: 'M732514246', register_code: null },
    })),
  ])
}

freshConsole({
  reset: () => {
    for (const list of Object.values(calls)) list.length = 0
  },
})

const rowCheckbox = (id: number) => within(screen.getByTestId(`row-${id}`)).getByRole('checkbox')

describe('FactoryDevicesPage', () => {
  it('lists the factory devices newest first with their registration', async () => {
    api()
    answeredCan = systemSuperCan
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, agency_id: 1 }))
    renderWithProviders(<FactoryDevicesPage />)
    expect(await screen.findByText('M732514246')).toBeInTheDocument()
    expect(screen.getByText('未注册')).toBeInTheDocument()
    expect(screen.getByText('已注册')).toBeInTheDocument()
    const query = calls.list[0].query
    expect(query.get('device_list_type')).toBe('2')
    expect(query.get('order_by')).toBe('-create_time')
  })

  it('assigns only for super administrators, and asks for a selection first', async () => {
    api()
    answeredCan = editorCan
    sessionStore.signIn(userInfo({ role_type: 1, agency_type: 0, permissions: { device: 'EDIT' } }))
    const first = renderWithProviders(<FactoryDevicesPage />)
    await screen.findByText('M732514246')
    expect(screen.queryByTestId('factory-assign')).toBeNull()
    expect(screen.getByTestId('factory-import-button')).toBeInTheDocument()
    expect(screen.queryByTestId('factory-delete')).toBeNull()
    first.unmount()

    answeredCan = systemSuperCan
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, agency_id: 1 }))
    renderWithProviders(<FactoryDevicesPage />)
    const user = userEvent.setup()
    await screen.findByText('M732514246')
    await user.click(screen.getByTestId('factory-assign'))
    expect(await screen.findByText('请选择需要分配的设备！')).toBeInTheDocument()

    await user.click(rowCheckbox(21))
    await user.click(screen.getByTestId('factory-assign'))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('已选择 1 台设备')).toBeInTheDocument()
    await user.click(within(dialog).getByTestId('assign-agency'))
    await user.click(await screen.findByTitle('杭州市西湖区急救中心'))
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(calls.assign).toHaveLength(1))
    expect(calls.assign[0].body).toEqual({ agency_id: 4, device_ids: [21] })
    expect(await screen.findByText('分配成功！')).toBeInTheDocument()
  })

  it('follows the list’s can, not the member’s role', async () => {
    api()
    answeredCan = deviceListCan()
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, agency_id: 1 }))
    const first = renderWithProviders(<FactoryDevicesPage />)
    await screen.findByText('M732514246')
    for (const id of ['factory-assign', 'factory-import-button', 'factory-delete']) {
      expect(screen.queryByTestId(id)).toBeNull()
    }
    expect(within(screen.getByTestId('row-21')).queryByRole('checkbox')).toBeNull()
    first.unmount()

    answeredCan = deviceListCan({ import: true, assign: true, delete: true })
    sessionStore.signIn(userInfo({ role_type: 2, agency_type: 2, permissions: { device: 'READ_ONLY' } }))
    renderWithProviders(<FactoryDevicesPage />)
    await screen.findByText('M732514246')
    for (const id of ['factory-assign', 'factory-import-button', 'factory-delete']) {
      expect(screen.getByTestId(id)).toBeInTheDocument()
    }
  })

  it('deletes unregistered devices only, after a confirm', async () => {
    api()
    answeredCan = ordinarySuperCan
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 2, agency_id: 4 }))
    renderWithProviders(<FactoryDevicesPage />)
    const user = userEvent.setup()
    await screen.findByText('M732514246')
    // Ordinary organisations do not import.
    expect(screen.queryByTestId('factory-import-button')).toBeNull()
    await user.click(rowCheckbox(22))
    await user.click(screen.getByTestId('factory-delete'))
    expect(await screen.findByText('已注册的设备不能删除，请先删除安装信息')).toBeInTheDocument()
    await user.click(rowCheckbox(22))
    await user.click(rowCheckbox(21))
    await user.click(screen.getByTestId('factory-delete'))
    await user.click(await screen.findByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(calls.remove).toHaveLength(1))
    expect(calls.remove[0].params).toEqual({ id: '21' })
    expect(calls.remove[0].query.get('device_list_type')).toBe('2')
    expect(await screen.findByText('删除成功！')).toBeInTheDocument()
  })
})
