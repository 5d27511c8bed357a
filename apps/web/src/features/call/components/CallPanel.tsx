import type { CallDetail } from '@aed/contracts/call'
import { CloseOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Divider, Spin } from 'antd'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/errors'
import type { useCallDetail } from '../api/useCallDetail'
import { CallDispatch } from './CallDispatch'
import { CallFacts } from './CallFacts'
import { CallNearby } from './CallNearby'
import { CallTimeline } from './CallTimeline'

type Props = {
  detail: ReturnType<typeof useCallDetail>
  onClose: () => void
  onDevice: (device: CallDetail['devices'][number]) => void
  onRescue: (deviceSn: string) => void
}

/** The selected call's details beside the map: the call, its dispatch, its linked rescue and timeline, what is around it. */
export function CallPanel({ detail, onClose, onDevice, onRescue }: Props) {
  const { t } = useTranslation()
  const call = detail.data
  const failed =
    detail.error instanceof ApiError && detail.error.msg ? detail.error.msg : t('call.loadFailed')
  return (
    <Card
      size="small"
      className="call-panel"
      title={call ? `${t('call.detail')} #${call.id}` : t('call.detail')}
      extra={
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('common.close')}
          onClick={onClose}
          data-testid="call-panel-close"
        />
      }
      data-testid="call-panel"
    >
      {call ? (
        <>
          <CallFacts call={call} />
          <Divider className="call-panel-divider" />
          <CallDispatch dispatch={call.dispatch} />
          <Divider className="call-panel-divider" />
          <CallTimeline call={call} onRescue={onRescue} />
          <Divider className="call-panel-divider" />
          <CallNearby call={call} onDevice={onDevice} />
        </>
      ) : detail.isError ? (
        <Alert type="error" title={failed} />
      ) : (
        <Spin className="modal-spin" />
      )}
    </Card>
  )
}
