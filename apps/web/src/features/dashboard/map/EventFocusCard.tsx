import type { EventFocus } from '@aed/contracts/dashboard'
import { CloseOutlined } from '@ant-design/icons'
import { Button, Card, Descriptions, Spin, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

type Props = {
  focus: EventFocus | undefined
  loading: boolean
  error: string | null
  onClose: () => void
}

/** The message detail of the event the dashboard arrived for, over the map's corner. */
export function EventFocusCard({ focus, loading, error, onClose }: Props) {
  const { t } = useTranslation()
  const m = focus?.message
  return (
    <Card
      size="small"
      className="dashboard-focus"
      title={focus?.title ?? t('dashboard.focus.title')}
      extra={
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('dashboard.focus.close')}
          onClick={onClose}
          data-testid="dashboard-focus-close"
        />
      }
      data-testid="dashboard-focus"
    >
      {loading && <Spin size="small" />}
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
      {focus && (
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('dashboard.focus.time')}>{focus.event_time}</Descriptions.Item>
          {focus.device_sn && (
            <Descriptions.Item label={t('dashboard.focus.device')}>{focus.device_sn}</Descriptions.Item>
          )}
          {focus.cabinet_sn && (
            <Descriptions.Item label={t('dashboard.focus.cabinet')}>{focus.cabinet_sn}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('dashboard.focus.agency')}>{focus.agency_name}</Descriptions.Item>
          <Descriptions.Item label={t('dashboard.focus.location')}>
            {focus.location ?? (focus.lon === null ? t('dashboard.focus.noPlace') : '-')}
          </Descriptions.Item>
          {m && (
            // The message's title is the card's: its label says what the row is, its tag who confirmed it.
            <Descriptions.Item label={t('dashboard.focus.message')}>
              {m.is_confirm === 1 ? (
                <Tag color="green">
                  {m.confirmed_name
                    ? t('dashboard.focus.confirmedBy', { name: m.confirmed_name, time: m.confirm_time })
                    : t('dashboard.focus.confirmed')}
                </Tag>
              ) : (
                <Tag color="orange">{t('dashboard.focus.unconfirmed')}</Tag>
              )}
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
    </Card>
  )
}
