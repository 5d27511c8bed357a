import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons'
import { theme as antTheme, Button, Layout } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Outlet, useLocation } from 'react-router'
import { Logo } from '../../components/Logo'
import { ChangePasswordModal } from '../../features/auth/components/ChangePasswordModal'
import { PasswordExpiryPrompt } from '../../features/auth/components/PasswordExpiryPrompt'
import { SecurityModal } from '../../features/auth/components/SecurityModal'
import { WechatBindModal } from '../../features/auth/components/WechatBindModal'
import { useConfirmUnbind } from '../../features/auth/hooks/useConfirmUnbind'
import { useWechatBindReturn } from '../../features/auth/hooks/useWechatBindReturn'
import { AlarmPopup } from '../../features/message/components/AlarmPopup'
import '../../lib/dayjsLocale'
import { routeFor } from '../../lib/guard'
import { Paths } from '../../lib/paths'
import { useSession } from '../../lib/useSession'
import { LiveProvider } from '../live/LiveProvider'
import { useLayoutSettings } from '../settings/LayoutSettingsContext'
import { SettingsDrawer } from '../settings/SettingsDrawer'
import { AppFooter } from './AppFooter'
import { HeaderActions } from './HeaderActions'
import { NavMenu } from './NavMenu'
import type { UserAction } from './UserPopover'
import { useAutoHideHeader } from './useAutoHideHeader'
import { useDeviceSync } from './useDeviceSync'
import { useLogout } from './useLogout'

const SIDER_WIDTH = 208
/** antd's dark menu background, so the top-menu header and its menu match. */
const DARK_NAV_BG = '#001529'

/** The signed-in console: its frame inside the one live connection, and the alarm popup. */
export function AppLayout() {
  return (
    <LiveProvider>
      <AppFrame />
      <AlarmPopup />
    </LiveProvider>
  )
}

/** The console frame: menu in the header (top menu) or the sider (side menu), header, content, footer. */
function AppFrame() {
  const { t } = useTranslation()
  const { token: tokens } = antTheme.useToken()
  const { settings: s, dispatch } = useLayoutSettings()
  const { userInfo } = useSession()
  const [dialog, setDialog] = useState<'password' | 'security' | 'wechat' | null>(null)
  const logout = useLogout()
  const confirmUnbind = useConfirmUnbind()
  const headerHidden = useAutoHideHeader(s.fixedHeader && s.autoHideHeader)
  useDeviceSync()
  useWechatBindReturn()
  // The single-menu flag (spec 2), set after each navigation: its page shows no navigation menu.
  const single = routeFor(useLocation().pathname)?.singleMenu === true

  const side = s.layout === 'sidemenu' && !single
  const navTheme = s.theme
  const onAction = (action: UserAction) => {
    if (action === 'logout') logout()
    else if (action === 'settings') dispatch({ type: 'setDrawerOpen', value: true })
    else if (action === 'changePassword') setDialog('password')
    else if (action === 'security') setDialog('security')
    else if (userInfo?.bind_wx) confirmUnbind()
    else setDialog('wechat')
  }

  const brand = (collapsed: boolean, short: boolean) => (
    <Link to={Paths.home} className="layout-logo" data-testid="layout-logo">
      <Logo size={32} />
      {!collapsed && (
        <span className="layout-logo-title">{short ? t('app.shortTitle') : t('app.siteTitle')}</span>
      )}
    </Link>
  )
  const headerClass = [
    'app-header',
    `app-header-${!side && navTheme === 'dark' ? 'dark' : 'light'}`,
    s.fixedHeader ? 'app-header-fixed' : '',
    headerHidden ? 'app-header-hidden' : '',
  ].join(' ')

  return (
    <Layout
      className={`app-layout app-layout-${side ? 'sidemenu' : 'topmenu'}`}
      data-testid="app-layout"
      data-single-menu={single || undefined}
    >
      {side && (
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsible
          collapsed={s.collapsed}
          collapsedWidth={s.device === 'mobile' ? 0 : 80}
          trigger={null}
          theme={navTheme}
          className={`app-sider ${s.fixedSidebar ? 'app-sider-fixed' : ''}`}
        >
          {brand(s.collapsed, true)}
          <NavMenu mode="inline" theme={navTheme} collapsed={s.collapsed} />
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header
          className={headerClass}
          style={{ background: !side && navTheme === 'dark' ? DARK_NAV_BG : tokens.colorBgContainer }}
        >
          {side ? (
            <Button
              type="text"
              className="header-button"
              icon={s.collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              aria-label={s.collapsed ? t('layout.expand') : t('layout.collapse')}
              onClick={() => dispatch({ type: 'toggleCollapsed' })}
              data-testid="toggle-sider"
            />
          ) : (
            <>
              {brand(s.device === 'mobile', s.device !== 'desktop')}
              <div className="header-menu">{!single && <NavMenu mode="horizontal" theme={navTheme} />}</div>
            </>
          )}
          <div className="header-spacer" />
          <HeaderActions onAction={onAction} />
        </Layout.Header>
        <Layout.Content className="app-content">
          <div className={!side && s.contentWidth === 'Fixed' ? 'content-fixed' : 'content-fluid'}>
            <Outlet />
          </div>
        </Layout.Content>
        <AppFooter />
      </Layout>
      <SettingsDrawer />
      <PasswordExpiryPrompt onModify={() => setDialog('password')} />
      <ChangePasswordModal open={dialog === 'password'} onClose={() => setDialog(null)} />
      <WechatBindModal open={dialog === 'wechat'} onClose={() => setDialog(null)} />
      <SecurityModal open={dialog === 'security'} onClose={() => setDialog(null)} />
    </Layout>
  )
}
