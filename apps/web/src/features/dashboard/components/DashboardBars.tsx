import { routeAllowed } from '@aed/contracts'
import type { BandCount, MainStateDistribution } from '@aed/contracts/device-stats'
import { Card, Skeleton } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { axisMax, EChart } from '../../../components/EChart/EChart'
import { routeFor } from '../../../lib/guard'
import { useSession } from '../../../lib/useSession'
import { useDashboardStats } from '../api/useDashboardStats'
import { StatsFailed } from './DashboardStatusColumnFailed'
import '../dashboard.css'

/** The device list, which reads its filters from the query string. */
export const DEVICE_LIST_PATH = '/deviceManagement/device'

const RED = '#f5222d'
const ORANGE = '#fa8c16'
const YELLOW = '#fadb14'
const GREEN = '#52c41a'
const FOUR = [RED, ORANGE, YELLOW, GREEN]

// Colours by band value, worst (0) first: the battery has three bands, the expiries four.
const STATS: { key: keyof MainStateDistribution; filter: string; colors: string[] }[] = [
  { key: 'battery', filter: 'battery_state', colors: [RED, ORANGE, GREEN] },
  { key: 'electrode_sheet_expire', filter: 'electrode_sheet_expire_state', colors: FOUR },
  { key: 'battery_expire', filter: 'battery_expire_state', colors: FOUR },
  { key: 'host_expire', filter: 'host_expire_state', colors: FOUR },
]

/** The device list's address for one band of a statistic, in the region (none: the whole scope). */
export function bandListUrl(filter: string, band: number, addressCode: string | undefined): string {
  const query = new URLSearchParams(addressCode ? { address_code: addressCode } : {})
  query.set(filter, String(band))
  return `${DEVICE_LIST_PATH}?${query}`
}

function barOption(bands: BandCount[], colors: string[], clickable: boolean) {
  const max = axisMax(bands.map((b) => b.count))
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 4, right: 4, top: 18, bottom: 4 },
    xAxis: {
      type: 'category',
      data: bands.map((b) => b.label),
      axisTick: { show: false },
      axisLabel: { interval: 0, fontSize: 10, width: 60, overflow: 'break' },
    },
    yAxis: { type: 'value', max, interval: max / 4, axisLabel: { fontSize: 10 } },
    series: [
      {
        type: 'bar',
        barMaxWidth: 22,
        cursor: clickable ? 'pointer' : 'default',
        label: { show: true, position: 'top', fontSize: 10 },
        data: bands.map((b) => ({ value: b.count, band: b.value, itemStyle: { color: colors[b.value] } })),
      },
    ],
  }
}

type Props = { addressCode: string | undefined }

/**
 * The dashboard's state statistics for a region (undefined: the whole scope): devices per band
 * of battery level, pad, battery and host expiry; a bar opens the device list of its band.
 */
export function DashboardBars({ addressCode }: Props) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { permissions } = useSession()
  const { bands } = useDashboardStats(addressCode)
  const route = routeFor(DEVICE_LIST_PATH)
  const clickable = !!route && routeAllowed(route.permissions, permissions)
  return (
    <Card size="small" title={t('dashboard.stats.bands')} data-testid="dashboard-bars">
      {bands.data ? (
        <div className="dashboard-bars">
          {STATS.map((s) => (
            <div key={s.key} className="dashboard-bar">
              <div className="dashboard-bar-title">{t(`dashboard.stats.${s.key}`)}</div>
              <EChart
                option={barOption(bands.data[s.key], s.colors, clickable)}
                height={150}
                testId={`dashboard-bars-${s.key}`}
                onClick={(e) => {
                  const band = (e.data as { band?: number } | undefined)?.band
                  if (clickable && band !== undefined) navigate(bandListUrl(s.filter, band, addressCode))
                }}
              />
            </div>
          ))}
        </div>
      ) : bands.isError ? (
        <StatsFailed retry={() => void bands.refetch()} />
      ) : (
        <Skeleton active paragraph={{ rows: 3 }} />
      )}
    </Card>
  )
}
