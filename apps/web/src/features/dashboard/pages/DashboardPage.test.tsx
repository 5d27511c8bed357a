import { callApi as callEventApi } from '@aed/contracts/call'
import { type DeviceLocations, dashboardApi } from '@aed/contracts/dashboard'
import { deviceStatsApi } from '@aed/contracts/device-stats'
import { type ResponderPoint, responderApi } from '@aed/contracts/responder'
import { reviewApi, type ThirdPartyPoint } from '@aed/contracts/review'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { messageRow } from '../../message/testMessages'
import type DashboardMap from '../map/DashboardMap'
import { RESPONDER_HEX, THIRD_PARTY_HEX } from '../map/mapLayers'
import { DashboardPage, FOCUS_HOLD_MS } from './DashboardPage'

type MapProps = Parameters<typeof DashboardMap>[0]

// jsdom has no WebGL: the map records what the page gives it; the charts draw nothing.
const maps = vi.hoisted(() => ({ last: null as MapProps | null }))
vi.mock('../map/DashboardMap', () => ({
  default: (props: MapProps) => {
    maps.last = props
    return <div data-testid="dashboard-map-canvas" />
  },
}))
vi.mock('../../../components/EChart/EChart', async (load) => ({
  ...(await load<typeof import('../../../components/EChart/EChart')>()),
  EChart: ({ testId }: { testId: string }) => <div data-testid={testId} />,
}))

const located: MockCall[] = []
const responders: MockCall[] = []
const calls: MockCall[] = []
const thirdParty: MockCall[] = []
const others: ThirdPartyPoint[] = [[21, 120.12, 30.24, '飞利浦', '杭州市西湖区教工路18号']]
const people: ResponderPoint[] = [
  [11, 120.15, 30.27, 1, 0, '张伟'],
  [12, 120.14, 30.26, 0, 1, '李娜'],
  [13, 120.13, 30.25, 1, 2, '王芳'],
]
const answer = (): DeviceLocations => ({
  '0': [[1, 120.15, 30.28]],
  '1': [],
  '2': [[2, 120.16, 30.29]],
  '3': [],
  '4': [],
  unplaced: 3,
})

function api(focus: 'ok' | 'call' | 'confirmed' = 'ok') {
  located.length = 0
  responders.length = 0
  calls.length = 0
  thirdParty.length = 0
  return mockApi([
    recordOn(reviewApi.thirdPartyLayer, thirdParty, () => ({
      code: 0,
      data: { count: 1, more: false, resource: others },
    })),
    recordOn(callEventApi.location, calls, () => ({
      code: 0,
      data: {
        count: 2,
        resource: [
          {
            id: 3,
            lon: 120.15,
            lat: 30.27,
            location: '文三路120号',
            call_time: '2026-11-22T02:00:00.000Z',
            status: 1,
          },
          {
            id: 2,
            lon: 120.16,
            lat: 30.28,
            location: '黄龙体育中心',
            call_time: '2026-11-21T02:00:00.000Z',
            status: 0,
          },
        ],
      },
    })),
    recordOn(dashboardApi.deviceLocation, located, () => ({ code: 0, data: answer() })),
    recordOn(responderApi.location, responders, () => ({
      code: 0,
      data: {
        count: 3,
        more: false,
        resource: people,
      },
    })),
    on(dashboardApi.rescueLocation, () => ({
      code: 0,
      data: {
        count: 1,
        resource: [
          {
            id: 7,
            device_id: 2,
            device_sn: 'A640000002',
            location: '西湖文化广场',
            lon: 120.16,
            lat: 30.29,
            event_time: '2026-11-22 10:00:00',
            end_time: null,
            in_progress: 1,
          },
        ],
      },
    })),
    on(dashboardApi.eventFocus, (call) =>
      focus === 'call'
        ? { code: 404, msg: '呼救事件不存在' }
        : {
            code: 0,
            data: {
              event_type: Number(call.query.get('event_type')),
              event_id: Number(call.query.get('event_id')),
              title: '急救事件：设备 A640000002 开始使用',
              event_time: '2026-11-22 10:00:00',
              end_time: null,
              device_id: 2,
              device_sn: 'A640000002',
              cabinet_sn: null,
              agency_name: '杭州市西湖区急救中心',
              location: '西湖文化广场',
              lon: 120.16,
              lat: 30.29,
              message:
                focus === 'confirmed'
                  ? messageRow(9, {
                      msg_type: 2,
                      msg_title: '急救事件：设备 A640000002 开始使用',
                      is_confirm: 1,
                      confirmed_name: '西湖急救中心值班调度员',
                      confirm_time: '2026-11-22 10:01:00',
                    })
                  : null,
            },
          },
    ),
    on(deviceStatsApi.stateDistribution, () => ({
      code: 0,
      data: {
        all_count: 5,
        rescue_event_count: 1,
        normal_count: 1,
        warn_event_count: 0,
        error_report_count: 1,
        offset_event_count: 0,
        disconnect_count: 3,
      },
    })),
    on(deviceStatsApi.mainStateDistribution, () => ({
      code: 0,
      data: { battery: [], electrode_sheet_expire: [], battery_expire: [], host_expire: [] },
    })),
    on(deviceStatsApi.regionalDistribution, () => ({
      code: 0,
      data: { address_code: null, name: '全国', items: [] },
    })),
  ])
}

freshConsole({
  reset: () => {
    maps.last = null
  },
  // An administrator who may read the responder register and the devices: layer 5 and the
  // third-party AEDs are offered.
  signedIn: userInfo({ permissions: { aid_man: 'READ_ONLY', device: 'READ_ONLY' } }),
})

describe('DashboardPage', () => {
  it('asks for every status of the whole scope and gives the map the devices and the rescues', async () => {
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    // The answer reaches the map as typed arrays, in status order.
    await waitFor(() => expect(maps.last?.locations?.layer.ids).toEqual(Int32Array.from([1, 2])))
    const layer = maps.last?.locations?.layer
    expect([...(layer?.statuses ?? [])]).toEqual([0, 2])
    expect([...(layer?.coords ?? [])]).toEqual([120.15, 30.28, 120.16, 30.29])
    expect(located[0].query.get('status_list')).toBe('[0,1,2,3,4]')
    expect(located[0].query.has('address_code')).toBe(false)
    await waitFor(() => expect(maps.last?.markers[0]?.points.map((p) => p.title)).toEqual(['A640000002']))
    expect(maps.last?.markers[0].points[0].active).toBe(true)
    // The legend's counts are the status distribution's; offline reads 掉线 there.
    await waitFor(() => expect(screen.getByTestId('legend-4').closest('label')).toHaveTextContent('掉线3'))
    expect(screen.getByText('3 台未定位')).toBeInTheDocument()
  })

  it('unticking fault asks again without it; the rescue layer can be hidden', async () => {
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    const user = userEvent.setup()
    await waitFor(() => expect(located).toHaveLength(1))
    await user.click(within('legend-2'))
    await waitFor(() => expect(located.at(-1)?.query.get('status_list')).toBe('[0,1,3,4]'))
    expect(maps.last?.statuses).toEqual([0, 1, 3, 4])
    await user.click(within('legend-rescue'))
    await waitFor(() =>
      expect(maps.last?.markers.map((m) => m.layer.key)).toEqual(['responder', 'third_party']),
    )
    await user.click(within('legend-responder'))
    await user.click(within('legend-third_party'))
    await waitFor(() => expect(maps.last?.markers).toEqual([]))
  })

  it('draws the responders (layer 5) in their dispatch state’s colour, with name, qualification and state', async () => {
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    expect(within('legend-responder').closest('label')).toHaveTextContent('急救人员')
    await waitFor(() => expect(maps.last?.markers[1]?.points).toHaveLength(3))
    const layer = maps.last!.markers[1]
    expect(layer.layer.key).toBe('responder')
    expect(layer.layer.refreshMs).toBe(5 * 60_000)
    expect(responders[0].query.has('address_code')).toBe(false)
    expect(layer.points.map((p) => [p.title, p.color, p.lines, p.tag?.text])).toEqual([
      ['张伟', RESPONDER_HEX.ready, ['急救资质：专业'], '可派单'],
      ['李娜', RESPONDER_HEX.paused, ['急救资质：非专业'], '已暂停'],
      ['王芳', RESPONDER_HEX.certificate_expired, ['急救资质：专业'], '证书过期'],
    ])
    expect(new Set(Object.values(RESPONDER_HEX)).size).toBe(3)
  })

  it('draws the approved third-party AEDs outlined in grey, their readiness unknown', async () => {
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    expect(within('legend-third_party').closest('label')).toHaveTextContent('第三方AED')
    const shown = () => maps.last?.markers.find((m) => m.layer.key === 'third_party')
    await waitFor(() => expect(shown()?.points).toHaveLength(1))
    const layer = shown()!
    expect(layer.layer).toMatchObject({ color: THIRD_PARTY_HEX, outlined: true })
    expect(layer.points.map((p) => [p.id, p.lon, p.lat, p.title, p.lines, p.active])).toEqual([
      [21, 120.12, 30.24, '飞利浦', ['杭州市西湖区教工路18号', '可用性：未知'], false],
    ])
    expect(thirdParty[0].query.has('address_code')).toBe(false)
  })

  it('arriving from a confirmed message: the card says who confirmed it under 消息, the title once', async () => {
    api('confirmed')
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard?event_type=2&event_id=7&formMsg=1')
    const card = await screen.findByTestId('dashboard-focus')
    await waitFor(() =>
      expect(card).toHaveTextContent('消息西湖急救中心值班调度员 于 2026-11-22 10:01:00 确认'),
    )
    expect(screen.getAllByText('急救事件：设备 A640000002 开始使用')).toHaveLength(1)
  })

  it('draws the calls (marker 6) for a member who reads emergencies: open ones active', async () => {
    sessionStore.signIn(userInfo({ permissions: { aid_event: 'READ_ONLY', aid_man: 'READ_ONLY' } }))
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    expect(within('legend-call').closest('label')).toHaveTextContent('呼救事件')
    await waitFor(() =>
      expect(maps.last?.markers.find((m) => m.layer.key === 'call')?.points).toHaveLength(2),
    )
    const layer = maps.last!.markers.find((m) => m.layer.key === 'call')!
    expect(layer.points.map((p) => [p.title, p.lines, p.active])).toEqual([
      ['文三路120号', ['2026-11-22 10:00:00'], true],
      ['黄龙体育中心', ['2026-11-21 10:00:00'], false],
    ])
    expect(calls).toHaveLength(1)
  })

  it('offers no responder layer to a member without the register (its points would be refused)', async () => {
    sessionStore.signIn(userInfo({ permissions: { analysis_board: 'READ_ONLY' } }))
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    await waitFor(() => expect(maps.last?.markers.map((m) => m.layer.key)).toEqual(['rescue']))
    expect(screen.queryByTestId('legend-responder')).toBeNull()
    expect(screen.queryByTestId('legend-third_party')).toBeNull()
    expect(screen.getByTestId('legend-rescue')).toBeInTheDocument()
    expect(responders).toHaveLength(0)
    expect(thirdParty).toHaveLength(0)
  })

  it('a province chosen: devices, responders and statistics of it, and the map flies there', async () => {
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard')
    const user = userEvent.setup()
    await waitFor(() => expect(located).toHaveLength(1))
    const before = maps.last?.region.key
    await user.type(screen.getByRole('combobox', { name: '省份' }), '浙江')
    await user.click(await screen.findByTitle('浙江省', {}, { timeout: 5000 }))
    await waitFor(() => expect(located.at(-1)?.query.get('address_code')).toBe('330000'))
    await waitFor(() => expect(responders.at(-1)?.query.get('address_code')).toBe('330000'))
    expect(maps.last?.region).toMatchObject({ code: '330000', name: '浙江省' })
    expect(maps.last?.region.key).not.toBe(before)
  })

  it('arriving from a message: the event card and its highlight, held 30 s; the card stays until closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    api()
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard?event_type=2&event_id=7&formMsg=1')
    expect(await screen.findByText('急救事件：设备 A640000002 开始使用')).toBeInTheDocument()
    await waitFor(() => expect(maps.last?.focus).toMatchObject({ lon: 120.16, lat: 30.29, key: '2:7' }))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(FOCUS_HOLD_MS + 100)
    })
    await waitFor(() => expect(maps.last?.focus).toBeNull())
    // The card stays until closed.
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByTestId('dashboard-focus-close'))
    expect(screen.queryByTestId('dashboard-focus')).toBeNull()
  })

  it('an event the server cannot show: its message in the card, nothing highlighted', async () => {
    api('call')
    renderWithProviders(<DashboardPage />, '/watchBoard/dashboard?event_type=1&event_id=3&formMsg=1')
    expect(await screen.findByText('呼救事件不存在')).toBeInTheDocument()
    expect(maps.last?.focus).toBeNull()
  })
})

/** A legend entry's checkbox (the test id sits on the input). */
function within(testId: string) {
  return screen.getByTestId(testId)
}
