import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { type MessageRow, messageApi } from '@aed/contracts/message'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { messageRow } from '../../features/message/testMessages'
import type { LiveStatus } from '../../lib/live/liveClient'
import { createLiveBus, LiveBusContext, LiveStatusContext } from '../../lib/live/liveContext'
import { userInfo } from '../../test/fixtures'
import { freshConsole } from '../../test/freshConsole'
import { mockApi, on } from '../../test/mockApi'
import { renderWithProviders } from '../../test/renderWithProviders'
import { MessageBell } from './MessageBell'

let rows: MessageRow[] = []
const confirmed: string[] = []
function api(amount = 3) {
  return mockApi([
    on(messageApi.unconfirmedAmount, () => ({ code: 0, data: { amount } })),
    on(messageApi.list, ({ query }) => {
      const page = Number(query.get('page'))
      const size = Number(query.get('page_size'))
      return { code: 0, data: { count: rows.length, resource: rows.slice((page - 1) * size, page * size) } }
    }),
    on(messageApi.confirm, ({ params }) => {
      confirmed.push(params.id)
      const row = rows.find((r) => r.id === Number(params.id)) as MessageRow
      const message = {
        ...row,
        is_confirm: 1,
        confirmed_name: '调度员',
        confirm_time: '2026-03-01T02:00:00Z',
      }
      return { code: 0, data: { success: true, message } }
    }),
  ])
}

function renderBell(initial: LiveStatus) {
  const bus = createLiveBus()
  let setStatus: (status: LiveStatus) => void = () => {}
  function Harness() {
    const [status, set] = useState(initial)
    setStatus = set
    return (
      <LiveBusContext.Provider value={bus}>
        <LiveStatusContext.Provider value={status}>
          <MessageBell />
        </LiveStatusContext.Provider>
      </LiveBusContext.Provider>
    )
  }
  const view = renderWithProviders(<Harness />, '/deviceManagement/device')
  return {
    ...view,
    push: (frame: LiveFrame) => act(() => bus.emit(frame)),
    setStatus: (status: LiveStatus) => act(() => setStatus(status)),
  }
}
const countShows = (text: string) =>
  waitFor(() =>
    expect(screen.getByTestId('message-count').querySelector('sup')).toHaveAttribute('title', text),
  )

const amountCalls = (fetchMock: ReturnType<typeof api>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes('unconfirmed-msg')).length
const listPages = (fetchMock: ReturnType<typeof api>) =>
  fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://x'))
    .filter((u) => u.pathname.endsWith('/msg-center'))
    .map((u) => u.searchParams.get('page'))

freshConsole({
  reset: () => {
    rows = []
    confirmed.length = 0
  },
  signedIn: userInfo(),
})

describe('MessageBell', () => {
  it("shows the pushed count, '99+' above 99, and asks nothing while the socket is live", async () => {
    const fetchMock = api()
    const { push } = renderBell('live')
    push({ id: 5, data_type: LiveType.UNCONFIRMED, data: { amount: 7 } })
    await countShows('7')
    push({ id: 5, data_type: LiveType.UNCONFIRMED, data: { amount: 100 } })
    await countShows('100')
    await waitFor(() => expect(screen.getByTestId('message-count')).toHaveTextContent('99+'))
    push({ id: 6, data_type: LiveType.UNCONFIRMED, data: { amount: 99 } })
    await countShows('99')
    await waitFor(() => expect(screen.getByTestId('message-count')).not.toHaveTextContent('+'))
    expect(amountCalls(fetchMock)).toBe(0)
  })

  it('polls the count every 2 s while the socket is down, and stops once it is live', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const fetchMock = api(150)
    const view = renderBell('down')
    await countShows('150')
    expect(amountCalls(fetchMock)).toBe(1)
    await act(() => vi.advanceTimersByTimeAsync(2000))
    await act(() => vi.advanceTimersByTimeAsync(2000))
    expect(amountCalls(fetchMock)).toBe(3)
    view.setStatus('live')
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(amountCalls(fetchMock)).toBe(3)
  })

  it('lists the messages with place, serial, stale mark and confirmed state; confirm and details act', async () => {
    rows = [
      messageRow(1),
      messageRow(
        2,
        { msg_type: 4, event_type: 4, device_sn: null, cabinet_sn: 'C100', msg_title: '救护箱开门' },
        30,
      ),
      messageRow(3, { is_confirm: 1, confirmed_name: '李四', confirm_time: '2026-03-01T01:00:00Z' }, 60),
    ]
    api()
    const { router } = renderBell('down')
    const user = userEvent.setup()
    await user.click(screen.getByTestId('message-bell'))
    const first = await screen.findByTestId('message-1')
    expect(first).toHaveTextContent('杭州市西湖区文三路 1 号')
    expect(first).toHaveTextContent('设备 A640000001')
    expect(within(first).queryByTestId('message-stale')).toBeNull()
    const door = screen.getByTestId('message-2')
    expect(door).toHaveTextContent('救护箱 C100')
    expect(within(door).getByTestId('message-stale')).toHaveTextContent('已超10分钟')
    const done = screen.getByTestId('message-3')
    expect(done).toHaveTextContent('李四 于 2026-03-01 09:00:00 确认')
    expect(screen.getByTestId('message-action-3')).toBeDisabled()
    expect(screen.getByTestId('message-action-3')).toHaveTextContent(/已\s?确\s?认/)

    expect(screen.getByTestId('message-action-2')).toHaveTextContent(/^确\s?认$/)
    await user.click(screen.getByTestId('message-action-2'))
    await waitFor(() => expect(screen.getByTestId('message-action-2')).toBeDisabled())
    expect(screen.getByTestId('message-2')).toHaveTextContent('调度员 于 2026-03-01 10:00:00 确认')
    expect(router.state.location.pathname).toBe('/deviceManagement/device')

    expect(screen.getByTestId('message-action-1')).toHaveTextContent(/^详\s?情$/)
    await user.click(screen.getByTestId('message-action-1'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/watchBoard/dashboard'))
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      event_type: '2',
      event_id: '101',
      formMsg: '1',
    })
    await waitFor(() => expect(confirmed).toEqual(['2', '1']))
  })

  it('puts pushed messages in front and updates listed ones in place', async () => {
    rows = [messageRow(1), messageRow(2)]
    api()
    const { push } = renderBell('live')
    await userEvent.setup().click(screen.getByTestId('message-bell'))
    await screen.findByTestId('message-2')
    push({ id: 9, data_type: LiveType.MESSAGE, data: messageRow(3, { msg_title: '新的急救事件' }) })
    push({
      id: 10,
      data_type: LiveType.MESSAGE,
      data: messageRow(2, { is_confirm: 1, confirmed_name: '王五' }),
    })
    await waitFor(() =>
      expect(screen.getAllByTestId(/^message-\d+$/).map((el) => el.dataset.testid)).toEqual([
        'message-3',
        'message-1',
        'message-2',
      ]),
    )
    const items = screen.getAllByTestId(/^message-\d+$/)
    expect(items[0]).toHaveTextContent('新的急救事件')
    expect(screen.getByTestId('message-2')).toHaveAttribute('data-confirmed', '1')
    expect(screen.getByTestId('message-2')).toHaveTextContent('王五')
  })

  it('loads the next page of ten once scrolling stops (200 ms) at the end of the list', async () => {
    rows = Array.from({ length: 25 }, (_, i) => messageRow(i + 1))
    const fetchMock = api()
    renderBell('live')
    await userEvent.setup().click(screen.getByTestId('message-bell'))
    await screen.findByTestId('message-10')
    expect(screen.queryByTestId('message-11')).toBeNull()
    const list = screen.getByTestId('message-list')
    for (let i = 0; i < 5; i++) fireEvent.scroll(list)
    await screen.findByTestId('message-20')
    expect(listPages(fetchMock)).toEqual(['1', '2'])
    fireEvent.scroll(list)
    await screen.findByTestId('message-25')
    expect(screen.getByText('没有更多了')).toBeInTheDocument()
    fireEvent.scroll(list)
    await new Promise((r) => setTimeout(r, 300))
    expect(listPages(fetchMock)).toEqual(['1', '2', '3'])
  })
})
