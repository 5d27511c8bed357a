import { type Coverage, type CoveragePoint, coverageApi } from '@aed/contracts/coverage'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderWithProviders } from '../../../test/renderWithProviders'
import { CoveragePage } from './CoveragePage'

type Chart = {
  option: { yAxis: { data: string[] }; series: { data: { value: number; itemStyle: { color: string } }[] }[] }
}

// jsdom has no canvas: the chart records its option, the map lists its points.
const charts = vi.hoisted(() => new Map<string, Chart>())
vi.mock('../../../components/EChart/EChart', async (load) => ({
  ...(await load<typeof import('../../../components/EChart/EChart')>()),
  EChart: (props: Chart & { testId: string }) => {
    charts.set(props.testId, props)
    return <div data-testid={props.testId} />
  },
}))
vi.mock('../components/CoverageMap', () => ({
  CoverageMap: ({ points }: { points: CoveragePoint[] }) => (
    <ul data-testid="coverage-map">
      {points.map((p) => (
        <li key={p[0]}>{`${p[0]} ${p[3]} ${p[4]}`}</li>
      ))}
    </ul>
  ),
}))
const download = vi.hoisted(() => vi.fn())
vi.mock('../../../lib/download', () => ({ downloadUrl: download }))

const figures: Coverage = {
  start_date: '2026-10-27',
  end_date: '2026-11-26',
  totals: { calls: 10, covered: 6, uncovered: 3, unknown: 1, with_accept: 7, with_arrival: 4 },
  shares: { covered: 6 / 9, with_accept: 7 / 9, with_arrival: 4 / 9 },
  median_seconds: { first_accept: 95, first_arrival: 412 },
  districts: [
    { code: '330106', name: '西湖区', calls: 6, covered: 5, uncovered: 1, unknown: 0, covered_share: 5 / 6 },
    { code: '330102', name: '上城区', calls: 3, covered: 1, uncovered: 2, unknown: 0, covered_share: 1 / 3 },
    { code: null, name: null, calls: 1, covered: 0, uncovered: 0, unknown: 1, covered_share: null },
  ],
  points: [
    [31, 120.15, 30.28, '2026-11-25 21:04:10', '杭州市上城区解放路'],
    [17, 120.13, 30.27, '2026-11-20 08:30:00', '杭州市西湖区文三路'],
  ],
}

function api(data: Coverage = figures) {
  return mockApi([
    on(coverageApi.summary, ({ query }) =>
      query.get('export_xls') === 'true'
        ? { code: 0, data: { file_url: '/files/coverage.xlsx?download=x.xlsx', count: 10 } }
        : { code: 0, data },
    ),
  ])
}
const queries = (m: ReturnType<typeof api>) =>
  m.mock.calls.map(([u]) => new URL(String(u), 'http://x').searchParams)

freshConsole({ signedIn: userInfo({ role_type: 0, permissions: {} }), restoreMocks: true })

describe('CoveragePage', () => {
  it('asks for the last 30 days and shows the figures as percentages and minutes:seconds', async () => {
    const fetchMock = api()
    renderWithProviders(<CoveragePage />)
    expect(await screen.findByTestId('coverage-covered')).toHaveTextContent('66.7%')
    expect(screen.getByTestId('time-range-trigger')).toHaveTextContent('近30天')
    const q = queries(fetchMock)[0]
    const days = (Date.parse(q.get('end_date')!) - Date.parse(q.get('start_date')!)) / 86_400_000
    expect([days, q.get('address_code'), q.get('export_xls')]).toEqual([30, null, null])
    expect(screen.getByTestId('coverage-calls')).toHaveTextContent('10')
    expect(screen.getByTestId('coverage-calls')).toHaveTextContent('其中1起早于覆盖记录，未计入比例')
    expect(screen.getByTestId('coverage-covered')).toHaveTextContent('6 / 9 起')
    expect(screen.getByTestId('coverage-accept')).toHaveTextContent('77.8%')
    expect(screen.getByTestId('coverage-arrival')).toHaveTextContent('44.4%')
    expect(screen.getByTestId('coverage-median-accept')).toHaveTextContent('1:35')
    expect(screen.getByTestId('coverage-median-arrival')).toHaveTextContent('6:52')
    expect(screen.getByText('2026-10-27 至 2026-11-26')).toBeInTheDocument()
  })

  it('draws the districts as bars (most calls on top) and the uncovered calls on the map', async () => {
    api()
    renderWithProviders(<CoveragePage />)
    await screen.findByTestId('coverage-covered')
    const chart = charts.get('coverage-district-chart')!
    expect(chart.option.yAxis.data).toEqual(['未知区域', '上城区', '西湖区'])
    expect(chart.option.series[0].data.map((d) => [d.value, d.itemStyle.color])).toEqual([
      [0, '#bfbfbf'],
      [33.3, '#f5222d'],
      [83.3, '#52c41a'],
    ])
    expect(screen.getByText('未覆盖的呼救（3）')).toBeInTheDocument()
    expect(screen.getByTestId('coverage-map')).toHaveTextContent('31 2026-11-25 21:04:10 杭州市上城区解放路')
  })

  it('says how many of the uncovered calls the map holds when they are more than it shows', async () => {
    api({ ...figures, totals: { ...figures.totals, uncovered: 2500 } })
    renderWithProviders(<CoveragePage />)
    expect(await screen.findByText('显示最近2起，共2500起')).toBeInTheDocument()
  })

  it('reads the region and a custom period from the address, and exports them', async () => {
    const fetchMock = api()
    renderWithProviders(<CoveragePage />, '/?address_code=330100&period=2026.01.01&period=2026.03.31')
    await screen.findByTestId('coverage-covered')
    expect(queries(fetchMock)[0].toString()).toBe(
      'start_date=2026-01-01&end_date=2026-03-31&address_code=330100',
    )
    await userEvent.setup().click(screen.getByTestId('coverage-export'))
    await waitFor(() => expect(download).toHaveBeenCalledWith('/files/coverage.xlsx?download=x.xlsx'))
    const exported = queries(fetchMock).find((q) => q.get('export_xls') === 'true')!
    expect(exported.toString()).toBe(
      'start_date=2026-01-01&end_date=2026-03-31&address_code=330100&export_xls=true',
    )
    expect(await screen.findByText('导出成功，共10条')).toBeInTheDocument()
  })

  it('shows an empty period as dashes and says there were no calls', async () => {
    api({
      ...figures,
      totals: { calls: 0, covered: 0, uncovered: 0, unknown: 0, with_accept: 0, with_arrival: 0 },
      shares: { covered: null, with_accept: null, with_arrival: null },
      median_seconds: { first_accept: null, first_arrival: null },
      districts: [],
      points: [],
    })
    renderWithProviders(<CoveragePage />)
    expect(await screen.findByTestId('coverage-covered')).toHaveTextContent('–')
    expect(screen.getByTestId('coverage-median-accept')).toHaveTextContent('–')
    expect(screen.getByText('该时间段内没有呼救')).toBeInTheDocument()
  })
})
