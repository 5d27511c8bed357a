import { callApi as calls } from '@aed/contracts/call'
import { rescueApi } from '@aed/contracts/rescue'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { act } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { DeviceRef } from '../../../lib/deviceDetail'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { call, callDetail, dispatchAlert, dispatchOf, rescueRow } from '../../../test/callFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { pageRoutes } from '../../../test/pageRoutes'
import { renderWithProviders } from '../../../test/renderWithProviders'
import type { MapLine, MapPoint } from '../components/mapPoints'
import { EmergencyCallPage } from './EmergencyCallPage'

vi.mock('../components/EmergencyMap', () => ({
  EmergencyMap: ({
    points,
    lines,
    onPointClick,
    children,
  }: {
    points: MapPoint[]
    lines?: MapLine[]
    onPointClick: (p: MapPoint) => void
    children: React.ReactNode
  }) => (
    <div data-testid="emergency-map" data-lines={(lines ?? []).map((l) => `${l.key}:${l.strong}`).join(' ')}>
      {points.map((p) => (
        <button
          type="button"
          key={p.key}
          data-testid={`point-${p.key}`}
          data-kind={p.kind}
          data-active={p.active ? 'yes' : 'no'}
          data-emphasis={p.emphasis ?? ''}
          data-at={`${p.lat},${p.lon}`}
          onClick={() => onPointClick(p)}
        >
          {p.title}
        </button>
      ))}
      {children}
    </div>
  ),
}))

vi.mock('../../../components/MapPicker/MapPicker', () => ({
  MapPicker: ({ onChange }: { onChange?: (p: { lat: number; lon: number }) => void }) => (
    <button type="button" data-testid="map-pick" onClick={() => onChange?.({ lat: 30.3, lon: 120.2 })}>
      pick
    </button>
  ),
}))

const download = vi.hoisted(() => vi.fn())
vi.mock('../../../lib/download', () => ({ downloadUrl: download }))

const listCalls: MockCall[] = []
const rescueCalls: MockCall[] = []
const detailCalls: MockCall[] = []
const second = call({
  id: 2,
  location: '西溪湿地东门',
  phone: '137****0000',
  status: 0,
  outcome: 'aed_used',
  can: { close: false },
})

function api({ create = true, ecg = true } = {}) {
  return mockApi([
    ...pageRoutes(),
    recordOn(calls.list, listCalls, () => ({
      code: 0,
      data: { count: 2, resource: [call(), second], can: { create } },
    })),
    recordOn(calls.detail, detailCalls, ({ params }) => ({
      code: 0,
      data: callDetail(
        Number(params.id) === 2 ? { ...second, devices: [], responders: [] } : { id: Number(params.id) },
      ),
    })),
    on(calls.create, () => ({ code: 0, msg: '登记成功！', data: { id: 9, created: true } })),
    recordOn(rescueApi.list, rescueCalls, () => ({ code: 0, data: { count: 1, resource: [rescueRow()] } })),
    on(rescueApi.fileDownload, () =>
      ecg
        ? {
            code: 0,
            data: {
              url: '/files/ecg-7.dat?sig=x',
              file_name: 'ecg-7.dat',
              expires_at: '2026-03-10T02:00:00Z',
            },
          }
        : { code: 1, msg: '文件未上传！' },
    ),
  ])
}

function DeviceDetail({ device, rescueEventId }: { device: DeviceRef | null; rescueEventId?: string }) {
  return device ? (
    <div data-testid="device-detail">
      {device.device_sn} {rescueEventId ?? 'whole'}
    </div>
  ) : null
}

const renderPage = (path = '/emergency/call') =>
  renderWithProviders(<EmergencyCallPage DeviceDetail={DeviceDetail} />, path)

freshConsole({
  reset: () => {
    listCalls.splice(0)
    rescueCalls.splice(0)
    detailCalls.splice(0)
    download.mockReset()
  },
  signedIn: userInfo({ permissions: { aid_event: 'EDIT', device: 'EDIT' } }),
})

const headers = () => [...document.querySelectorAll('.emergency-list thead th')].map((th) => th.textContent)

describe('EmergencyCallPage', () => {
  it('has the two tabs, the call list by default, and the rescue list on 急救事件', async () => {
    api()
    const { router } = renderPage()
    expect(await screen.findByTestId('emergency-tab-calls')).toHaveTextContent('呼救事件')
    expect(screen.getByTestId('emergency-tab-rescues')).toHaveTextContent('急救事件')
    await screen.findByTestId('row-1')
    expect(headers()).toEqual([
      '编号',
      '呼救地址',
      '所在区域',
      '呼救电话',
      '呼救时间',
      '状态',
      '处置结果',
      '操作',
    ])
    const row = within(screen.getByTestId('row-2'))
    expect(row.getByText('137****0000')).toBeInTheDocument()
    expect(row.getByText('已结束')).toBeInTheDocument()
    expect(row.getByText('AED已使用')).toBeInTheDocument()
    expect(within(screen.getByTestId('row-1')).getByText('进行中')).toBeInTheDocument()

    await userEvent.click(screen.getByTestId('emergency-tab-rescues'))
    await screen.findByText('急救事件列表')
    expect(router.state.location.search).toBe('?tab=rescue')
    await waitFor(() =>
      expect(headers()).toEqual([
        '急救地点',
        '急救时间',
        '设备SN',
        '设备型号',
        '安装地址',
        '安装点名称',
        '所属机构',
        '纬度',
        '经度',
        '关联呼救',
        '归还',
        '操作',
      ]),
    )
    const rescue = within(await screen.findByTestId('row-7'))
    expect(rescue.getByText('#1')).toBeInTheDocument()
    expect(rescue.getByText('已归还')).toBeInTheDocument()
    expect(screen.getByTestId('point-rescue-7')).toHaveAttribute('data-kind', '8')
  })

  it('selects the first call: the call (6), the normal devices around it (9), the responders (5) and its timeline', async () => {
    api()
    renderPage()
    await waitFor(() => expect(screen.getByTestId('point-call-1')).toHaveAttribute('data-active', 'yes'))
    expect(screen.getByTestId('point-call-1')).toHaveAttribute('data-kind', '6')
    expect(await screen.findByTestId('point-device-51')).toHaveAttribute('data-kind', '9')
    expect(screen.getByTestId('point-device-52')).toHaveAttribute('data-kind', '9')
    expect(screen.getByTestId('point-responder-61')).toHaveAttribute('data-kind', '5')
    const panel = screen.getByTestId('call-panel')
    expect(panel).toHaveTextContent('13912345678')
    expect(within(panel).getByTestId('call-timeline')).toHaveTextContent('调度员登记呼救')
    expect(within(panel).getByTestId('call-nearby-responders')).toHaveTextContent('李医生 260米 · 可派遣')

    await userEvent.click(screen.getByTestId('row-2'))
    await waitFor(() => expect(screen.getByTestId('point-call-2')).toHaveAttribute('data-active', 'yes'))
    expect(screen.getByTestId('point-call-1')).toHaveAttribute('data-active', 'no')
    await waitFor(() => expect(screen.queryByTestId('point-device-51')).toBeNull())
    expect(detailCalls.map((c) => c.params.id)).toEqual(['1', '2'])
  })

  it('opens a nearby device’s detail from its point, and a rescue’s device scoped to the rescue', async () => {
    api()
    renderPage()
    await userEvent.click(await screen.findByTestId('point-device-51'))
    expect(await screen.findByTestId('device-detail')).toHaveTextContent('A640000051 whole')
  })

  it('asks the calls of a preset time: start_time 10 minutes before end_time', async () => {
    api()
    renderPage()
    await screen.findByTestId('row-1')
    const user = userEvent.setup()
    await user.click(screen.getByTestId('time-range-trigger'))
    for (const [key, label] of [
      ['1', '10分钟'],
      ['2', '1天'],
      ['3', '7天'],
      ['4', '30天'],
      ['5', '自定义'],
    ])
      expect(await screen.findByTestId(`time-range-option-${key}`)).toHaveTextContent(label)
    await user.click(screen.getByTestId('time-range-option-1'))
    await user.click(screen.getByRole('button', { name: /搜\s?索/ }))
    await waitFor(() => expect(listCalls.at(-1)?.query.get('start_time')).toBeTruthy())
    const q = listCalls.at(-1)?.query as URLSearchParams
    expect(Date.parse(q.get('end_time') ?? '') - Date.parse(q.get('start_time') ?? '')).toBe(10 * 60_000)
  })

  it('refuses a custom range that starts after it ends', async () => {
    api()
    renderPage()
    await screen.findByTestId('row-1')
    const user = userEvent.setup()
    await user.click(screen.getByTestId('time-range-trigger'))
    await user.click(await screen.findByTestId('time-range-option-5'))
    for (const [id, date] of [
      ['time-range-start', '2026.03.10'],
      ['time-range-end', '2026.03.01'],
    ]) {
      const input = screen.getByTestId(id).querySelector('input') ?? screen.getByTestId(id)
      await user.click(input)
      await user.type(input, `${date}{Enter}`)
    }
    await user.click(screen.getByTestId('time-range-confirm'))
    await waitFor(() =>
      expect(screen.getByTestId('time-range-custom')).toHaveTextContent('开始时间不能大于结束时间！'),
    )
  })

  it('closes an open call with its outcome; a closed one has no 结束', async () => {
    const fetch = api()
    renderPage()
    await screen.findByTestId('row-1')
    expect(screen.queryByTestId('call-close-2')).toBeNull()
    await userEvent.click(screen.getByTestId('call-close-1'))
    const dialog = await screen.findByTestId('call-close-modal')
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await within(dialog).findByText('请选择处置结果')).toBeInTheDocument()
    mockApi([
      ...pageRoutes(),
      on(calls.list, () => ({ code: 0, data: { count: 1, resource: [call()], can: { create: true } } })),
      on(calls.detail, () => ({ code: 0, data: callDetail() })),
      on(calls.close, ({ body }) => {
        expect(body).toEqual({ outcome: 'no_aed_needed', remark: null })
        return { code: 0, msg: '操作成功！', data: call({ status: 0, outcome: 'no_aed_needed' }) }
      }),
    ])
    expect(fetch).toBeDefined()
    await userEvent.click(within(dialog).getByText('无需AED'))
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('操作成功！')).toBeInTheDocument()
  })

  it('downloads a rescue’s ECG through its short-lived link, shows 文件未上传！ when there is none', async () => {
    api()
    renderPage('/emergency/call?tab=rescue')
    await userEvent.click(await screen.findByTestId('rescue-ecg-7'))
    await waitFor(() => expect(download).toHaveBeenCalledWith('/files/ecg-7.dat?sig=x', 'ecg-7.dat'))

    api({ ecg: false })
    await userEvent.click(screen.getByTestId('rescue-ecg-7'))
    expect(await screen.findByText('文件未上传！')).toBeInTheDocument()
    expect(download).toHaveBeenCalledTimes(1)
  })

  it('opens a rescue’s device scoped to the rescue, and its linked call on the call tab', async () => {
    api()
    const { router } = renderPage('/emergency/call?tab=rescue')
    await userEvent.click(await screen.findByTestId('rescue-device-7'))
    expect(await screen.findByTestId('device-detail')).toHaveTextContent('A640000051 R-20260310-1')
    await userEvent.click(screen.getByTestId('rescue-call-1'))
    await waitFor(() => expect(router.state.location.search).toBe(''))
    await waitFor(() => expect(screen.getByTestId('point-call-1')).toHaveAttribute('data-active', 'yes'))
  })

  it('offers 登记呼救 only with the list’s can.create', async () => {
    api({ create: false })
    renderPage()
    await screen.findByTestId('row-1')
    expect(screen.queryByTestId('call-create')).toBeNull()
  })

  it('selects the call it records: its detail on the map', async () => {
    api()
    renderPage()
    await userEvent.click(await screen.findByTestId('call-create'))
    await userEvent.type(await screen.findByTestId('call-phone'), '13912345678')
    await userEvent.type(
      screen.getByTestId('call-location').querySelector('input') as HTMLElement,
      '文三路20号',
    )
    await userEvent.click(screen.getByTestId('map-pick'))
    await userEvent.click(within(screen.getByTestId('call-modal')).getByRole('button', { name: /确\s?定/ }))
    expect(await screen.findByText('登记成功！')).toBeInTheDocument()
    await waitFor(() => expect(detailCalls.at(-1)?.params.id).toBe('9'))
    await waitFor(() => expect(screen.getByTestId('point-call-9')).toHaveAttribute('data-active', 'yes'))
    expect(screen.getByTestId('point-call-1')).toHaveAttribute('data-active', 'no')
    expect(screen.getByTestId('call-panel')).toHaveTextContent('#9')
  })

  it('shows the selected call’s dispatch, and on its live step (14) refetches it: the tag, the marker and its way change', async () => {
    let alert = dispatchAlert()
    mockApi([
      ...pageRoutes(),
      on(calls.list, () => ({ code: 0, data: { count: 1, resource: [call()], can: { create: true } } })),
      recordOn(calls.detail, detailCalls, () => ({
        code: 0,
        data: callDetail({
          dispatch: dispatchOf({ alerts: [alert], accepted: alert.state === 'accepted' ? 1 : 0 }),
        }),
      })),
    ])
    const bus = createLiveBus()
    renderWithProviders(
      <LiveBusContext.Provider value={bus}>
        <EmergencyCallPage DeviceDetail={DeviceDetail} />
      </LiveBusContext.Provider>,
      '/emergency/call',
    )
    const panel = await screen.findByTestId('call-dispatch')
    await waitFor(() => expect(within(panel).getByTestId('call-alert-1')).toHaveTextContent('已通知'))
    expect(panel).toHaveTextContent('派单中')
    expect(screen.getByTestId('point-responder-61')).toHaveAttribute('data-at', '30.272,120.149')
    expect(screen.getByTestId('emergency-map')).toHaveAttribute('data-lines', 'alert-1:false')
    expect(screen.getByTestId('point-device-53')).toHaveAttribute('data-kind', '9')
    const fetched = detailCalls.length

    alert = dispatchAlert({
      state: 'accepted',
      answered_at: '2026-03-10 09:30:40',
      lat: 30.273,
      lon: 120.146,
    })
    act(() => bus.emit({ id: 1, data_type: 14, data: { call_id: 1, dispatch_id: 3, kind: 'accepted' } }))
    await waitFor(() => expect(within(panel).getByTestId('call-alert-1')).toHaveTextContent('已接受'))
    expect(detailCalls.length).toBe(fetched + 1)
    expect(panel).toHaveTextContent('已接受1人')
    expect(screen.getByTestId('point-responder-61')).toHaveAttribute('data-at', '30.273,120.146')
    expect(screen.getByTestId('point-responder-61')).toHaveAttribute('data-emphasis', 'strong')
    expect(screen.getByTestId('emergency-map')).toHaveAttribute('data-lines', 'alert-1:true')

    act(() => bus.emit({ id: 2, data_type: 14, data: { call_id: 2, dispatch_id: 4, kind: 'accepted' } }))
    await new Promise((r) => setTimeout(r, 50))
    expect(detailCalls.length).toBe(fetched + 1)
  })
})
