import { BellOutlined } from '@ant-design/icons'
import { Badge, Button, Popover } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useUnconfirmedAmount } from '../../features/message/api/useUnconfirmedAmount'
import { MessageCentre } from '../../features/message/components/MessageCentre'
import { useMessageLiveSync } from '../../features/message/hooks/useMessageLiveSync'
import { useLiveStatus } from '../../lib/live/useLiveStatus'

/** The spec's badge cap: '99+' above it. */
export const BELL_OVERFLOW = 99

/** The bell with the unconfirmed count (pushed, or polled while the socket is down) and the message centre. */
export function MessageBell({ className }: { className?: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const live = useLiveStatus() === 'live'
  const amount = useUnconfirmedAmount(live).data ?? 0
  useMessageLiveSync()
  return (
    <Popover
      content={<MessageCentre open={open} amount={amount} onDetails={() => setOpen(false)} />}
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      arrow={false}
      destroyOnHidden
    >
      <Badge
        count={amount}
        overflowCount={BELL_OVERFLOW}
        size="small"
        offset={[-6, 6]}
        data-testid="message-count"
      >
        <Button
          type="text"
          className={className}
          icon={<BellOutlined />}
          aria-label={t('layout.messages')}
          data-testid="message-bell"
          data-live={live ? 1 : 0}
        />
      </Badge>
    </Popover>
  )
}
