import { type LiveAlarmData, type LiveFrame, LiveType } from '@aed/contracts/live'
import { messageApi } from '@aed/contracts/message'
import { DEFAULT_SETTINGS, settingsApi } from '@aed/contracts/settings'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ConfigProvider } from 'antd'
import { describe, expect, it, type Mock, vi } from 'vitest'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { sessionStore } from '../../../lib/session'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { messageRow } from '../testMessages'
import { AlarmPopup } from './AlarmPopup'

const alarm = (patch: Partial<LiveAlarmData> = {}): LiveAlarmData => ({
  data_time: '2026-03-01T02:00:00Z',
  location: '杭州市西湖区文三路 1 号',
  cabinet_sn: null,
  device_sn: 'A640000001',
  agency_name: '西湖急救中心',
  msg_id: 11,
  event_type: 2,
  event_id: 501,
  escalation_level: 0,
  ...patch,
})
const aid = (id: number, patch: Partial<LiveAlarmData> = {}) =>
  ({ id, data_type: LiveType.AID_ALARM, data: alarm(patch) }) as const
const door = (id: number, patch: Partial<LiveAlarmData> = {}) =>
  ({
    id,
    data_type: LiveType.CABINET_DOOR,
    data: alarm({ msg_id: 12, event_type: 4, event_id: 9, device_sn: null, cabinet_sn: 'C100', ...patch }),
  }) as const

let play: Mock<() => Promise<void>>
let pause: Mock<() => void>
const confirmed: string[] = []

function api(alarmSound: 0 | 1 = 1) {
  return mockApi([
    on(settingsApi.get, () => ({
      code: 0,
      data: { ...DEFAULT_SETTINGS, alarm_sound: alarmSound, agency_id: 10 },
    })),
    on(messageApi.confirm, ({ params }) => {
      confirmed.push(params.id)
      return { code: 0, data: { success: true, message: messageRow(Number(params.id), { is_confirm: 1 }) } }
    }),
  ])
}

function renderPopup() {
  const bus = createLiveBus()
  const view = renderWithProviders(
    // No opening and closing animations: jsdom never ends them.
    <ConfigProvider theme={{ token: { motion: false } }}>
      <LiveBusContext.Provider value={bus}>
        <AlarmPopup />
      </LiveBusContext.Provider>
    </ConfigProvider>,
    '/deviceManagement/device',
  )
  return { ...view, push: (frame: LiveFrame) => act(() => bus.emit(frame)) }
}

freshConsole({
  reset: () => {
    confirmed.length = 0
    play = vi.fn(() => Promise.resolve())
    pause = vi.fn()
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play)
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(pause)
  },
  // Settings are readable with the 'agency' area.
  signedIn: userInfo({ permissions: { agency: 'READ_ONLY' } }),
  restoreMocks: true,
})

const settingsAsked = (fetchMock: ReturnType<typeof api>) =>
  fetchMock.mock.calls.some(([url]) => String(url).includes('/agency/config'))

describe('AlarmPopup', () => {
  it('opens on a live alarm, red for first aid and orange for a cabinet door, each closable; the last close stops the sound', async () => {
    const fetchMock = api()
    const { push } = renderPopup()
    await waitFor(() => expect(settingsAsked(fetchMock)).toBe(true))
    expect(screen.queryByTestId('alarm-popup')).toBeNull()

    push(door(1))
    const popup = await screen.findByTestId('alarm-popup')
    expect(popup).toHaveAttribute('data-colour', 'orange')
    expect(screen.getByTestId('alarm-m12')).toHaveClass('alarm-card-4')
    expect(screen.getByTestId('alarm-m12')).toHaveTextContent('救护箱开门告警')
    expect(screen.getByTestId('alarm-m12')).toHaveTextContent('C100')
    await waitFor(() => expect(play).toHaveBeenCalledTimes(1))
    expect(screen.getByTestId<HTMLAudioElement>('alarm-audio').loop).toBe(true)

    push(aid(2))
    await waitFor(() => expect(screen.getByTestId('alarm-popup')).toHaveAttribute('data-colour', 'red'))
    expect(screen.getByTestId('alarm-m11')).toHaveClass('alarm-card-2')
    expect(screen.getByTestId('alarm-m11')).toHaveTextContent('急救告警')
    expect(screen.getByTestId('alarm-m11')).toHaveTextContent('2026-03-01 10:00:00')
    expect(play).toHaveBeenCalledTimes(1)

    const user = userEvent.setup()
    await user.click(screen.getByTestId('alarm-close-m11'))
    expect(screen.queryByTestId('alarm-m11')).toBeNull()
    expect(screen.getByTestId('alarm-popup')).toHaveAttribute('data-colour', 'orange')
    expect(pause).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('alarm-close-m12'))
    await waitFor(() => expect(screen.queryByTestId('alarm-popup')).toBeNull())
    expect(pause).toHaveBeenCalledTimes(1)
  })

  it('shows an escalation of the same message once, updated, and again after it was closed', async () => {
    api()
    const { push } = renderPopup()
    push(aid(1))
    await screen.findByTestId('alarm-m11')
    push(aid(2, { escalation_level: 1 }))
    await waitFor(() => expect(screen.getByTestId('alarm-escalated')).toHaveTextContent('第 1 次升级提醒'))
    expect(screen.getAllByTestId(/^alarm-m/)).toHaveLength(1)
    await userEvent.setup().click(screen.getByTestId('alarm-close-m11'))
    await waitFor(() => expect(screen.queryByTestId('alarm-popup')).toBeNull())
    push(aid(3, { escalation_level: 2 }))
    await waitFor(() => expect(screen.getByTestId('alarm-escalated')).toHaveTextContent('第 2 次升级提醒'))
    await waitFor(() => expect(play).toHaveBeenCalledTimes(2))
  })

  it('confirms a door alarm, opens a first-aid one on the dashboard, closing each', async () => {
    api()
    const { push, router } = renderPopup()
    push(door(1))
    push(aid(2))
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('alarm-action-m12'))
    await waitFor(() => expect(screen.queryByTestId('alarm-m12')).toBeNull())
    expect(confirmed).toEqual(['12'])
    expect(router.state.location.pathname).toBe('/deviceManagement/device')
    await user.click(screen.getByTestId('alarm-action-m11'))
    await waitFor(() => expect(screen.queryByTestId('alarm-popup')).toBeNull())
    expect(confirmed).toEqual(['12', '11'])
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/watchBoard/dashboard?event_type=2&event_id=501&formMsg=1',
    )
  })

  it("drops the previous organisation's alarms when the token changes", async () => {
    api()
    const { push } = renderPopup()
    push(aid(1))
    await screen.findByTestId('alarm-m11')
    act(() => sessionStore.setToken('token-2'))
    await waitFor(() => expect(screen.queryByTestId('alarm-popup')).toBeNull())
    expect(pause).toHaveBeenCalled()
  })

  it('shows an alarm confirmed by someone else as confirmed', async () => {
    api()
    const { push } = renderPopup()
    push(aid(1))
    await screen.findByTestId('alarm-m11')
    push({ id: 2, data_type: LiveType.MESSAGE, data: messageRow(11, { is_confirm: 1 }) })
    await waitFor(() => expect(screen.getByTestId('alarm-action-m11')).toBeDisabled())
  })

  it('asks for a click when the browser blocks autoplay, and the click starts the sound', async () => {
    api()
    play.mockImplementationOnce(() => Promise.reject(new DOMException('blocked', 'NotAllowedError')))
    const { push } = renderPopup()
    push(aid(1))
    expect(await screen.findByTestId('autoplay-dialog')).toHaveTextContent('当前正在自动播放音频')
    await userEvent.setup().click(screen.getByTestId('autoplay-play'))
    expect(play).toHaveBeenCalledTimes(2)
    await waitFor(() => expect(screen.queryByTestId('autoplay-dialog')).toBeNull())
  })

  it("stays silent when the organisation's alarm_sound is 0, and sounds for members who cannot read it", async () => {
    const fetchMock = api(0)
    const first = renderPopup()
    await waitFor(() => expect(settingsAsked(fetchMock)).toBe(true))
    await new Promise((r) => setTimeout(r, 50))
    first.push(aid(1))
    await screen.findByTestId('alarm-m11')
    await new Promise((r) => setTimeout(r, 50))
    expect(play).not.toHaveBeenCalled()
    first.unmount()

    sessionStore.signIn(userInfo({ permissions: {} }))
    const fetch2 = api(0)
    const second = renderPopup()
    second.push(aid(1))
    await waitFor(() => expect(play).toHaveBeenCalledTimes(1))
    expect(settingsAsked(fetch2)).toBe(false)
  })
})
