import { type MessageRow, MsgType } from '@aed/contracts/message'
import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { isStale } from '../messageTime'
import { MessageAction } from './MessageAction'

const TYPE_COLOURS: Record<number, string> = {
  [MsgType.CALL]: 'blue',
  [MsgType.RESCUE]: 'red',
  [MsgType.OFFSET]: 'gold',
  [MsgType.CABINET_DOOR]: 'orange',
  [MsgType.DEVICE_MESSAGE_UNAPPLIED]: 'purple',
  [MsgType.WEBHOOK_DISABLED]: 'volcano',
  [MsgType.RESPONDER_CERTIFICATE]: 'cyan',
  [MsgType.REVIEW_SUBMISSION]: 'geekblue',
  [MsgType.REVIEW_AED_SUBMISSION]: 'geekblue',
}

type Props = { row: MessageRow; now: number; pending: boolean; onHandle: (row: MessageRow) => void }

/** One message: type, title, time, place, serial, stale mark, who confirmed it, and its button. */
export function MessageItem({ row, now, pending, onHandle }: Props) {
  const { t } = useTranslation()
  const confirmed = row.is_confirm === 1
  const serial = row.device_sn
    ? `${t('message.device')} ${row.device_sn}`
    : row.cabinet_sn
      ? `${t('message.cabinet')} ${row.cabinet_sn}`
      : null
  return (
    <div
      className={`message-item ${confirmed ? 'message-item-confirmed' : ''}`}
      data-testid={`message-${row.id}`}
      data-confirmed={confirmed ? 1 : 0}
    >
      <div className="message-item-body">
        <div className="message-item-title">
          <Tag color={TYPE_COLOURS[row.msg_type]}>
            {t(`message.type.${row.msg_type}`, String(row.msg_type))}
          </Tag>
          {row.msg_title}
        </div>
        <div className="message-item-meta">
          {formatDateTime(row.msg_time)}
          {isStale(row.msg_time, now) && (
            <Tag className="message-item-stale" data-testid="message-stale" style={{ marginLeft: 8 }}>
              {t('message.stale')}
            </Tag>
          )}
        </div>
        {row.location && <div className="message-item-meta">{row.location}</div>}
        {serial && <div className="message-item-meta">{serial}</div>}
        {confirmed && row.confirmed_name && (
          <div className="message-item-meta" data-testid="message-confirmed-by">
            {t('message.confirmedBy', { name: row.confirmed_name, time: formatDateTime(row.confirm_time) })}
          </div>
        )}
      </div>
      <div className="message-item-action">
        <MessageAction
          msgType={row.msg_type}
          confirmed={confirmed}
          loading={pending}
          onClick={() => onHandle(row)}
          testId={`message-action-${row.id}`}
        />
      </div>
    </div>
  )
}
