import type { DevicePopup } from '@aed/contracts/dashboard'
import { LiveType } from '@aed/contracts/live'
import { Button, Descriptions, Spin, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { DeviceStatusTag } from '../../../components/DeviceStatusTag/DeviceStatusTag'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useThrottledRefetch } from '../../../lib/live/useThrottledRefetch'
import { dashboardKeys } from '../api/keys'
import { useDevicePopup } from '../api/useMapData'
import type { MarkerPoint } from './mapLayers'

/** At most one refetch of an open popup per this long. */
export const POPUP_REFRESH_MS = 2000

const READINESS_COLORS: Record<string, string> = { ready: 'green', not_ready: 'red', unknown: 'default' }

/**
 * A device's popup on the map: serial, status, readiness with its reasons, address, and its
 * detail. A pushed change of this device's status or events asks for the popup again (at most
 * once per 2 s), so an open popup follows its point's colour.
 */
export function DevicePopupCard({ id, onDetail }: { id: number; onDetail: (d: DevicePopup) => void }) {
  const { t } = useTranslation()
  const popup = useDevicePopup(id)
  const refresh = useThrottledRefetch(dashboardKeys.popup(id), POPUP_REFRESH_MS)
  useLiveFrames(LiveType.DEVICE_STATUS, ({ data }) => data.device_id === id && refresh())
  useLiveFrames(LiveType.DEVICE_EVENT, ({ data }) => data.device_id === id && refresh())
  if (popup.isPending) return <Spin size="small" />
  if (popup.isError) return <Typography.Text type="danger">{t('dashboard.popup.loadFailed')}</Typography.Text>
  const d = popup.data
  return (
    <div className="dashboard-popup" data-testid="dashboard-device-popup">
      <Typography.Text strong className="dashboard-popup-title">
        {d.device_sn} <DeviceStatusTag status={d.status} text={d.status_text} />
      </Typography.Text>
      <Descriptions size="small" column={1} colon>
        <Descriptions.Item label={t('dashboard.popup.readiness')}>
          <Tag color={READINESS_COLORS[d.readiness]}>{d.readiness_text}</Tag>
          {d.reasons.join('、')}
        </Descriptions.Item>
        {d.device_model && (
          <Descriptions.Item label={t('dashboard.popup.model')}>{d.device_model}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('dashboard.popup.agency')}>{d.agency_name}</Descriptions.Item>
        <Descriptions.Item label={t('dashboard.popup.address')}>{d.location ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('dashboard.popup.lastReport')}>
          {d.last_report_time ?? '-'}
        </Descriptions.Item>
      </Descriptions>
      <Button type="link" size="small" onClick={() => onDetail(d)} data-testid="dashboard-popup-detail">
        {t('dashboard.popup.detail')}
      </Button>
    </div>
  )
}

/** A marker's popup (a rescue): its title and lines. */
export function MarkerPopupCard({ point, layerLabel }: { point: MarkerPoint; layerLabel: string }) {
  const { t } = useTranslation()
  return (
    <div className="dashboard-popup" data-testid="dashboard-marker-popup">
      <Typography.Text strong className="dashboard-popup-title">
        {layerLabel} {point.title}{' '}
        {point.tag ? (
          <Tag color={point.tag.color}>{point.tag.text}</Tag>
        ) : (
          <Tag color={point.active ? 'red' : 'default'}>
            {point.active ? t('dashboard.popup.inProgress') : t('dashboard.popup.ended')}
          </Tag>
        )}
      </Typography.Text>
      {point.lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  )
}
