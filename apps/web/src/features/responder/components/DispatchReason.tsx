import type { Responder } from '@aed/contracts/responder'
import { Alert } from 'antd'
import { useTranslation } from 'react-i18next'

/** Why alerts do not reach the responder now; nothing while they do. */
export function DispatchReason({ responder: r }: { responder: Responder }) {
  const { t } = useTranslation()
  if (r.dispatch_state === 'ready') return null
  const reason =
    r.dispatch_state === 'paused'
      ? r.pause_reason
        ? t('responder.pausedReason', { reason: r.pause_reason })
        : t('responder.pausedNoReason')
      : t('responder.expiredReason', { date: r.certificate_expire ?? '' })
  return (
    <Alert
      type="warning"
      showIcon
      title={t('responder.notDispatchable')}
      description={reason}
      data-testid="responder-reason"
    />
  )
}
