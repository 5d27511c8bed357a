import { eventApi, type FaultEvent } from '@aed/contracts/event'
import { LiveType } from '@aed/contracts/live'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { sessionStore } from '../../../lib/session'
import { orgMenu } from '../../../test/adminFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, recordOn } from '../../../test/mockApi'
import { pageRoutes } from '../../../test/pageRoutes'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { FaultEventsPage } from './FaultEventsPage'

const fault = (patch: Partial<FaultEvent> = {}): FaultEvent => ({
  id: 31,
  device_id: 7,
  device_sn: 'M672412211',
  model: 'D10',
  location: '浙江省杭州市西湖区文三路100号 一楼大厅',
  manager: '王管理',
  agency_name: '杭州市西湖区急救中心',
  closed_at: null,
  duration: null,
  duration_text: null,
  handler_name: null,
  handle_note: null,
  handle_time: null,
  can: { handle: true },
  report_type: 1,
  report_type_text: '待机自检',
  fault_code: 'E02',
  fault_desc: '电池故障',
  fault: 'E02 电池故障',
  check_time: '2026-11-22T02:00:00.000Z',
  ...patch,
})
const past = fault({
  closed_at: '2026-11-22T04:05:00.000Z',
  duration: 7500,
  duration_text: '2小时5分',
  handler_name: '调度员',
  handle_note: '已更换电池',
  handle_time: '2026-11-22T03:00:00.000Z',
})

const calls: { list: MockCall[]; handle: MockCall[] } = { list: [], handle: [] }

/** The page's `can`, as the server computes it: export and handle with EDIT on devices. */
const editorCan = { export: true, handle: true }

function api(menu = orgMenu, can = editorCan) {
  return mockApi([
    ...pageRoutes(menu, { managers: true }),
    recordOn(eventApi.fault, calls.list, (call) => {
      if (call.query.get('export_xls') === 'true')
        return { code: 0, data: { file_url: '/files/x.xlsx?download=故障事件.xlsx', count: 1 } }
      const rows = call.query.get('current') === 'false' ? [past] : [fault()]
      return { code: 0, data: { count: 1, resource: rows, can } }
    }),
    recordOn(eventApi.handle, calls.handle, () => {
      return {
        code: 0,
        msg: '处理成功！',
        data: {
          id: 31,
          kind: 'fault' as const,
          device_sn: 'M672412211',
          handler_name: '调度员',
          handle_note: '已更换电池',
          handle_time: '2026-11-22T03:00:00.000Z',
        },
      }
    }),
  ])
}

const lastList = () => calls.list.at(-1)?.query

freshConsole({
  reset: () => {
    calls.list.length = 0
    calls.handle.length = 0
  },
  restoreMocks: true,
})

describe('FaultEventsPage', () => {
  it('lists current faults in purple, filters by report_type, and shows history with its duration', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    renderWithProviders(<FaultEventsPage />)
    const row = await screen.findByTestId('row-31')
    expect(within(row).getByText('E02 电池故障')).toBeInTheDocument()
    expect(within(row).getByTestId('status-2')).toHaveClass('ant-tag-purple')
    expect(lastList()?.get('current')).toBe('true')

    const user = userEvent.setup()
    await user.click(screen.getByTestId('filter-toggle'))
    await waitFor(() => expect(screen.getByTestId('filter-agency_id')).toBeInTheDocument())
    expect(screen.getByTestId('filter-manager_id')).toBeInTheDocument()
    await user.click(within(screen.getByTestId('filter-report_type')).getByRole('combobox'))
    await user.click(await screen.findByTitle('用户巡检'))
    await user.click(screen.getByTestId('filter-search'))
    await waitFor(() => expect(lastList()?.get('report_type')).toBe('-1'))

    await user.click(screen.getByTestId('event-tab-history'))
    await waitFor(() => expect(lastList()?.get('current')).toBe('false'))
    expect(lastList()?.get('report_type')).toBe('-1')
    const old = await screen.findByText('2小时5分')
    const historyRow = old.closest('tr') as HTMLElement
    expect(within(historyRow).getByTestId('status-0')).toHaveTextContent('已恢复')
    expect(within(historyRow).getByText('已更换电池')).toBeInTheDocument()
    expect(screen.getAllByText('恢复时间').length).toBeGreaterThan(0)
  })

  it('handles a fault with a note, refusing an empty one', async () => {
    api([])
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    renderWithProviders(<FaultEventsPage />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('event-handle-31'))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('M672412211（D10）')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }))
    expect(await within(dialog).findByText('请输入处理说明')).toBeInTheDocument()
    expect(calls.handle).toHaveLength(0)
    await user.type(within(dialog).getByTestId('event-handle-note'), ' 已更换电池 ')
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }))
    await waitFor(() => expect(calls.handle).toHaveLength(1))
    expect(calls.handle[0].params).toEqual({ id: '31' })
    expect(calls.handle[0].body).toEqual({ handle_note: '已更换电池' })
    expect(await screen.findByText('处理成功！')).toBeInTheDocument()
    // Without the menu entries the organisation and manager filters are not offered.
    const toggle = screen.queryByTestId('filter-toggle')
    if (toggle) await user.click(toggle)
    expect(screen.getByTestId('filter-report_type')).toBeInTheDocument()
    expect(screen.queryByTestId('filter-agency_id')).toBeNull()
    expect(screen.queryByTestId('filter-manager_id')).toBeNull()
  })

  it('exports the tab and downloads file_url; read-only members get neither export nor 处理', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const first = renderWithProviders(<FaultEventsPage />, '/?tab=history&device_sn=M67')
    await screen.findByText('2小时5分')
    await userEvent.setup().click(screen.getByTestId('event-export'))
    await waitFor(() => expect(click).toHaveBeenCalled())
    const exported = calls.list.find((c) => c.query.get('export_xls') === 'true')!.query
    expect(exported.get('current')).toBe('false')
    expect(exported.get('device_sn')).toBe('M67')
    const a = click.mock.instances[0] as unknown as HTMLAnchorElement
    expect(a.getAttribute('download')).toBe('故障事件.xlsx')
    first.unmount()

    api(orgMenu, { export: false, handle: false })
    sessionStore.signIn(userInfo({ role_type: 2, permissions: { device: 'READ_ONLY' } }))
    renderWithProviders(<FaultEventsPage />)
    await screen.findByTestId('row-31')
    expect(screen.queryByTestId('event-export')).toBeNull()
    expect(screen.queryByTestId('event-handle-31')).toBeNull()
  })

  it('follows the list’s can, not the member’s role', async () => {
    api(orgMenu, { export: false, handle: false })
    sessionStore.signIn(userInfo({ role_type: 0, agency_type: 0, agency_id: 1, permissions: {} }))
    const first = renderWithProviders(<FaultEventsPage />)
    await screen.findByTestId('row-31')
    expect(screen.queryByTestId('event-export')).toBeNull()
    expect(screen.queryByTestId('event-handle-31')).toBeNull()
    first.unmount()

    api(orgMenu, editorCan)
    sessionStore.signIn(userInfo({ role_type: 2, permissions: { device: 'READ_ONLY' } }))
    renderWithProviders(<FaultEventsPage />)
    await screen.findByTestId('row-31')
    expect(screen.getByTestId('event-export')).toBeInTheDocument()
    expect(screen.getByTestId('event-handle-31')).toBeInTheDocument()
  })

  it('follows pushed events of its kind without a reload: a fault that opens shows, an offline event does not refetch', async () => {
    api()
    sessionStore.signIn(userInfo({ role_type: 1, permissions: { device: 'EDIT' } }))
    const bus = createLiveBus()
    renderWithProviders(
      <LiveBusContext.Provider value={bus}>
        <FaultEventsPage />
      </LiveBusContext.Provider>,
    )
    await screen.findByTestId('row-31')
    const before = calls.list.length
    const pushed = (id: number, kind: 'fault' | 'offline') =>
      act(() =>
        bus.emit({
          id,
          data_type: LiveType.DEVICE_EVENT,
          data: { event_id: id, device_id: 7, device_sn: 'M672412211', kind, opened: true },
        }),
      )
    pushed(90, 'offline')
    await new Promise((r) => setTimeout(r, 50))
    expect(calls.list.length).toBe(before)
    pushed(91, 'fault')
    await waitFor(() => expect(calls.list.length).toBe(before + 1))
    expect(lastList()?.get('current')).toBe('true')
  })
})
