import { LiveClose, type LiveFrame, LiveType } from '@aed/contracts/live'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { deviceKeys } from '../../features/device/api/keys'
import { changeLanguage } from '../../i18n'
import { FakeSocket, FakeWebSocket } from '../../lib/live/fakeSocket'
import { useLiveFrames } from '../../lib/live/useLiveFrames'
import { useLiveStatus } from '../../lib/live/useLiveStatus'
import { configureRequest } from '../../lib/request'
import { sessionStore } from '../../lib/session'
import { storage } from '../../lib/storage'
import { userInfo } from '../../test/fixtures'
import { LiveProvider } from './LiveProvider'

function Probe({ onCount }: { onCount: (amount: number) => void }) {
  useLiveFrames(LiveType.UNCONFIRMED, (f) => onCount(f.data.amount))
  return <div data-testid="status">{useLiveStatus()}</div>
}

const count = (id: number, amount: number) =>
  ({ id, data_type: LiveType.UNCONFIRMED, data: { amount } }) as const
const statusFrame = (id: number): LiveFrame => ({
  id,
  data_type: LiveType.DEVICE_STATUS,
  data: { device_id: 1, device_sn: 'A1', status: 2, readiness: 'not_ready', reasons: [] },
})

function mount() {
  const client = new QueryClient()
  const counts: number[] = []
  render(
    <QueryClientProvider client={client}>
      <LiveProvider WebSocket={FakeWebSocket}>
        <Probe onCount={(n) => counts.push(n)} />
      </LiveProvider>
    </QueryClientProvider>,
  )
  return { client, counts }
}

beforeEach(async () => {
  FakeSocket.reset()
  storage.clear()
  await changeLanguage('zh-CN')
  sessionStore.signIn(userInfo({ token: 'tok-a' }))
})
afterEach(() => vi.useRealTimers())

describe('LiveProvider', () => {
  it('opens one socket with the stored token and hands frames to the hooks', () => {
    const { counts } = mount()
    expect(FakeSocket.all).toHaveLength(1)
    const socket = FakeSocket.last()
    expect(socket.url).toBe(`ws://${window.location.host}/api/v1/system/data/`)
    act(() => socket.open())
    expect(socket.sent).toEqual([{ token: 'tok-a', lang: 'zh-CN' }])
    expect(screen.getByTestId('status')).toHaveTextContent('down')
    act(() => socket.push(count(4, 120)))
    expect(screen.getByTestId('status')).toHaveTextContent('live')
    expect(counts).toEqual([120])
  })

  it('opens a fresh socket (no after) for a new token, goes on after the last id for a new language, closes on sign-out', async () => {
    mount()
    act(() => {
      FakeSocket.last().open()
      FakeSocket.last().push(count(40, 1))
    })
    await act(() => changeLanguage('en-US'))
    expect(FakeSocket.all).toHaveLength(2)
    expect(FakeSocket.all[0].closedWith).toBe(1000)
    act(() => FakeSocket.last().open())
    expect(FakeSocket.last().sent).toEqual([{ token: 'tok-a', after: 40, lang: 'en-US' }])

    act(() => sessionStore.setToken('tok-b'))
    expect(FakeSocket.all).toHaveLength(3)
    act(() => FakeSocket.last().open())
    expect(FakeSocket.last().sent).toEqual([{ token: 'tok-b', lang: 'en-US' }])
    expect(screen.getByTestId('status')).toHaveTextContent('down')

    act(() => sessionStore.clear())
    expect(FakeSocket.last().closedWith).toBe(1000)
    expect(FakeSocket.all).toHaveLength(3)
  })

  it('refetches device lists on status frames, at most once per 2 s', () => {
    vi.useFakeTimers()
    const { client } = mount()
    const spy = vi.spyOn(client, 'invalidateQueries')
    act(() => FakeSocket.last().open())
    act(() => {
      for (let i = 1; i <= 5; i++) FakeSocket.last().push(statusFrame(i))
    })
    const keys = () => spy.mock.calls.map(([filters]) => filters?.queryKey)
    expect(keys()).toEqual([deviceKeys.lists()])
    act(() => vi.advanceTimersByTime(2000))
    expect(keys()).toHaveLength(2)
    act(() => vi.advanceTimersByTime(10_000))
    expect(keys()).toHaveLength(2)
  })

  it('signs out with the reason when the server ends the session (4009), and does not reconnect', () => {
    vi.useFakeTimers()
    const notify = vi.fn()
    const navigate = vi.fn()
    configureRequest({ notify, navigate })
    mount()
    act(() => {
      FakeSocket.last().open()
      FakeSocket.last().push(count(3, 0))
    })
    act(() => FakeSocket.last().drop(LiveClose.REPLACED, 'password_changed'))
    expect(notify).toHaveBeenCalledWith('账号密码已修改，请重新登录')
    expect(navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/user\/login/))
    expect(sessionStore.get().token).toBeNull()
    act(() => vi.advanceTimersByTime(120_000))
    expect(FakeSocket.all).toHaveLength(1)
  })

  it('keeps the session when it already holds a newer token (its own password change)', () => {
    const notify = vi.fn()
    configureRequest({ notify, navigate: vi.fn() })
    mount()
    const old = FakeSocket.last()
    act(() => old.open())
    // The new token is stored before the old socket's close arrives.
    sessionStore.setToken('tok-new')
    act(() => old.drop(LiveClose.REPLACED, 'password_changed'))
    expect(notify).not.toHaveBeenCalled()
    expect(sessionStore.get().token).toBe('tok-new')
  })
})
