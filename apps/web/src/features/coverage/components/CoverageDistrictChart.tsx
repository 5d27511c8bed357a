import type { CoverageDistrict } from '@aed/contracts/coverage'
import { Empty } from 'antd'
import { useTranslation } from 'react-i18next'
import { EChart } from '../../../components/EChart/EChart'
import { percent } from '../format'

/** Districts the chart shows, most calls first (the rest are in the export). */
export const CHART_DISTRICTS = 20
const ROW_PX = 28

const GREEN = '#52c41a'
const ORANGE = '#fa8c16'
const RED = '#f5222d'
const GREY = '#bfbfbf'

/** A district's bar colour: green from 80 %, orange from 50 %, red below; grey with no known call. */
export function shareColor(share: number | null): string {
  if (share === null) return GREY
  if (share >= 0.8) return GREEN
  return share >= 0.5 ? ORANGE : RED
}

/** The covered share of each district (most calls first, top down) as horizontal bars. */
export function CoverageDistrictChart({ districts }: { districts: CoverageDistrict[] }) {
  const { t } = useTranslation()
  if (districts.length === 0) return <Empty description={t('coverage.noCalls')} />
  const shown = districts.slice(0, CHART_DISTRICTS).reverse()
  const names = shown.map((d) => d.name ?? t('coverage.unknownDistrict'))
  const option = {
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (items: { dataIndex: number }[]) => {
        const d = shown[items[0]?.dataIndex ?? 0]
        return `${names[items[0]?.dataIndex ?? 0]}<br/>${percent(d.covered_share)} · ${t('coverage.districtCalls', { count: d.calls })}`
      },
    },
    grid: { left: 8, right: 48, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value}%', fontSize: 10 } },
    yAxis: {
      type: 'category',
      data: names,
      axisTick: { show: false },
      axisLabel: { fontSize: 11, width: 140, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: 16,
        label: {
          show: true,
          position: 'right',
          fontSize: 10,
          formatter: (p: { dataIndex: number }) => percent(shown[p.dataIndex].covered_share),
        },
        data: shown.map((d) => ({
          value: d.covered_share === null ? 0 : Math.round(d.covered_share * 1000) / 10,
          itemStyle: { color: shareColor(d.covered_share) },
        })),
      },
    ],
  }
  return (
    <EChart
      option={option}
      height={Math.max(160, shown.length * ROW_PX + 24)}
      testId="coverage-district-chart"
    />
  )
}
