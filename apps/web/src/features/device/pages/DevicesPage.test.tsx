import { deviceApi } from '@aed/contracts/device'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { deviceStatsApi } from '@aed/contracts/device-stats'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { orgMenu } from '../../../test/adminFixtures'
import { device, deviceListCan, everyDeviceCan } from '../../../test/deviceFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { pageRoutes } from '../../../test/pageRoutes'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { DevicesPage } from './DevicesPage'

// jsdom has no WebGL: the dialogs' map is a stand-in here.
vi.mock('../../../components/MapView/MapView', () => ({ MapView: () => <div data-testid="map-stub" /> }))
vi.mock('../../../components/EChart/EChart', async (load) => ({
  ...(await load<typeof import('../../../components/EChart/EChart')>()),
  EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} />,
}))

const calls: { list: MockCall[]; update: MockCall[] } = { list: [], update: [] }

/** The list's `can`, as the server computes it for the member signed in. */
const superAdminCan = everyDeviceCan
const editorCan = deviceListCan({ register: true, export: true, import: true })
const readOnlyCan = deviceListCan()

function api(menu = orgMenu, rows = [device()], can = superAdminCan) {
  return mockApi([
    ...pageRoutes(menu, { managers: true }),
    recordOn(deviceApi.list, calls.list, () => ({
      code: 0,
      data: { count: rows.length, resource: rows, can },
    })),
    on(deviceApi.detail, () => ({ code: 0, data: device() })),
    recordOn(deviceApi.update, calls.update, () => ({ code: 0, msg: '修改成功！', data: device() })),
    on(deviceDetailApi.single, () => ({ code: 0, data: rows[0] ?? device() })),
    on(deviceApi.changeRecord, () => ({ code: 0, data: { count: 0, resource: [] } })),
    on(deviceStatsApi.stateDistribution, () => ({
      code: 0,
      data: {
        all_count: 1,
        rescue_event_count: 0,
        normal_count: 1,
        warn_event_count: 0,
        error_report_count: 0,
        offset_event_count: 0,
        disconnect_count: 0,
      },
    })),
    on(deviceStatsApi.mainStateDistribution, () => ({
      code: 0,
      data: { battery: [], electrode_sheet_expire: [], battery_expire: [], host_expire: [] },
    })),
    on(deviceStatsApi.maintenanceMonthly, () => ({ code: 0, data: { items: [] } })),
    on(deviceStatsApi.keyMaintenance, () => ({ code: 0, data: { all_count: 1, items: [] } })),
  ])
}

const superAdmin = () => userInfo({ role_type: 0, agency_type: 0, agency_id: 1, permissions: {} })
const lastQuery = () => calls.list.at(-1)?.query

freshConsole({
  reset: () => {
    calls.list.length = 0
    calls.update.length = 0
  },
})

async function openChange(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('device-change-7'))
  const dialog = await screen.findByRole('dialog')
  await waitFor(() => expect(within(dialog).getByTestId('device-sn')).toHaveValue('M672412211'))
  return dialog
}

describe('DevicesPage', () => {
  it('shows the status in its colour and the organisation and manager filters only with their menu entries', async () => {
    api()
    sessionStore.signIn(superAdmin())
    const first = renderWithProviders(<DevicesPage />)
    expect(await screen.findByText('M672412211')).toBeInTheDocument()
    expect(screen.getByTestId('status-0')).toHaveClass('ant-tag-green')
    expect(await screen.findByTestId('stats-status')).toBeInTheDocument()
    await userEvent.setup().click(screen.getByTestId('filter-toggle'))
    await waitFor(() => expect(screen.getByTestId('filter-agency_id')).toBeInTheDocument())
    expect(screen.getByTestId('filter-manager_id')).toBeInTheDocument()
    // Super administrators get the expiry bands as extra filters.
    expect(screen.getByTestId('filter-host_expire_state')).toBeInTheDocument()
    first.unmount()

    api([orgMenu[0]], [device()], editorCan)
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    renderWithProviders(<DevicesPage />)
    await screen.findByText('M672412211')
    await userEvent.setup().click(screen.getByTestId('filter-toggle'))
    await waitFor(() => expect(screen.getByTestId('filter-agency_id')).toBeInTheDocument())
    expect(screen.queryByTestId('filter-manager_id')).toBeNull()
    expect(screen.queryByTestId('filter-host_expire_state')).toBeNull()
  })

  it('refuses a serial over 50 characters and sends the install-time preset as install_days', async () => {
    api()
    sessionStore.signIn(superAdmin())
    renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    await screen.findByText('M672412211')
    const requests = calls.list.length
    await user.type(screen.getByTestId('filter-device_sn'), 'A'.repeat(51))
    await user.click(screen.getByTestId('filter-search'))
    expect(await screen.findByText('字符长度不超过50')).toBeInTheDocument()
    expect(calls.list.length).toBe(requests)

    await user.clear(screen.getByTestId('filter-device_sn'))
    await user.type(screen.getByTestId('filter-device_sn'), 'M6724')
    await user.click(screen.getByTestId('filter-toggle'))
    await user.click(await screen.findByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-2'))
    await user.click(screen.getByTestId('filter-search'))
    await waitFor(() => expect(lastQuery()?.get('install_days')).toBe('30'))
    expect(lastQuery()?.get('device_sn')).toBe('M6724')
    expect(lastQuery()?.has('install_time')).toBe(false)
  })

  it('hides register, export and the row actions the member may not use', async () => {
    api(orgMenu, [device({ can: { edit: false, delete: false, command: false } })], readOnlyCan)
    sessionStore.signIn(userInfo({ role_type: 2, permissions: { device: 'READ_ONLY' } }))
    renderWithProviders(<DevicesPage />)
    await screen.findByText('M672412211')
    expect(screen.queryByTestId('device-register')).toBeNull()
    expect(screen.queryByTestId('device-export')).toBeNull()
    expect(screen.queryByTestId('device-clean')).toBeNull()
    expect(screen.getByTestId('device-detail-7')).toBeInTheDocument()
    expect(screen.queryByTestId('device-change-7')).toBeNull()
    expect(screen.queryByTestId('device-delete-7')).toBeNull()
  })

  it('follows the list’s can, not the member’s role: register, export, clean-up and clearing everything', async () => {
    api(orgMenu, [device()], readOnlyCan)
    sessionStore.signIn(superAdmin())
    const first = renderWithProviders(<DevicesPage />)
    await screen.findByText('M672412211')
    for (const id of ['device-register', 'device-export', 'device-clean']) {
      expect(screen.queryByTestId(id)).toBeNull()
    }
    first.unmount()

    api(orgMenu, [device()], deviceListCan({ clean: true }))
    sessionStore.signIn(userInfo({ role_type: 2, permissions: { device: 'READ_ONLY' } }))
    const second = renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    await screen.findByText('M672412211')
    expect(screen.queryByTestId('device-register')).toBeNull()
    await user.click(screen.getByTestId('device-clean'))
    const clean = await screen.findByTestId('device-clean-modal')
    expect(within(clean).getByText('急救事件')).toBeInTheDocument()
    expect(within(clean).queryByText('全部数据')).toBeNull()
    second.unmount()

    api(orgMenu, [device()], deviceListCan({ clean: true, clean_all: true }))
    renderWithProviders(<DevicesPage />)
    await screen.findByText('M672412211')
    await user.click(screen.getByTestId('device-clean'))
    expect(within(await screen.findByTestId('device-clean-modal')).getByText('全部数据')).toBeInTheDocument()
  })

  it('hides a column chosen away in 筛选列', async () => {
    api()
    sessionStore.signIn(superAdmin())
    renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    await screen.findByText('M672412211')
    expect(screen.getByRole('columnheader', { name: '注册编号' })).toBeInTheDocument()
    await user.click(screen.getByTestId('column-chooser-button'))
    await user.click(await screen.findByTestId('column-register_code'))
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: '注册编号' })).toBeNull())
    expect(screen.getByRole('columnheader', { name: /设备SN/ })).toBeInTheDocument()
  })

  it('shows the readiness right after the status, in 筛选列 like the others, and in the detail', async () => {
    const notReady = device({
      readiness: 'not_ready',
      readiness_text: '不可用',
      readiness_reasons: ['fault'],
      readiness_reasons_text: ['自检故障'],
    })
    api(orgMenu, [notReady])
    sessionStore.signIn(superAdmin())
    renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    await screen.findByText('M672412211')
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers.indexOf('可用性')).toBe(headers.indexOf('状态') + 1)
    expect(screen.getByTestId('readiness-not_ready')).toHaveClass('ant-tag-red')

    await user.click(screen.getByTestId('column-chooser-button'))
    await user.click(await screen.findByTestId('column-readiness'))
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: '可用性' })).toBeNull())
    await user.click(screen.getByTestId('column-readiness'))
    expect(await screen.findByRole('columnheader', { name: '可用性' })).toBeInTheDocument()

    await user.click(screen.getByTestId('device-detail-7'))
    const base = await screen.findByTestId('device-base')
    expect(within(base).getByTestId('readiness-not_ready')).toHaveTextContent('不可用')
    expect(within(base).getByTestId('readiness-reasons')).toHaveTextContent('自检故障')
    expect(within(base).getByText('最近自检通过')).toBeInTheDocument()
    expect(within(base).getByText('2026-11-22 09:12:00')).toBeInTheDocument()
    expect(within(base).getByText('最近上报')).toBeInTheDocument()
    expect(within(base).getByText('2026-11-22 10:40:00')).toBeInTheDocument()
  })

  it('shows signal and positioning to everyone, the electrode voltage only when the list’s can allows it', async () => {
    const heard = device({ rssi: -71, positioning_type: 'lbs', cable_voltage: 12.3 })
    api(orgMenu, [heard])
    sessionStore.signIn(superAdmin())
    const first = renderWithProviders(<DevicesPage />)
    await screen.findByText('M672412211')
    const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers()).toEqual(expect.arrayContaining(['信号强度', '定位方式', '电极电压']))
    expect(screen.getByText('-71 dBm')).toBeInTheDocument()
    expect(screen.getByText('基站定位')).toBeInTheDocument()
    expect(screen.getByText('12.3 V')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(screen.getByTestId('device-detail-7'))
    const base = await screen.findByTestId('device-base')
    expect(within(base).getByTestId('device-cable-voltage')).toHaveTextContent('12.3 V')
    expect(within(base).getByText('-71 dBm')).toBeInTheDocument()
    first.unmount()

    api(orgMenu, [device({ rssi: -71, positioning_type: 'gps' })], editorCan)
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    renderWithProviders(<DevicesPage />)
    await screen.findByText('M672412211')
    expect(headers()).toEqual(expect.arrayContaining(['信号强度', '定位方式']))
    expect(headers()).not.toContain('电极电压')
    expect(screen.getByText('GPS定位')).toBeInTheDocument()
  })
})

describe('the register and change dialog', () => {
  it('asks for the change type only when editing, and the new serial only when replacing', async () => {
    api()
    sessionStore.signIn(superAdmin())
    renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('device-register'))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('注册设备')).toBeInTheDocument()
    await within(dialog).findByTestId('device-agency')
    expect(within(dialog).queryByTestId('device-update-type')).toBeNull()
    expect(within(dialog).getByTestId('device-sms-off')).toBeInTheDocument()
    await user.click(within(dialog).getByText(/取\s?消/))

    const change = await openChange(user)
    expect(within(change).getByText('变更设备')).toBeInTheDocument()
    expect(within(change).getByTestId('device-update-type')).toBeInTheDocument()
    expect(within(change).queryByTestId('device-new-sn')).toBeNull()
    await user.click(within(change).getByLabelText('更换设备'))
    const newSn = await within(change).findByTestId('device-new-sn')
    await user.type(newSn, 'M672412211')
    await user.click(within(change).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('请修改设备SN！')).toBeInTheDocument()
    expect(calls.update).toHaveLength(0)

    await user.clear(newSn)
    await user.type(newSn, 'M642603738')
    await user.click(within(change).getByRole('button', { name: /确\s?定/ }))
    await waitFor(() => expect(calls.update).toHaveLength(1))
    expect(calls.update[0].body).toMatchObject({
      update_type: 3,
      device_sn: 'M672412211',
      new_device_sn: 'M642603738',
      open_day: [],
      chest_shot_img: '/files/chest.png',
      battery_expire: '2030-03-27',
    })
    expect(await screen.findByText('修改成功！')).toBeInTheDocument()
  })

  it('refuses a change without the close-up photo and a move that did not move', async () => {
    api()
    sessionStore.signIn(superAdmin())
    renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    const dialog = await openChange(user)
    await user.click(within(dialog).getByLabelText('移动设备'))
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('请修改导航地址！')).toBeInTheDocument()

    await user.click(within(dialog).getAllByRole('button', { name: /删除/ })[0])
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('请添加设备近景图片！')).toBeInTheDocument()
    expect(calls.update).toHaveLength(0)
  })

  it('keeps what the user typed when the device is fetched again under the open dialog (a live update)', async () => {
    api()
    sessionStore.signIn(superAdmin())
    const { client } = renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    const dialog = await openChange(user)
    const contact = within(dialog).getByTestId('device-contact')
    await user.clear(contact)
    await user.type(contact, '王值班')
    const fetchedAt = () => client.getQueryState(['device', 'detail', 7])?.dataUpdatedAt ?? 0
    const first = fetchedAt()
    expect(first).toBeGreaterThan(0)
    await client.invalidateQueries()
    await waitFor(() => expect(fetchedAt()).toBeGreaterThan(first))
    expect(within(dialog).getByTestId('device-contact')).toHaveValue('王值班')
  })

  it('asks semi-open devices for their days and first period', async () => {
    api(orgMenu, [device()], editorCan)
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    renderWithProviders(<DevicesPage />)
    const user = userEvent.setup()
    const dialog = await openChange(user)
    // Not a super administrator: no sms-off or display-off switches.
    expect(within(dialog).queryByTestId('device-sms-off')).toBeNull()
    expect(within(dialog).queryByTestId('device-open-day')).toBeNull()
    await user.click(within(dialog).getByLabelText('半开放'))
    expect(await within(dialog).findByTestId('device-open-day')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('请选择开放日')).toBeInTheDocument()
    expect(within(dialog).getByText('请选择开放时段')).toBeInTheDocument()
    expect(calls.update).toHaveLength(0)

    await user.click(within(dialog).getByLabelText('周一'))
    await user.click(within(dialog).getByLabelText('周三'))
    await waitFor(() => expect(within(dialog).queryByText('请选择开放日')).toBeNull())
  })
})
