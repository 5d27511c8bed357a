import { LiveClose, LiveType } from '@aed/contracts/live'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeSocket, FakeWebSocket } from './fakeSocket'
import { backoffMs, type LiveStatus, liveUrl, openLive } from './liveClient'

const count = (id: number, amount: number) =>
  ({ id, data_type: LiveType.UNCONFIRMED, data: { amount } }) as const

function start(after?: number) {
  const frames: unknown[] = []
  const statuses: LiveStatus[] = []
  const ended: (string | null)[] = []
  const client = openLive({
    token: 'tok-1',
    lang: 'en-US',
    after,
    url: 'ws://test/api/v1/system/data/',
    WebSocket: FakeWebSocket,
    onFrame: (f) => frames.push(f),
    onStatus: (s) => statuses.push(s),
    onEnded: (reason) => ended.push(reason),
  })
  return { client, frames, statuses, ended }
}

beforeEach(() => {
  FakeSocket.reset()
  vi.useFakeTimers()
})
afterEach(() => vi.useRealTimers())

describe('live client', () => {
  it('addresses the same origin, ws or wss as the page', () => {
    expect(liveUrl({ protocol: 'http:', host: 'a:5173' })).toBe('ws://a:5173/api/v1/system/data/')
    expect(liveUrl({ protocol: 'https:', host: 'aed.example' })).toBe('wss://aed.example/api/v1/system/data/')
  })

  it('says hello with the token and language, and is live from the first frame', () => {
    const { frames, statuses } = start()
    const socket = FakeSocket.last()
    socket.open()
    expect(socket.sent).toEqual([{ token: 'tok-1', lang: 'en-US' }])
    expect(statuses).toEqual([])
    socket.push(count(7, 3))
    expect(statuses).toEqual(['live'])
    expect(frames).toEqual([count(7, 3)])
  })

  it('reconnects with backoff 1 s doubling to 30 s, sending the largest id seen as after', () => {
    const { statuses } = start(5)
    FakeSocket.last().open()
    expect(FakeSocket.last().sent).toEqual([{ token: 'tok-1', after: 5, lang: 'en-US' }])
    FakeSocket.last().push(count(12, 1))
    FakeSocket.last().push(count(9, 1))
    FakeSocket.last().drop()
    expect(statuses).toEqual(['live', 'down'])
    vi.advanceTimersByTime(999)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
    FakeSocket.last().open()
    expect(FakeSocket.last().sent).toEqual([{ token: 'tok-1', after: 12, lang: 'en-US' }])
    // Failing again and again: 2 s, 4 s, ... never more than 30 s apart.
    const waits: number[] = []
    for (let i = 0; i < 7; i++) {
      FakeSocket.last().drop(LiveClose.AUTH_TIMEOUT)
      const before = FakeSocket.all.length
      let waited = 0
      while (FakeSocket.all.length === before) {
        vi.advanceTimersByTime(500)
        waited += 500
      }
      waits.push(waited)
    }
    expect(waits).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
    expect(backoffMs(0)).toBe(1000)
    expect(backoffMs(10)).toBe(30_000)
  })

  it('starts the backoff over once a connection is live again', () => {
    start()
    FakeSocket.last().drop()
    vi.advanceTimersByTime(1000)
    FakeSocket.last().drop()
    vi.advanceTimersByTime(2000)
    expect(FakeSocket.all).toHaveLength(3)
    FakeSocket.last().open()
    FakeSocket.last().push(count(1, 0))
    FakeSocket.last().drop()
    vi.advanceTimersByTime(1000)
    expect(FakeSocket.all).toHaveLength(4)
  })

  it('stops on a refused token (4003) and on being replaced (4009)', () => {
    const refused = start()
    FakeSocket.last().open()
    FakeSocket.last().drop(LiveClose.AUTH_FAILED)
    vi.advanceTimersByTime(120_000)
    expect(FakeSocket.all).toHaveLength(1)
    expect(refused.statuses).toEqual(['stopped'])

    const replaced = start()
    FakeSocket.last().open()
    FakeSocket.last().push(count(2, 0))
    FakeSocket.last().drop(LiveClose.REPLACED, 'password_changed')
    vi.advanceTimersByTime(120_000)
    expect(FakeSocket.all).toHaveLength(2)
    expect(replaced.statuses).toEqual(['live', 'stopped'])
    // Only 4009 says the session was ended, and why (an unknown reason: none).
    expect(refused.ended).toEqual([])
    expect(replaced.ended).toEqual(['password_changed'])
    const odd = start()
    FakeSocket.last().drop(LiveClose.REPLACED, 'something else')
    expect(odd.ended).toEqual([null])
  })

  it('closes for good when asked, with no reconnect', () => {
    const { client, statuses } = start()
    const socket = FakeSocket.last()
    client.close()
    expect(socket.closedWith).toBe(1000)
    socket.drop(1000)
    vi.advanceTimersByTime(60_000)
    expect(FakeSocket.all).toHaveLength(1)
    expect(statuses).toEqual([])
  })

  it('ignores frames that are not JSON objects with an id and a type', () => {
    const { frames } = start()
    FakeSocket.last().onmessage?.({ data: 'pong' })
    FakeSocket.last().onmessage?.({ data: '{"x":1}' })
    expect(frames).toEqual([])
  })
})
