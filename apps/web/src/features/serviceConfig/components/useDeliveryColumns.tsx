import type { WebhookDelivery } from '@aed/contracts/service-config'
import { Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn, withoutActions } from '../../../components/TableColumns/actionsColumn'
import { formatDateTime } from '../../../lib/datetime'

const STATE_COLORS: Record<WebhookDelivery['state'], string> = {
  pending: 'processing',
  delivered: 'success',
  failed: 'error',
  cancelled: 'default',
}

/** A delivery's state as a coloured tag; a pending one already tried is 重试中 (unless push is disabled: it waits). */
export function DeliveryState({ delivery, waiting }: { delivery: WebhookDelivery; waiting: boolean }) {
  const { t } = useTranslation()
  const retrying = delivery.state === 'pending' && delivery.attempts > 0 && !waiting
  const { state } = delivery
  return (
    <Tag color={retrying ? 'warning' : STATE_COLORS[state]}>
      {retrying ? t('serviceConfig.deliveries.retrying') : t(`serviceConfig.deliveries.states.${state}`)}
    </Tag>
  )
}

type Actions = {
  onResend: (d: WebhookDelivery) => void
  /** The delivery being sent again, if any. */
  resending?: number
  canResend: boolean
  /** The endpoint is disabled: pending deliveries wait for 恢复推送, not for their next try. */
  pushDisabled: boolean
}

/** Columns of the delivery log: when, what, how it went, and 重新发送 for those who may modify. */
export function useDeliveryColumns({
  onResend,
  resending,
  canResend,
  pushDisabled,
}: Actions): ColumnsType<WebhookDelivery> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const columns: ColumnsType<WebhookDelivery> = [
    {
      title: t('serviceConfig.deliveries.eventTime'),
      dataIndex: 'event_time',
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('serviceConfig.deliveries.event'),
      dataIndex: 'event',
      width: 190,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('serviceConfig.deliveries.attempts'), dataIndex: 'attempts', width: 90, align: 'right' },
    {
      title: t('serviceConfig.deliveries.status'),
      dataIndex: 'last_status',
      width: 110,
      align: 'right',
      render: (v: number | null) =>
        v === null ? dash : <Typography.Text type={v >= 300 ? 'danger' : undefined}>{v}</Typography.Text>,
    },
    {
      title: t('serviceConfig.deliveries.duration'),
      dataIndex: 'last_duration_ms',
      width: 100,
      align: 'right',
      render: (v: number | null) => (v === null ? dash : v),
    },
    {
      title: t('serviceConfig.deliveries.next'),
      dataIndex: 'next_attempt_time',
      width: 170,
      render: (v: string | null, d) =>
        pushDisabled && d.state === 'pending'
          ? t('serviceConfig.deliveries.afterEnable')
          : v
            ? formatDateTime(v)
            : dash,
    },
    {
      title: t('serviceConfig.deliveries.state'),
      dataIndex: 'state',
      width: 100,
      render: (_: WebhookDelivery['state'], d) => <DeliveryState delivery={d} waiting={pushDisabled} />,
    },
    actionsColumn<WebhookDelivery>(t('table.actions'), 100, (d) => [
      {
        label:
          resending === d.id
            ? `${t('serviceConfig.deliveries.resend')}…`
            : t('serviceConfig.deliveries.resend'),
        onClick: () => resending === undefined && onResend(d),
        testId: `delivery-resend-${d.id}`,
      },
    ]),
  ]
  return canResend ? columns : withoutActions(columns)
}
