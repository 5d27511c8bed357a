import { type DevicePopup, dashboardApi } from '@aed/contracts/dashboard'
import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { dashboardKeys } from '../api/keys'
import { DevicePopupCard, MarkerPopupCard } from './DevicePopupCard'

const normal: DevicePopup = {
  id: 7,
  device_sn: 'M672412211',
  device_model: 'D10',
  agency_name: '杭州市西湖区急救中心',
  location: '浙江省杭州市西湖区文三路90号',
  status: 0,
  status_text: '正常',
  readiness: 'ready',
  readiness_text: '可用',
  reasons: [],
  last_report_time: '2026-11-22 10:00:00',
  lon: 120.13,
  lat: 30.28,
}
const fault: DevicePopup = {
  ...normal,
  status: 2,
  status_text: '故障',
  readiness: 'not_ready',
  readiness_text: '不可用',
  reasons: ['自检失败'],
}

const statusFrame = (deviceId: number, status: number): LiveFrame => ({
  id: 1,
  data_type: LiveType.DEVICE_STATUS,
  data: { device_id: deviceId, device_sn: 'x', status, readiness: 'not_ready', reasons: [] },
})

let current = normal
const popupCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes('/analysis-board/device/7/')).length

freshConsole({
  reset: () => {
    current = normal
  },
  signedIn: userInfo(),
})

describe('DevicePopupCard', () => {
  it('follows its device: a pushed status change of it asks again, another device’s does not', async () => {
    const fetchMock = mockApi([on(dashboardApi.devicePopup, () => ({ code: 0, data: current }))])
    const bus = createLiveBus()
    const { client } = renderWithProviders(
      <LiveBusContext.Provider value={bus}>
        <DevicePopupCard id={7} onDetail={() => {}} />
      </LiveBusContext.Provider>,
    )
    const card = await screen.findByTestId('dashboard-device-popup')
    expect(card).toHaveTextContent('正常')
    expect(popupCalls(fetchMock)).toBe(1)

    current = fault
    act(() => bus.emit(statusFrame(8, 2)))
    // Invalidation is synchronous: another device's change leaves the popup's answer as it is.
    expect(client.getQueryState(dashboardKeys.popup(7))?.isInvalidated).toBe(false)
    expect(popupCalls(fetchMock)).toBe(1)

    act(() => bus.emit(statusFrame(7, 2)))
    await waitFor(() => expect(screen.getByTestId('dashboard-device-popup')).toHaveTextContent('故障'))
    expect(screen.getByTestId('dashboard-device-popup')).toHaveTextContent('自检失败')
    expect(popupCalls(fetchMock)).toBe(2)
  })

  it('a marker: its layer and title, its own tag (a responder’s state) or a rescue’s progress, and its lines', () => {
    const point = { id: 1, lon: 120, lat: 30, title: '张伟', lines: ['急救资质：专业'], active: false }
    const { unmount } = renderWithProviders(
      <MarkerPopupCard
        point={{ ...point, tag: { text: '已暂停', color: '#8c8c8c' } }}
        layerLabel="急救人员"
      />,
    )
    const card = screen.getByTestId('dashboard-marker-popup')
    expect(card).toHaveTextContent('急救人员 张伟 已暂停急救资质：专业')
    expect(card).not.toHaveTextContent('已结束')
    unmount()
    renderWithProviders(
      <MarkerPopupCard point={{ ...point, title: 'A640000002', active: true }} layerLabel="急救事件" />,
    )
    expect(screen.getByTestId('dashboard-marker-popup')).toHaveTextContent('急救事件 A640000002 进行中')
  })
})
