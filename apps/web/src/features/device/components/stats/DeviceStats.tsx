import type { MainStateDistribution } from '@aed/contracts/device-stats'
import { Card, Col, Row, Segmented, Skeleton } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { Filters } from '../../../../components/DataTable/listParams'
import { axisMax, EChart } from '../../../../components/EChart/EChart'
import { STATUS_HEX, STATUS_PAGES, statusCounts } from '../../../../lib/deviceStatus'
import { routeFor } from '../../../../lib/guard'
import { useDict } from '../../../../lib/useDict'
import { useDeviceStats } from '../../api/useDeviceStats'

const HEIGHT = 220
type Band = keyof MainStateDistribution
const BANDS: { key: Band; filter: string }[] = [
  { key: 'battery', filter: 'battery_state' },
  { key: 'electrode_sheet_expire', filter: 'electrode_sheet_expire_state' },
  { key: 'battery_expire', filter: 'battery_expire_state' },
  { key: 'host_expire', filter: 'host_expire_state' },
]
const BAND_COLORS = ['#f5222d', '#fa8c16', '#fadb14', '#52c41a']

type Props = { addressCode: string | undefined; onFilter: (filters: Filters) => void }

/**
 * The statistics above the device list: status and band pies, the key-maintenance bar and the
 * monthly maintenance line. A status slice opens its event page (or filters the list while that
 * page does not exist); a band or a bar filters the list.
 */
export function DeviceStats({ addressCode, onFilter }: Props) {
  const { t } = useTranslation()
  const { label } = useDict()
  const navigate = useNavigate()
  const stats = useDeviceStats(addressCode)
  const [band, setBand] = useState<Band>('battery')
  const pie = {
    type: 'pie',
    radius: ['45%', '70%'],
    center: ['50%', '55%'],
    label: { formatter: '{b}\n{c}' },
  }

  const state = stats.state.data
  const statusOption = state && {
    tooltip: { trigger: 'item' },
    color: statusCounts(state).map(([s]) => STATUS_HEX[s]),
    series: [
      {
        ...pie,
        data: statusCounts(state).map(([s, value]) => ({
          name: label('device_status', s),
          value,
          status: s,
        })),
      },
    ],
  }
  const bands = stats.bands.data?.[band] ?? []
  const bandOption = {
    tooltip: { trigger: 'item' },
    color: BAND_COLORS.slice(4 - bands.length),
    series: [{ ...pie, data: bands.map((b) => ({ name: b.label, value: b.count, band: b.value })) }],
  }
  const keys = stats.keyMaintenance.data?.items ?? []
  const barOption = {
    tooltip: { trigger: 'axis' },
    grid: { left: 96, right: 16, top: 8, bottom: 24 },
    xAxis: {
      type: 'value',
      max: axisMax(keys.map((k) => k.count)),
      interval: axisMax(keys.map((k) => k.count)) / 4,
    },
    yAxis: { type: 'category', inverse: true, data: keys.map((k) => k.label), axisLabel: { fontSize: 11 } },
    series: [
      { type: 'bar', data: keys.map((k) => k.count), itemStyle: { color: '#1677ff' }, barMaxWidth: 12 },
    ],
  }
  const months = stats.monthly.data?.items ?? []
  const lines = ['register_count', 'inspect_count', 'change_count', 'replace_count'] as const
  const lineMax = axisMax(months.flatMap((m) => lines.map((k) => m[k])))
  const lineOption = {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, itemWidth: 12, textStyle: { fontSize: 11 } },
    grid: { left: 36, right: 12, top: 32, bottom: 24 },
    xAxis: { type: 'category', data: months.map((m) => m.month.slice(2)) },
    yAxis: { type: 'value', max: lineMax, interval: lineMax / 4 },
    series: lines.map((k) => ({
      type: 'line',
      smooth: true,
      name: t(`device.stats.${k}`),
      data: months.map((m) => m[k]),
    })),
  }

  const openStatus = (status: number) => {
    const page = STATUS_PAGES[status]
    if (page && routeFor(page)) navigate(page)
    else onFilter({ status: String(status) })
  }

  return (
    <Row gutter={[16, 16]} className="device-stats" data-testid="device-stats">
      <Col xs={24} md={12} xl={6}>
        <Card size="small" title={t('device.stats.status', { count: state?.all_count ?? 0 })}>
          {statusOption ? (
            <EChart
              option={statusOption}
              height={HEIGHT}
              onClick={(e) => openStatus((e.data as { status: number }).status)}
              testId="stats-status"
            />
          ) : (
            <Skeleton active />
          )}
        </Card>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <Card
          size="small"
          title={t('device.stats.bands')}
          extra={
            <Segmented
              size="small"
              value={band}
              onChange={(v) => setBand(v as Band)}
              options={BANDS.map((b) => ({ value: b.key, label: t(`device.stats.band.${b.key}`) }))}
            />
          }
        >
          <EChart
            option={bandOption}
            height={HEIGHT}
            onClick={(e) => {
              const f = BANDS.find((b) => b.key === band)
              if (f) onFilter({ [f.filter]: String((e.data as { band: number }).band) })
            }}
            testId="stats-bands"
          />
        </Card>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <Card size="small" title={t('device.stats.keyMaintenance')}>
          <EChart
            option={barOption}
            height={HEIGHT}
            onClick={(e) => {
              const item = keys[e.dataIndex]
              if (item)
                onFilter(Object.fromEntries(Object.entries(item.filter).map(([k, v]) => [k, String(v)])))
            }}
            testId="stats-key"
          />
        </Card>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <Card size="small" title={t('device.stats.monthly')}>
          <EChart option={lineOption} height={HEIGHT} testId="stats-monthly" />
        </Card>
      </Col>
    </Row>
  )
}
