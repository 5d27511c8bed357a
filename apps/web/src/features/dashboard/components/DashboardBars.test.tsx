import { deviceStatsApi } from '@aed/contracts/device-stats'
import { act, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { ChartClick } from '../../../components/EChart/EChart'
import { sessionStore } from '../../../lib/session'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { DashboardBars } from './DashboardBars'

type Bar = { value: number; band: number; itemStyle: { color: string } }
type Chart = {
  option: { xAxis: { data: string[] }; series: { data: Bar[] }[] }
  onClick?: (e: ChartClick) => void
}

// jsdom has no canvas: the charts record the option and click handler they were given.
const charts = vi.hoisted(() => new Map<string, Chart>())
vi.mock('../../../components/EChart/EChart', async (load) => ({
  ...(await load<typeof import('../../../components/EChart/EChart')>()),
  EChart: (props: Chart & { testId: string }) => {
    charts.set(props.testId, props)
    return <div data-testid={props.testId} />
  },
}))

const expiry = (counts: number[]) =>
  ['已过期', '3个月内', '3-6个月', '6个月以上'].map((label, value) => ({
    value,
    label,
    count: counts[value],
  }))

function api() {
  return mockApi([
    on(deviceStatsApi.mainStateDistribution, () => ({
      code: 0,
      data: {
        battery: [
          { value: 0, label: '电量耗尽', count: 3 },
          { value: 1, label: '电量低', count: 5 },
          { value: 2, label: '电量正常', count: 92 },
        ],
        electrode_sheet_expire: expiry([4, 6, 10, 80]),
        battery_expire: expiry([1, 2, 3, 94]),
        host_expire: ['已过期', '6个月内', '6-12个月', '1年以上'].map((label, value) => ({
          value,
          label,
          count: value * 10,
        })),
      },
    })),
  ])
}

const chart = (key: string) => charts.get(`dashboard-bars-${key}`)
const click = (key: string, dataIndex: number) =>
  act(() => {
    const bar = chart(key)?.option.series[0].data[dataIndex]
    chart(key)?.onClick?.({ name: '', value: bar?.value, data: bar, dataIndex })
  })

freshConsole({
  reset: () => {
    charts.clear()
  },
  signedIn: userInfo(),
})

describe('DashboardBars', () => {
  it('draws the four state statistics with the server’s band labels, red to green', async () => {
    api()
    renderWithProviders(<DashboardBars addressCode={undefined} />)
    expect(await screen.findByTestId('dashboard-bars-host_expire')).toBeInTheDocument()
    expect(screen.getByTestId('dashboard-bars')).toHaveTextContent('电量电极片有效期电池有效期主机有效期')
    expect(chart('battery')?.option.xAxis.data).toEqual(['电量耗尽', '电量低', '电量正常'])
    expect(chart('battery')?.option.series[0].data.map((b) => [b.value, b.itemStyle.color])).toEqual([
      [3, '#f5222d'],
      [5, '#fa8c16'],
      [92, '#52c41a'],
    ])
    expect(chart('electrode_sheet_expire')?.option.series[0].data.map((b) => b.value)).toEqual([4, 6, 10, 80])
    expect(chart('host_expire')?.option.xAxis.data[3]).toBe('1年以上')
  })

  it('opens the device list filtered by the band clicked, in the region', async () => {
    api()
    const { router } = renderWithProviders(<DashboardBars addressCode="330100" />)
    await screen.findByTestId('dashboard-bars-battery_expire')
    click('battery_expire', 1)
    expect(router.state.location.pathname).toBe('/deviceManagement/device')
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      address_code: '330100',
      battery_expire_state: '1',
    })
  })

  it('stays put for a member without the device list', async () => {
    sessionStore.signIn(userInfo({ permission_list: [] }))
    api()
    const { router } = renderWithProviders(<DashboardBars addressCode={undefined} />)
    await screen.findByTestId('dashboard-bars-battery')
    click('battery', 0)
    expect(router.state.location.pathname).toBe('/')
  })
})
