import { AlertOutlined, CloseOutlined } from '@ant-design/icons'
import { Button, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import type { Alarm } from '../hooks/useAlarms'
import { MessageAction } from './MessageAction'

type Props = { alarm: Alarm; pending: boolean; onHandle: () => void; onClose: () => void }

/** One live alarm: red for first aid, orange for a cabinet door, with its button and its own close. */
export function AlarmCard({ alarm, pending, onHandle, onClose }: Props) {
  const { t } = useTranslation()
  const rows: [string, string | null][] = [
    [t('message.alarm.time'), formatDateTime(alarm.data_time)],
    [t('message.alarm.location'), alarm.location],
    [t('message.device'), alarm.device_sn],
    [t('message.cabinet'), alarm.cabinet_sn],
    [t('message.alarm.agency'), alarm.agency_name],
  ]
  return (
    <div
      className={`alarm-card alarm-card-${alarm.type}`}
      data-testid={`alarm-${alarm.key}`}
      data-type={alarm.type}
    >
      <div className="alarm-card-head">
        <AlertOutlined />
        {alarm.type === 2 ? t('message.alarm.aid') : t('message.alarm.door')}
        {alarm.escalation_level > 0 && (
          <Tag color={alarm.type === 2 ? 'red' : 'orange'} data-testid="alarm-escalated">
            {t('message.alarm.escalated', { level: alarm.escalation_level })}
          </Tag>
        )}
        <Button
          type="text"
          size="small"
          className="alarm-card-close"
          icon={<CloseOutlined />}
          aria-label={t('message.alarm.close')}
          onClick={onClose}
          data-testid={`alarm-close-${alarm.key}`}
        />
      </div>
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label} className="message-item-meta">
            {label}：{value}
          </div>
        ))}
      {alarm.msg_id !== null && (
        <div className="alarm-card-actions">
          <MessageAction
            msgType={alarm.type}
            confirmed={alarm.confirmed}
            loading={pending}
            onClick={onHandle}
            testId={`alarm-action-${alarm.key}`}
          />
        </div>
      )}
    </div>
  )
}
