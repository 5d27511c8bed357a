import type { ServiceConfig } from '@aed/contracts/service-config'
import { Alert, Button, Tag, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'

type Disabled = NonNullable<ServiceConfig['push_disabled']>

/** The list's red 已停用推送 tag with its reason; the time in its tooltip. */
export function PushDisabledTag({ disabled, id }: { disabled: Disabled; id: number }) {
  const { t } = useTranslation()
  return (
    <Tooltip title={t('serviceConfig.pushDisabled.since', { time: formatDateTime(disabled.time) })}>
      <Tag color="red" data-testid={`push-disabled-${id}`}>
        {t('serviceConfig.pushDisabled.tagWithReason', {
          reason: t(`serviceConfig.pushDisabled.reasons.${disabled.reason}`),
        })}
      </Tag>
    </Tooltip>
  )
}

/** Why and since when the push URL is disabled, with 恢复推送 for those who may modify. */
export function PushDisabledAlert({
  disabled,
  onEnable,
  enabling,
}: {
  disabled: Disabled
  /** Left out when the member may not modify the configuration. */
  onEnable?: () => void
  enabling?: boolean
}) {
  const { t } = useTranslation()
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('serviceConfig.pushDisabled.alert', {
        reason: t(`serviceConfig.pushDisabled.reasons.${disabled.reason}`),
        time: formatDateTime(disabled.time),
      })}
      description={t('serviceConfig.pushDisabled.hint')}
      action={
        onEnable && (
          <Button size="small" type="primary" onClick={onEnable} loading={enabling} data-testid="push-enable">
            {t('serviceConfig.pushDisabled.enable')}
          </Button>
        )
      }
      data-testid="push-disabled-alert"
    />
  )
}
