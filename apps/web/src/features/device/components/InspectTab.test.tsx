import { deviceApi } from '@aed/contracts/device'
import { deviceDetailApi, type InspectRow } from '@aed/contracts/device-detail'
import { filesApi } from '@aed/contracts/files'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ConfigProvider } from 'antd'
import { describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { device } from '../../../test/deviceFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import DeviceDetailDrawer from './DeviceDetailDrawer'

vi.mock('../../../components/MapView/MapView', () => ({ MapView: () => <div data-testid="map-stub" /> }))

const recorded: InspectRow = {
  id: 31,
  inspect_status: 0,
  process_content: '电极片包装破损，已更换',
  inspector_name: '王磊',
  inspect_time: '2026-11-22T02:00:00Z',
  imgs: ['/files/inspect-1.png', '/files/inspect-2.png'],
}

const calls: { page: MockCall[]; inspect: MockCall[] } = { page: [], inspect: [] }

function api(shown = device()) {
  const rows: InspectRow[] = []
  let uploads = 0
  mockApi([
    on(deviceDetailApi.single, () => ({ code: 0, data: shown })),
    on(deviceApi.changeRecord, () => ({ code: 0, data: { count: 0, resource: [] } })),
    recordOn(deviceDetailApi.page, calls.page, () => ({
      code: 0,
      data: { count: rows.length, resource: rows },
    })),
    on(filesApi.upload, () => ({
      code: 0,
      data: {
        access_url: `/files/inspect-${++uploads}.png`,
        file_name: 'inspect.png',
        size: 3,
        content_type: 'image/png',
      },
    })),
    recordOn(deviceDetailApi.inspect, calls.inspect, () => {
      rows.push(recorded)
      return { code: 0, msg: '添加成功！', data: { ...recorded, device_sn: shown.device_sn } }
    }),
  ])
}

async function openInspections(shown = device()) {
  renderWithProviders(<DeviceDetailDrawer device={shown} onClose={() => {}} />)
  const user = userEvent.setup()
  await screen.findByTestId('device-base')
  await user.click(screen.getByRole('tab', { name: '巡检记录' }))
  await screen.findByTestId('records-inspect')
  await waitFor(() => expect(calls.page).toHaveLength(1))
  return user
}

freshConsole({
  reset: () => {
    calls.page.length = 0
    calls.inspect.length = 0
  },
})

describe('the inspection tab', () => {
  it('records an inspection with the signed-in inspector, now, and a photo, then refetches the tab', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' }, user_name: '调度员' }))
    const user = await openInspections()
    expect(calls.page[0].query.get('data_type')).toBe('inspect')

    // The test's own clock around the dialog's life: its default time is taken when it opens.
    const opened = Date.now()
    await user.click(screen.getByTestId('inspection-record'))
    const dialog = await screen.findByTestId('inspection-modal')
    const inspector = within(dialog).getByTestId('inspection-inspector')
    expect(inspector).toHaveValue('调度员')
    expect(within(dialog).getByLabelText('正常')).toBeChecked()

    await user.clear(inspector)
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('请输入巡检人')).toBeInTheDocument()
    expect(calls.inspect).toHaveLength(0)

    await user.type(inspector, '王磊')
    await user.click(within(dialog).getByLabelText('异常'))
    await user.type(within(dialog).getByTestId('inspection-content'), '电极片包装破损，已更换')
    const photo = new File(['png'], 'inspect.png', { type: 'image/png' })
    // Two photos at most: after the second, no more upload button.
    const photos = within(dialog).getByTestId('inspection-photos')
    await user.upload(photos.querySelector('input[type=file]') as HTMLInputElement, photo)
    await waitFor(() => expect(within(photos).getAllByRole('button', { name: /删除/ })).toHaveLength(1))
    await user.upload(photos.querySelector('input[type=file]') as HTMLInputElement, photo)
    await waitFor(() => expect(within(photos).getAllByRole('button', { name: /删除/ })).toHaveLength(2))
    expect(photos.querySelector('input[type=file]')).toBeNull()
    const before = Date.now()
    await user.click(within(dialog).getByRole('button', { name: /确\s?定/ }))

    await waitFor(() => expect(calls.inspect).toHaveLength(1))
    const body = calls.inspect[0].body as Record<string, unknown>
    expect(body).toMatchObject({
      device_sn: 'M672412211',
      inspect_status: 0,
      process_content: '电极片包装破损，已更换',
      inspector_name: '王磊',
      imgs: ['/files/inspect-1.png', '/files/inspect-2.png'],
    })
    expect(deviceDetailApi.inspect.body.safeParse(body).success).toBe(true)
    // Opened "now": the default time lies between the dialog's opening (to the second it is
    // written in) and the submit, however long the steps between took.
    const at = Date.parse(String(body.inspect_time))
    expect(at).toBeGreaterThanOrEqual(Math.floor(opened / 1000) * 1000)
    expect(at).toBeLessThanOrEqual(before)

    expect(await screen.findByText('添加成功！')).toBeInTheDocument()
    await waitFor(() => expect(calls.page).toHaveLength(2))
    expect(calls.page[1].query.get('data_type')).toBe('inspect')
    const table = screen.getByTestId('records-inspect')
    expect(await within(table).findByText('电极片包装破损，已更换')).toBeInTheDocument()
    expect(within(table).getByText('异常')).toBeInTheDocument()
    expect(table.querySelectorAll('img')).toHaveLength(2)
    // Closing (jsdom never ends antd's leave animation, so the dialog stays in the tree).
    expect(dialog.querySelector('.ant-modal')).toHaveClass('ant-zoom-leave')
  })

  it('shows no record button to a read-only member', async () => {
    const readOnly = device({ can: { edit: false, delete: false, command: false } })
    api(readOnly)
    sessionStore.signIn(userInfo({ role_type: 2, permissions: { device: 'READ_ONLY' } }))
    await openInspections(readOnly)
    expect(screen.queryByTestId('inspection-record')).toBeNull()
  })

  it('opens the dialog empty again after one was cancelled with values in it', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' }, user_name: '调度员' }))
    // Without motion the closed dialog's content unmounts at once, as a browser's does after its
    // closing animation: the next dialog mounts a fresh form on the same store.
    renderWithProviders(
      <ConfigProvider theme={{ token: { motion: false } }}>
        <DeviceDetailDrawer device={device()} onClose={() => {}} />
      </ConfigProvider>,
    )
    const user = userEvent.setup()
    await screen.findByTestId('device-base')
    await user.click(screen.getByRole('tab', { name: '巡检记录' }))
    await user.click(await screen.findByTestId('inspection-record'))
    let dialog = await screen.findByTestId('inspection-modal')
    await user.click(within(dialog).getByLabelText('异常'))
    await user.type(within(dialog).getByTestId('inspection-content'), '电极片包装破损')
    await user.clear(within(dialog).getByTestId('inspection-inspector'))
    await user.type(within(dialog).getByTestId('inspection-inspector'), '王磊')
    await user.click(within(dialog).getByRole('button', { name: /取\s?消/ }))
    await waitFor(() => expect(screen.queryByTestId('inspection-content')).toBeNull())

    await user.click(screen.getByTestId('inspection-record'))
    dialog = await screen.findByTestId('inspection-modal')
    expect(await within(dialog).findByTestId('inspection-content')).toHaveValue('')
    expect(within(dialog).getByLabelText('正常')).toBeChecked()
    expect(within(dialog).getByTestId('inspection-inspector')).toHaveValue('调度员')
    expect(calls.inspect).toHaveLength(0)
  })
})
