import { maskPhone } from '@aed/contracts/mask'
import {
  DownOutlined,
  LockOutlined,
  LogoutOutlined,
  SafetyOutlined,
  SettingOutlined,
  UserOutlined,
  WechatOutlined,
} from '@ant-design/icons'
import { Avatar, Button, Divider, Popover } from 'antd'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDict } from '../../lib/useDict'
import { useSession } from '../../lib/useSession'

export type UserAction = 'changePassword' | 'security' | 'wechat' | 'settings' | 'logout'

/** The user entry of the header: who is signed in, and the account actions. */
export function UserPopover({
  onAction,
  className,
}: {
  onAction: (action: UserAction) => void
  className?: string
}) {
  const { t } = useTranslation()
  const { userInfo } = useSession()
  const { label } = useDict()
  const [open, setOpen] = useState(false)
  const act = (action: UserAction) => {
    setOpen(false)
    onAction(action)
  }
  const actions: { action: UserAction; icon: ReactNode; label: string; testId: string }[] = [
    {
      action: 'changePassword',
      icon: <LockOutlined />,
      label: t('layout.changePassword'),
      testId: 'user-change-password',
    },
    { action: 'security', icon: <SafetyOutlined />, label: t('security.title'), testId: 'user-security' },
    {
      action: 'wechat',
      icon: <WechatOutlined />,
      label: userInfo?.bind_wx ? t('layout.unbindWechat') : t('layout.bindWechat'),
      testId: 'user-wechat',
    },
    { action: 'settings', icon: <SettingOutlined />, label: t('layout.settings'), testId: 'user-settings' },
    { action: 'logout', icon: <LogoutOutlined />, label: t('layout.logout'), testId: 'logout' },
  ]
  const rows = [
    [t('layout.phone'), maskPhone(userInfo?.phone) ?? ''],
    [t('layout.organisation'), userInfo?.agency_name],
    [t('layout.role'), userInfo ? label('role_type', userInfo.role_type) : ''],
  ]

  const content = (
    <div className="user-card" data-testid="user-card">
      <div className="user-card-head">
        <Avatar size={44} src={userInfo?.avatar ?? undefined} icon={<UserOutlined />} />
        <strong>{userInfo?.user_name}</strong>
      </div>
      <dl className="user-card-rows">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Divider className="user-card-divider" />
      <div className="user-card-actions">
        {actions.map(({ action, icon, label, testId }) => (
          <Button
            key={action}
            type="text"
            block
            danger={action === 'logout'}
            icon={icon}
            onClick={() => act(action)}
            data-testid={testId}
          >
            {label}
          </Button>
        ))}
      </div>
    </div>
  )

  return (
    <Popover
      content={content}
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      arrow={false}
    >
      <button
        type="button"
        className={`user-trigger ${className ?? ''}`}
        aria-label={t('layout.userMenu')}
        data-testid="user-menu"
      >
        <Avatar size="small" src={userInfo?.avatar ?? undefined} icon={<UserOutlined />} />
        <span className="user-trigger-name">{userInfo?.user_name}</span>
        <DownOutlined className="user-trigger-caret" />
      </button>
    </Popover>
  )
}
