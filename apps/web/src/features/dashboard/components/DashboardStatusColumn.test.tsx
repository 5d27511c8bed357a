import { deviceStatsApi } from '@aed/contracts/device-stats'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { ChartClick } from '../../../components/EChart/EChart'
import { sessionStore } from '../../../lib/session'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { type MockCall, mockApi, on, recordOn } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { DashboardStatusColumn } from './DashboardStatusColumn'

type Series = { data: { name: string; value: number }[]; cursor?: string }
type Chart = { option: { series: Series[]; color?: string[] }; onClick?: (e: ChartClick) => void }

// jsdom has no canvas: the charts record the option they were given.
const charts = vi.hoisted(() => new Map<string, Chart>())
vi.mock('../../../components/EChart/EChart', async (load) => ({
  ...(await load<typeof import('../../../components/EChart/EChart')>()),
  EChart: (props: Chart & { testId: string }) => {
    charts.set(props.testId, props)
    return <div data-testid={props.testId} />
  },
}))

const calls: MockCall[] = []
const series = (testId: string) => charts.get(testId)?.option.series[0]

function api(state = 2) {
  calls.length = 0
  return mockApi([
    recordOn(deviceStatsApi.stateDistribution, calls, () => {
      if (state !== 0) return { code: state, msg: '服务异常' }
      return {
        code: 0,
        data: {
          all_count: 1200,
          rescue_event_count: 37,
          normal_count: 1000,
          warn_event_count: 60,
          error_report_count: 90,
          offset_event_count: 10,
          disconnect_count: 40,
        },
      }
    }),
    on(deviceStatsApi.regionalDistribution, (call) => ({
      code: 0,
      data: {
        address_code: call.query.get('address_code'),
        name: '全国',
        items: [
          { address_code: '330000', name: '浙江省', device_count: 800 },
          { address_code: '440000', name: '广东省', device_count: 400 },
        ],
      },
    })),
    on(deviceStatsApi.mainStateDistribution, () => ({
      code: 0,
      data: { battery: [], electrode_sheet_expire: [], battery_expire: [], host_expire: [] },
    })),
  ])
}

function Harness() {
  const [region, setRegion] = useState<string>()
  return (
    <>
      <button type="button" onClick={() => setRegion('330000')}>
        region
      </button>
      <DashboardStatusColumn addressCode={region} />
    </>
  )
}

freshConsole({
  reset: () => {
    charts.clear()
  },
  signedIn: userInfo(),
})

describe('DashboardStatusColumn', () => {
  it('shows the totals, one pie per status against the rest and the devices per region', async () => {
    api(0)
    renderWithProviders(<DashboardStatusColumn addressCode={undefined} />)
    expect(await screen.findByTestId('dashboard-total')).toHaveTextContent('设备总数1,200')
    expect(screen.getByTestId('dashboard-rescues')).toHaveTextContent('救援次数37')
    expect(calls[0].query.has('address_code')).toBe(false)

    const counts = [1000, 60, 90, 10, 40]
    counts.forEach((count, status) => {
      expect(series(`dashboard-pie-${status}`)?.data.map((d) => d.value)).toEqual([count, 1200 - count])
    })
    expect(series('dashboard-pie-2')?.data[0].name).toBe('故障')
    expect(charts.get('dashboard-pie-2')?.option.color?.[0]).toBe('#722ed1')
    expect(screen.getByText('7.5%')).toBeInTheDocument()
    expect(screen.getByText('位置偏移')).toBeInTheDocument()

    expect(await screen.findByTestId('dashboard-region-pie')).toBeInTheDocument()
    expect(series('dashboard-region-pie')?.data).toEqual([
      { name: '浙江省', value: 800 },
      { name: '广东省', value: 400 },
    ])
    expect(charts.get('dashboard-region-pie')?.option.color).toHaveLength(10)
  })

  it('opens the fault events from the fault pie; the normal pie leads nowhere', async () => {
    api(0)
    const { router } = renderWithProviders(<DashboardStatusColumn addressCode={undefined} />)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('dashboard-pie-0'))
    expect(router.state.location.pathname).toBe('/')
    expect(series('dashboard-pie-0')?.cursor).toBe('default')
    expect(screen.getAllByRole('link')).toHaveLength(4)

    await user.click(screen.getByTestId('dashboard-pie-2'))
    expect(router.state.location.pathname).toBe('/eventManagement/fault')
  })

  it('links no pie to event pages the member may not open', async () => {
    sessionStore.signIn(userInfo({ permission_list: [] }))
    api(0)
    const { router } = renderWithProviders(<DashboardStatusColumn addressCode={undefined} />)
    await userEvent.setup().click(await screen.findByTestId('dashboard-pie-2'))
    expect(router.state.location.pathname).toBe('/')
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('asks again for the region chosen', async () => {
    api(0)
    renderWithProviders(<Harness />)
    await screen.findByTestId('dashboard-total')
    await userEvent.setup().click(screen.getByText('region'))
    await waitFor(() => expect(calls.at(-1)?.query.get('address_code')).toBe('330000'))
  })

  it('says so inline when the statistics fail', async () => {
    api(2)
    renderWithProviders(<DashboardStatusColumn addressCode="330000" />)
    expect(await screen.findByTestId('dashboard-stats-failed')).toHaveTextContent('统计加载失败')
    expect(screen.getByTestId('dashboard-region-pie')).toBeInTheDocument()
  })
})
