import { deviceApi } from '@aed/contracts/device'
import { type CommandRow, deviceCommandApi } from '@aed/contracts/device-command'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { COMMAND_POLL_MS, commandPoll } from '../../../lib/commandPoll'
import { sessionStore } from '../../../lib/session'
import { device } from '../../../test/deviceFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import DeviceDetailDrawer from './DeviceDetailDrawer'

vi.mock('../../../components/MapView/MapView', () => ({ MapView: () => <div data-testid="map-stub" /> }))

const command = (patch: Partial<CommandRow>): CommandRow => ({
  cmd_id: 'c-1',
  name: 'selftest',
  state: 'done',
  creator_name: '超级管理员',
  create_time: '2026-11-22 10:00:00',
  expires_at: '2026-11-23 10:00:00',
  sent_at: '2026-11-22 10:00:02',
  ack_time: '2026-11-22 10:00:09',
  error: null,
  ...patch,
})

const history: CommandRow[] = [
  command({ cmd_id: 'c-3', name: 'locate', state: 'failed', error: 'GPS 无信号' }),
  command({ cmd_id: 'c-2', state: 'expired', sent_at: null, ack_time: null }),
  command({ cmd_id: 'c-1' }),
]

const calls: { list: MockCall[]; send: MockCall[] } = { list: [], send: [] }
/** The device's `can` as the server computes it for the member signed in (command: super administrators). */
const superAdminCan = { edit: true, delete: true, command: true }
const editorCan = { edit: true, delete: false, command: false }
let answeredCan = editorCan

function api(rows: CommandRow[]) {
  mockApi([
    on(deviceDetailApi.single, () => ({ code: 0, data: device({ can: answeredCan }) })),
    on(deviceApi.changeRecord, () => ({ code: 0, data: { count: 0, resource: [] } })),
    recordOn(deviceCommandApi.list, calls.list, () => ({ code: 0, data: rows })),
    recordOn(deviceCommandApi.send, calls.send, () => {
      const sent = command({
        cmd_id: `c-${rows.length + 1}`,
        state: 'pending',
        sent_at: null,
        ack_time: null,
      })
      rows.unshift(sent)
      return { code: 0, msg: '指令已创建，设备连接后执行', data: sent }
    }),
  ])
}

async function openCommands() {
  const view = renderWithProviders(
    <DeviceDetailDrawer device={device({ can: answeredCan })} onClose={() => {}} />,
  )
  const user = userEvent.setup()
  await screen.findByTestId('device-base')
  await user.click(screen.getByRole('tab', { name: '远程指令' }))
  const table = await screen.findByTestId('device-commands')
  await waitFor(() => expect(calls.list).toHaveLength(1))
  expect(calls.list[0].params).toEqual({ id: '7' })
  return { user, table, view }
}

freshConsole({
  reset: () => {
    calls.list.length = 0
    calls.send.length = 0
  },
})

describe('the commands tab', () => {
  it('lets a super administrator ask for a self-test and shows the server’s message and the new command', async () => {
    api([...history])
    answeredCan = superAdminCan
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, agency_id: 1 }))
    const { user, table } = await openCommands()
    expect(screen.getByTestId('command-selftest')).toHaveTextContent('远程自检')
    expect(screen.getByTestId('command-locate')).toHaveTextContent('获取定位')

    await user.click(screen.getByTestId('command-selftest'))
    await waitFor(() => expect(calls.send).toHaveLength(1))
    expect(calls.send[0].params).toEqual({ id: '7' })
    expect(calls.send[0].body).toEqual({ name: 'selftest' })
    expect(deviceCommandApi.send.body.safeParse(calls.send[0].body).success).toBe(true)
    expect(await screen.findByText('指令已创建，设备连接后执行')).toBeInTheDocument()
    await waitFor(() => expect(calls.list).toHaveLength(2))
    expect(await within(table).findByTestId('command-state-pending')).toHaveTextContent('待下发')

    await user.click(screen.getByTestId('command-locate'))
    await waitFor(() => expect(calls.send).toHaveLength(2))
    expect(calls.send[1].body).toEqual({ name: 'locate' })
  })

  it('shows everyone else the list with each command’s state, times and error, without the buttons', async () => {
    api([...history])
    answeredCan = editorCan
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    const { table } = await openCommands()
    expect(screen.queryByTestId('command-selftest')).toBeNull()
    expect(screen.queryByTestId('command-locate')).toBeNull()

    const rows = await within(table).findAllByRole('row')
    // The header, then the three commands newest first.
    expect(rows).toHaveLength(4)
    expect(within(rows[1]).getByText('获取定位')).toBeInTheDocument()
    expect(within(rows[1]).getByTestId('command-state-failed')).toHaveTextContent('执行失败')
    expect(within(rows[1]).getByTestId('command-state-failed')).toHaveClass('ant-tag-red')
    expect(within(rows[1]).getByText('GPS 无信号')).toBeInTheDocument()
    expect(within(rows[2]).getByTestId('command-state-expired')).toHaveTextContent('已过期')
    expect(within(rows[3]).getByTestId('command-state-done')).toHaveTextContent('已执行')
    expect(within(rows[3]).getByText('2026-11-22 10:00:09')).toBeInTheDocument()
    expect(within(rows[3]).getByText('2026-11-23 10:00:00')).toBeInTheDocument()
    for (const header of ['指令', '状态', '创建时间', '下发时间', '应答时间', '错误信息', '过期时间'])
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument()
  })

  it('follows the device’s can, not the member’s role', async () => {
    api([...history])
    answeredCan = editorCan
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, agency_id: 1 }))
    const first = await openCommands()
    expect(screen.queryByTestId('command-selftest')).toBeNull()
    first.view.unmount()

    calls.list.length = 0
    answeredCan = superAdminCan
    sessionStore.signIn(userInfo({ role_type: 2, permissions: { device: 'READ_ONLY' } }))
    await openCommands()
    expect(screen.getByTestId('command-selftest')).toBeInTheDocument()
  })

  it('asks again every 5 s only while a command waits for the device or its answer', async () => {
    expect(commandPoll(undefined)).toBe(false)
    expect(commandPoll(history)).toBe(false)
    expect(commandPoll([command({ state: 'pending' }), ...history])).toBe(COMMAND_POLL_MS)
    expect(commandPoll([command({ state: 'sent' })])).toBe(5000)

    const rows = [command({ cmd_id: 'c-9', state: 'sent', ack_time: null }), ...history]
    api(rows)
    answeredCan = editorCan
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const { table } = await openCommands()
    expect(await within(table).findByTestId('command-state-sent')).toHaveTextContent('已下发')

    rows[0] = { ...rows[0], state: 'done', ack_time: '2026-11-22 10:00:30' }
    await act(() => vi.advanceTimersByTimeAsync(COMMAND_POLL_MS))
    await waitFor(() => expect(calls.list).toHaveLength(2))
    await waitFor(() => expect(within(table).queryByTestId('command-state-sent')).toBeNull())
    await act(() => vi.advanceTimersByTimeAsync(3 * COMMAND_POLL_MS))
    expect(calls.list).toHaveLength(2)
  })
})
