import type { RegionalDistribution } from '@aed/contracts/device-stats'
import { Card, Empty, Skeleton } from 'antd'
import { useTranslation } from 'react-i18next'
import { EChart } from '../../../components/EChart/EChart'
import { useDashboardStats } from '../api/useDashboardStats'
import { StatsFailed } from './DashboardStatusColumnFailed'
import { DashboardStatusColumnPies } from './DashboardStatusColumnPies'
import '../dashboard.css'

/** The spec's ten-colour pie palette. */
const PIE_PALETTE = [
  '#5b8ff9',
  '#5ad8a6',
  '#5d7092',
  '#f6bd16',
  '#e8684a',
  '#6dc8ec',
  '#9270ca',
  '#ff9d4d',
  '#269a99',
  '#ff99c3',
]

type Props = { addressCode: string | undefined }

/**
 * The dashboard's right column for a region (undefined: the whole scope): total devices and
 * rescues, one pie per status (warning, fault, offset and offline open their event pages) and
 * the devices per region one level down.
 */
export function DashboardStatusColumn({ addressCode }: Props) {
  const { t } = useTranslation()
  const { state, regions } = useDashboardStats(addressCode)
  return (
    <div className="dashboard-stats" data-testid="dashboard-status-column">
      <Card size="small" title={t('dashboard.stats.status')}>
        {state.data ? (
          <DashboardStatusColumnPies state={state.data} />
        ) : state.isError ? (
          <StatsFailed retry={() => void state.refetch()} />
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )}
      </Card>
      <Card size="small" title={t('dashboard.stats.regions')}>
        {regions.data ? (
          <RegionPie regions={regions.data} />
        ) : regions.isError ? (
          <StatsFailed retry={() => void regions.refetch()} />
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )}
      </Card>
    </div>
  )
}

function RegionPie({ regions }: { regions: RegionalDistribution }) {
  const { t } = useTranslation()
  if (regions.items.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.stats.empty')} />
  const option = {
    color: PIE_PALETTE,
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { type: 'scroll', bottom: 0, itemWidth: 10, itemHeight: 10, textStyle: { fontSize: 11 } },
    series: [
      {
        type: 'pie',
        radius: ['32%', '58%'],
        center: ['50%', '44%'],
        minShowLabelAngle: 8,
        label: { formatter: '{b}\n{c}', fontSize: 11 },
        data: regions.items.map((r) => ({ name: r.name, value: r.device_count })),
      },
    ],
  }
  return <EChart option={option} height={260} testId="dashboard-region-pie" />
}
