import { BellOutlined } from '@ant-design/icons'
import { Badge, Button, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'

/** The message-centre entry; the message centre itself arrives with its own issue. */
export function MessageBell({ className }: { className?: string }) {
  const { t } = useTranslation()
  return (
    <Tooltip title={`${t('layout.messages')}: ${t('layout.comingSoon')}`}>
      <span>
        <Badge count={0}>
          <Button
            type="text"
            className={className}
            icon={<BellOutlined />}
            disabled
            aria-label={t('layout.messages')}
            data-testid="message-bell"
          />
        </Badge>
      </span>
    </Tooltip>
  )
}
