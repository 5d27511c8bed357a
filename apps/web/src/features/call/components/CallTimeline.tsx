import type { CallDetail } from '@aed/contracts/call'
import { Timeline, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'

type Props = {
  call: CallDetail
  /** The linked rescue is asked for (the rescue tab, for its device). */
  onRescue: (deviceSn: string) => void
}

/** 关联急救 (the linked rescue's device) and 处置过程: recorded, messages, SMS, linked rescue, closed. */
export function CallTimeline({ call, onRescue }: Props) {
  const { t } = useTranslation()
  const { rescue } = call
  return (
    <div className="call-timeline" data-testid="call-timeline">
      <Typography.Text strong>{t('call.rescue')}</Typography.Text>
      <p data-testid="call-rescue">
        {rescue ? (
          <>
            {rescue.device_sn} · {formatDateTime(rescue.event_time)}
            {rescue.distance !== null && ` · ${t('call.meters', { count: rescue.distance })}`}{' '}
            <button type="button" className="link-button" onClick={() => onRescue(rescue.device_sn)}>
              {t('call.viewRescue')}
            </button>
          </>
        ) : (
          t('call.noRescue')
        )}
      </p>
      <Typography.Text strong>{t('call.timeline')}</Typography.Text>
      <Timeline
        className="call-timeline-steps"
        items={call.timeline.map((step, i) => ({
          key: `${step.time}-${i}`,
          color: step.kind === 'closed' ? 'gray' : step.kind === 'rescue' ? 'red' : 'blue',
          content: (
            <>
              <div className="call-timeline-time">{formatDateTime(step.time)}</div>
              {step.text}
            </>
          ),
        }))}
      />
    </div>
  )
}
