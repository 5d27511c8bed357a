import { WEBHOOK_EVENTS } from '@aed/contracts/open-api'
import type { ServiceConfig, WebhookDelivery } from '@aed/contracts/service-config'
import { ReloadOutlined, SendOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Button, Descriptions, Drawer, Select, Space, Table, Tooltip, Typography } from 'antd'
import { type HTMLAttributes, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { useSubmit } from '../../../lib/useSubmit'
import { serviceConfigKeys } from '../api/keys'
import { useResendDelivery } from '../api/useResendDelivery'
import { useSendTestEvent } from '../api/useSendTestEvent'
import { type DeliveryQuery, useWebhookDeliveries } from '../api/useWebhookDeliveries'
import { PushDisabledAlert } from './PushDisabled'
import { useDeliveryColumns } from './useDeliveryColumns'
import { usePushActions } from './usePushActions'

const STATES: WebhookDelivery['state'][] = ['pending', 'delivered', 'failed', 'cancelled']
const PAGE_SIZE = 10

type Props = {
  /** The configuration whose log is open, or null when closed. */
  config: ServiceConfig | null
  /** The list's `can.update`: resend, send a test event, enable push. */
  canUpdate: boolean
  onClose: () => void
}

/** 推送记录: a configuration's webhook deliveries, newest first, with resend and a test event. */
export function DeliveryLogDrawer({ config, canUpdate, onClose }: Props) {
  const { t } = useTranslation()
  return (
    <Drawer
      open={config !== null}
      onClose={onClose}
      size={1100}
      destroyOnHidden
      title={t('serviceConfig.deliveries.title', { agency: config?.agency_name ?? '' })}
      data-testid="delivery-drawer"
    >
      {config && <DeliveryLog config={config} canUpdate={canUpdate} />}
    </Drawer>
  )
}

/** The drawer's body: mounted each time it opens, so filters and page start afresh. */
function DeliveryLog({ config, canUpdate }: { config: ServiceConfig; canUpdate: boolean }) {
  const { t } = useTranslation()
  const [query, setQuery] = useState<DeliveryQuery>({ page: 1, page_size: PAGE_SIZE })
  const rows = useWebhookDeliveries(config.id, query, !config.push_disabled)
  const client = useQueryClient()
  // 刷新 reads the log and the list's row (whose push may have been disabled meanwhile).
  const refresh = () => {
    rows.refetch()
    client.invalidateQueries({ queryKey: serviceConfigKeys.lists() })
  }
  const resend = useResendDelivery(config.id)
  const test = useSendTestEvent(config.id)
  const sendResend = useSubmit(resend)
  const sendTest = useSubmit(test)
  const push = usePushActions(config, () => undefined)
  const columns = useDeliveryColumns({
    onResend: (d) => sendResend(d.id),
    resending: resend.isPending ? resend.variables : undefined,
    canResend: canUpdate,
    pushDisabled: Boolean(config.push_disabled),
  })
  const filter = (next: Partial<DeliveryQuery>) => setQuery((q) => ({ ...q, ...next, page: 1 }))
  // What the server needs to queue a test event: a push URL, not disabled, the configuration enabled.
  const untestable = !config.push_url
    ? t('serviceConfig.deliveries.noUrl')
    : config.state !== 1
      ? t('serviceConfig.deliveries.configDisabled')
      : config.push_disabled
        ? t('serviceConfig.pushDisabled.tag')
        : null
  const testButton = (
    <Button
      type="primary"
      icon={<SendOutlined />}
      onClick={() => sendTest(undefined)}
      loading={test.isPending}
      disabled={untestable !== null}
      data-testid="delivery-test"
    >
      {t('serviceConfig.deliveries.test')}
    </Button>
  )
  return (
    <>
      {config.push_disabled && (
        <PushDisabledAlert
          disabled={config.push_disabled}
          onEnable={canUpdate ? push.onEnable : undefined}
          enabling={push.busy}
        />
      )}
      <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Space wrap>
          <Typography.Text type="secondary">{t('serviceConfig.deliveries.pushUrlLabel')}</Typography.Text>
          {config.push_url ? (
            <Typography.Text copyable data-testid="delivery-push-url">
              {config.push_url}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('serviceConfig.pushUrlNone')}</Typography.Text>
          )}
        </Space>
        <Space wrap>
          <Select<WebhookDelivery['state']>
            allowClear
            placeholder={t('serviceConfig.deliveries.allStates')}
            style={{ width: 150 }}
            value={query.state}
            onChange={(state) => filter({ state })}
            options={STATES.map((s) => ({
              value: s,
              label:
                s === 'pending'
                  ? t('serviceConfig.deliveries.pendingFilter')
                  : t(`serviceConfig.deliveries.states.${s}`),
            }))}
            data-testid="delivery-filter-state"
          />
          <Select<string>
            allowClear
            placeholder={t('serviceConfig.deliveries.allEvents')}
            style={{ width: 210 }}
            value={query.event}
            onChange={(event) => filter({ event })}
            options={Object.keys(WEBHOOK_EVENTS).map((e) => ({ value: e, label: e }))}
            data-testid="delivery-filter-event"
          />
          <Tooltip title={t('serviceConfig.deliveries.refresh')}>
            <Button
              icon={<ReloadOutlined />}
              onClick={refresh}
              aria-label={t('serviceConfig.deliveries.refresh')}
              data-testid="delivery-refresh"
            />
          </Tooltip>
          {canUpdate &&
            (config.push_url ? (
              testButton
            ) : (
              <Tooltip title={t('serviceConfig.deliveries.noUrl')}>{testButton}</Tooltip>
            ))}
        </Space>
      </Space>
      <Table<WebhookDelivery>
        size="small"
        columns={columns}
        rowKey={(d) => d.id}
        dataSource={rows.data?.resource ?? []}
        loading={rows.isFetching && !rows.data}
        scroll={{ x: 1000 }}
        onRow={(d) => ({ 'data-testid': `delivery-${d.id}` }) as HTMLAttributes<HTMLElement>}
        expandable={{ expandedRowRender: (d) => <DeliveryPayload delivery={d} /> }}
        pagination={{
          current: query.page,
          pageSize: query.page_size,
          total: rows.data?.count ?? 0,
          onChange: (page, pageSize) =>
            setQuery((q) => ({ ...q, page: pageSize === q.page_size ? page : 1, page_size: pageSize })),
          showSizeChanger: true,
          showTotal: (count) => t('table.total', { count }),
        }}
      />
    </>
  )
}

/** The expanded row: webhook-id, the last attempt and its error, and the payload as JSON. */
function DeliveryPayload({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation()
  const dash = t('table.empty')
  return (
    <div data-testid={`delivery-payload-${delivery.id}`}>
      <Descriptions
        size="small"
        column={3}
        items={[
          {
            key: 'id',
            label: t('serviceConfig.deliveries.messageId'),
            children: <Typography.Text copyable>{delivery.message_id}</Typography.Text>,
          },
          {
            key: 'last',
            label: t('serviceConfig.deliveries.lastAttempt'),
            children: delivery.last_attempt_time ? formatDateTime(delivery.last_attempt_time) : dash,
          },
          {
            key: 'error',
            label: t('serviceConfig.deliveries.error'),
            children: delivery.last_error ? (
              <Typography.Text type="danger">{delivery.last_error}</Typography.Text>
            ) : (
              dash
            ),
          },
        ]}
      />
      <Typography.Text type="secondary">{t('serviceConfig.deliveries.payload')}</Typography.Text>
      <Typography>
        <pre style={{ maxHeight: 320, overflow: 'auto', margin: '4px 0 0' }}>
          {JSON.stringify(delivery.payload, null, 2)}
        </pre>
      </Typography>
    </div>
  )
}
