import { SettingOutlined } from '@ant-design/icons'
import { Button, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { LanguageSwitch } from '../../components/LanguageSwitch'
import { OrgSwitcher } from '../../features/auth/components/OrgSwitcher'
import { Clock } from './Clock'
import { MessageBell } from './MessageBell'
import { type UserAction, UserPopover } from './UserPopover'

/** The right side of the header: clock, organisation, messages, language, settings, user. */
export function HeaderActions({ onAction }: { onAction: (action: UserAction) => void }) {
  const { t } = useTranslation()
  return (
    <div className="header-actions">
      <Clock />
      <OrgSwitcher />
      <MessageBell className="header-button" />
      <LanguageSwitch className="header-button" />
      <Tooltip title={t('layout.settings')}>
        <Button
          type="text"
          className="header-button"
          icon={<SettingOutlined />}
          aria-label={t('layout.settings')}
          onClick={() => onAction('settings')}
          data-testid="open-settings"
        />
      </Tooltip>
      <UserPopover className="header-button" onAction={onAction} />
    </div>
  )
}
