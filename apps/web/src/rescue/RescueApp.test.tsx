import type { ResponderAlert } from '@aed/contracts/dispatch'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ALERT_TOKEN, alert, patientAlert } from '../test/rescueFixtures'
import { alertPath } from './api'
import { RescueApp } from './RescueApp'

type Envelope = { code: number; msg: string; data: ResponderAlert | null }
type Call = { method: string; path: string; body?: Record<string, unknown> }

/** A fake server: answers every call with `reply`, which a test swaps; records the calls. */
function fakeServer(first: ResponderAlert | Envelope) {
  const calls: Call[] = []
  const ok = (data: ResponderAlert): Envelope => ({ code: 0, msg: '', data })
  const server = {
    calls,
    reply: (_call: Call): Envelope => ('state' in first ? ok(first) : first),
    /** Answers every later call with this alert. */
    answer(data: ResponderAlert) {
      server.reply = () => ok(data)
    },
    posts: (action: string) => calls.filter((c) => c.method === 'POST' && c.path.endsWith(`/${action}`)),
    gets: () => calls.filter((c) => c.method === 'GET'),
  }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        path,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      }
      calls.push(call)
      return new Response(JSON.stringify(server.reply(call)), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return server
}

/** The phone's GPS: `move` reports a position to the page's watch. */
function fakeGps() {
  const watchers = new Map<number, PositionCallback>()
  let next = 1
  const geolocation = {
    watchPosition: vi.fn((ok: PositionCallback) => {
      watchers.set(next, ok)
      return next++
    }),
    clearWatch: vi.fn((id: number) => watchers.delete(id)),
  }
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true })
  return {
    geolocation,
    watching: () => watchers.size,
    move(lat: number, lon: number) {
      const p = { coords: { latitude: lat, longitude: lon, accuracy: 8 }, timestamp: Date.now() }
      for (const ok of watchers.values()) ok(p as unknown as GeolocationPosition)
    },
  }
}

/** Lets fetches resolve and React render, with the clock moved on by `ms`. */
async function advance(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms)
  })
}

async function open(token = ALERT_TOKEN) {
  render(<RescueApp token={token} />)
  await advance()
}

let gps: ReturnType<typeof fakeGps>

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  // Three and a half minutes after the fixture's call (09:58:30 China time).
  vi.setSystemTime(new Date('2026-11-26T02:02:00Z'))
  localStorage.clear()
  // jsdom's navigator speaks en-US; the phones this page is for mostly speak Chinese.
  vi.spyOn(navigator, 'language', 'get').mockReturnValue('zh-CN')
  gps = fakeGps()
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the alert page', () => {
  it('shows an alert with its countdown, the AED to fetch and the call', async () => {
    const server = fakeServer(alert())
    await open()
    expect(server.calls[0]).toEqual({ method: 'GET', path: alertPath(ALERT_TOKEN), body: undefined })
    expect(screen.getByText('先取AED再去现场')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('请在 40 秒内答复')
    expect(screen.getByText('3 分钟前呼救 · 已有 1 人接受')).toBeInTheDocument()
    expect(screen.getByText('站厅层B口闸机旁，消防栓右侧的白色机柜')).toBeInTheDocument()
    expect(screen.getByText('救护箱 CAB-HZ-0001')).toBeInTheDocument()
    expect(screen.getByText('未开锁')).toBeInTheDocument()
    expect(screen.getByAltText('AED位置照片')).toHaveAttribute('src', '/files/aed-0001.jpg')
    expect(screen.getByText('杭州市西湖区文三路259号 昌地火炬大厦')).toBeInTheDocument()
    expect(screen.getByText('男性，约60岁，突然倒地，无呼吸')).toBeInTheDocument()
    // No position yet: the server's whole way by the AED.
    expect(screen.getByText('经AED到现场 420 米')).toBeInTheDocument()
    expect(screen.getByText(/步行约 3 分钟/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: '接受' })).toBeEnabled()
    expect(screen.getByRole('button', { name: '拒绝' })).toBeEnabled()

    // The server counts down too: each refresh answers the seconds left, then the alert expired.
    const start = Date.now()
    server.reply = () => {
      const left = 40 - Math.floor((Date.now() - start) / 1000)
      const data =
        left > 0 ? alert({ answer_left_s: left }) : alert({ state: 'expired', answer_left_s: null })
      return { code: 0, msg: '', data }
    }
    await advance(5000)
    expect(screen.getByRole('timer')).toHaveTextContent('请在 35 秒内答复')
    await advance(34_000)
    expect(screen.getByRole('timer')).toHaveTextContent('请在 1 秒内答复')
    // Time is up: the server let the alert expire but still takes a late yes.
    await advance(2_000)
    expect(screen.queryByRole('timer')).not.toBeInTheDocument()
    expect(screen.getByText('答复时间已过，如您仍能赶去，仍可接受')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: '接受' })).toBeEnabled()
  })

  it('draws the patient, the AED and the phone with distances and north', async () => {
    fakeServer(alert())
    await open()
    gps.move(30.2768, 120.1337)
    await advance()
    const map = screen.getByRole('img', { name: '示意图，非实际道路' })
    expect(map.querySelector('.marker-patient')).not.toBeNull()
    expect(map.querySelector('.marker-aed')).not.toBeNull()
    expect(map.querySelector('.marker-me')).not.toBeNull()
    expect(within(map).getByText('北')).toBeInTheDocument()
    // Two legs: the phone to the AED, the AED to the patient.
    expect(map.querySelectorAll('.map-leg')).toHaveLength(2)
    // With a position the way is measured from the phone to the next stop.
    expect(screen.getByText(/^到AED \d+ 米$/)).toBeInTheDocument()
  })

  it('accepts with the position, then leads to the AED, then to the patient', async () => {
    const server = fakeServer(alert())
    await open()
    gps.move(30.2768, 120.1337)
    await advance()
    server.answer(
      alert({
        state: 'accepted',
        answer_left_s: null,
        accepted: 2,
        aed: { ...alert().aed!, unlocked: true },
      }),
    )
    fireEvent.click(screen.getByRole('button', { name: '接受' }))
    await advance()
    expect(server.posts('accept')[0].body).toMatchObject({ lat: 30.2768, lon: 120.1337, coord: 'wgs84' })
    expect(screen.getByText('已接受，请立即出发')).toBeInTheDocument()
    expect(screen.getByText('已开锁')).toBeInTheDocument()
    expect(screen.getByText('正在共享您的位置')).toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: '导航到AED' }))
    const amap = screen.getByRole('link', { name: '高德地图' }).getAttribute('href')!
    expect(new URL(amap).searchParams.get('to')).toBe('120.137200,30.275200,AED 文三路地铁站B口')
    expect(screen.getByRole('link', { name: '腾讯地图' })).toHaveAttribute('target', '_blank')
    expect(screen.queryByRole('button', { name: '已到达' })).not.toBeInTheDocument()

    fireEvent.click(screen.getByRole('button', { name: '已取到AED' }))
    expect(screen.getByText('已取到AED，请尽快送到患者身边')).toBeInTheDocument()
    expect(screen.queryByText('要取的AED')).not.toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: '导航到现场' }))
    const tencent = screen.getByRole('link', { name: '腾讯地图' }).getAttribute('href')!
    expect(new URL(tencent).searchParams.get('tocoord')).toBe('30.274100,120.135100')

    server.answer(alert({ state: 'arrived', answer_left_s: null, accepted: 2 }))
    fireEvent.click(screen.getByRole('button', { name: '已到达' }))
    await advance()
    expect(server.posts('arrived')).toHaveLength(1)
    expect(screen.getByText('您已到达现场')).toBeInTheDocument()
    expect(screen.getByText(/请立即打开AED，按语音提示操作/)).toBeInTheDocument()
    expect(screen.queryByRole('button')).toHaveTextContent('English')
    // Arrived: the GPS is off and nothing more is shared.
    expect(gps.watching()).toBe(0)
  })

  it('remembers the fetched AED across a reload of the page', async () => {
    fakeServer(alert({ state: 'accepted', answer_left_s: null }))
    await open()
    fireEvent.click(screen.getByRole('button', { name: '已取到AED' }))
    cleanup()
    await open()
    expect(screen.getByRole('button', { name: '已到达' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: '导航到现场' })).toBeInTheDocument()
  })

  it('declines', async () => {
    const server = fakeServer(alert())
    await open()
    server.answer(alert({ state: 'declined', answer_left_s: null }))
    fireEvent.click(screen.getByRole('button', { name: '拒绝' }))
    await advance()
    expect(server.posts('decline')).toHaveLength(1)
    expect(screen.getByText('您已拒绝本次呼救，感谢您的答复')).toBeInTheDocument()
  })

  it('goes straight to the patient when sent there', async () => {
    fakeServer(patientAlert({ state: 'accepted', answer_left_s: null }))
    await open()
    expect(screen.getByText('直接去现场')).toBeInTheDocument()
    expect(screen.queryByText('要取的AED')).not.toBeInTheDocument()
    expect(screen.getByText('到现场 260 米')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: '导航到现场' }))
    expect(screen.getByRole('link', { name: '高德地图' }).getAttribute('href')).toContain(
      'to=120.135100,30.274100',
    )
  })

  it('refreshes every 10 s after accepting and says when the responder is not needed', async () => {
    const server = fakeServer(alert({ state: 'accepted', answer_left_s: null }))
    await open()
    await advance(9_900)
    expect(server.gets()).toHaveLength(1)
    await advance(100)
    expect(server.gets()).toHaveLength(2)
    server.answer(alert({ state: 'stood_down', answer_left_s: null, accepted: 3 }))
    await advance(10_000)
    expect(screen.getByText('已有足够的急救员赶往现场，您无需再去。感谢您的响应！')).toBeInTheDocument()
    // Nothing more can change: no more refreshes, no GPS.
    await advance(30_000)
    expect(server.gets()).toHaveLength(3)
    expect(gps.watching()).toBe(0)
  })

  it('says when the call has closed', async () => {
    const server = fakeServer(alert({ state: 'arrived', answer_left_s: null }))
    await open()
    server.answer(alert({ state: 'arrived', open: false, answer_left_s: null }))
    await advance(10_000)
    expect(screen.getByText('本次呼救已结束，感谢您的帮助')).toBeInTheDocument()
    expect(screen.getByText('杭州市西湖区文三路259号 昌地火炬大厦')).toBeInTheDocument()
  })

  it('shows the refusal when the link stopped working between two refreshes', async () => {
    const server = fakeServer(alert({ state: 'accepted', answer_left_s: null }))
    await open()
    server.reply = () => ({ code: 2, msg: '呼救已结束', data: null })
    await advance(10_000)
    expect(screen.getByRole('heading', { name: '呼救已结束' })).toBeInTheDocument()
    expect(screen.getByText('感谢您的帮助')).toBeInTheDocument()
  })

  it('shows the server’s reason for a bad link, and a page for a link without a token', async () => {
    fakeServer({ code: 1, msg: '链接无效或已过期', data: null })
    await open('tampered')
    expect(screen.getByRole('heading', { name: '链接无效或已过期' })).toBeInTheDocument()
    expect(screen.getByText('请以短信中最新的链接为准')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: '接受' })).not.toBeInTheDocument()
  })

  it('opens no request for a link without a token', async () => {
    const server = fakeServer(alert())
    await open('')
    expect(screen.getByRole('heading', { name: '链接无法打开' })).toBeInTheDocument()
    expect(server.calls).toHaveLength(0)
  })

  it('says a refused action’s reason and shows where things stand', async () => {
    const server = fakeServer(alert())
    await open()
    server.reply = (call) =>
      call.method === 'POST'
        ? { code: 3, msg: '已有足够人员响应', data: null }
        : { code: 0, msg: '', data: alert({ state: 'stood_down', answer_left_s: null }) }
    fireEvent.click(screen.getByRole('button', { name: '接受' }))
    await advance()
    expect(screen.getByText('已有足够的急救员赶往现场，您无需再去。感谢您的响应！')).toBeInTheDocument()
  })

  it('offers to try again without a connection, and keeps the alert when a refresh fails', async () => {
    const server = fakeServer(alert({ state: 'accepted', answer_left_s: null }))
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    vi.stubGlobal('fetch', failing)
    await open()
    expect(screen.getByRole('heading', { name: '网络连接失败' })).toBeInTheDocument()
    fakeServer(alert({ state: 'accepted', answer_left_s: null }))
    fireEvent.click(screen.getByRole('button', { name: '重试' }))
    await advance()
    expect(screen.getByText('已接受，请立即出发')).toBeInTheDocument()
    vi.stubGlobal('fetch', failing)
    await advance(10_000)
    expect(screen.getByText('已接受，请立即出发')).toBeInTheDocument()
    expect(screen.getByText('网络连接失败')).toBeInTheDocument()
    expect(server.calls).toHaveLength(0)
  })

  it('shares the position at most every 15 s while accepted, the newest each time', async () => {
    const server = fakeServer(alert({ state: 'accepted', answer_left_s: null }))
    await open()
    gps.move(30.27, 120.13)
    await advance()
    expect(server.posts('location').map((c) => c.body?.lat)).toEqual([30.27])
    gps.move(30.271, 120.13)
    await advance(5_000)
    gps.move(30.272, 120.13)
    await advance(5_000)
    expect(server.posts('location')).toHaveLength(1)
    // The newest fix goes 15 s after the first.
    await advance(5_000)
    expect(server.posts('location').map((c) => c.body?.lat)).toEqual([30.27, 30.272])
    expect(server.posts('location')[1].body).toMatchObject({ coord: 'wgs84', accuracy: 8 })
    // No new fix: nothing more is sent.
    await advance(30_000)
    expect(server.posts('location')).toHaveLength(2)
  })

  it('watches the position while alerted but shares none until accepted', async () => {
    const server = fakeServer(alert())
    await open()
    expect(gps.watching()).toBe(1)
    gps.move(30.27, 120.13)
    await advance(20_000)
    expect(server.posts('location')).toHaveLength(0)
  })

  it('speaks English on a phone set to English, and switches', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB')
    const server = fakeServer(alert())
    await open()
    expect(screen.getByText('Fetch the AED, then go to the patient')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('Please answer within 40 s')
    expect(screen.getByText('By the AED to the patient 420 m')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument()
    expect((server.calls[0] as unknown as { path: string }).path).toBe(alertPath(ALERT_TOKEN))
    fireEvent.click(screen.getByRole('button', { name: '中文' }))
    expect(screen.getByRole('button', { name: '接受' })).toBeInTheDocument()
    expect(localStorage.getItem('rescue.lang')).toBe('zh')
  })
})
