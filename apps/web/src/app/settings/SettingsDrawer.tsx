import { UndoOutlined } from '@ant-design/icons'
import { Button, Divider, Drawer, Select, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { ColorSwatches } from './ColorSwatches'
import { useLayoutSettings } from './LayoutSettingsContext'
import { SettingRow } from './SettingRow'
import { SettingSwitch } from './SettingSwitch'
import { StylePicker } from './StylePicker'

/** The layout-settings drawer: every change is saved and applied at once. */
export function SettingsDrawer() {
  const { t } = useTranslation()
  const { settings: s, dispatch } = useLayoutSettings()
  const side = s.layout === 'sidemenu'

  return (
    <Drawer
      title={t('settings.title')}
      open={s.drawerOpen}
      onClose={() => dispatch({ type: 'setDrawerOpen', value: false })}
      size={320}
      data-testid="settings-drawer"
    >
      <Typography.Title level={5}>{t('settings.theme')}</Typography.Title>
      <StylePicker
        value={s.theme}
        testId="settings-theme"
        onChange={(value) => dispatch({ type: 'setTheme', value })}
        options={[
          { value: 'light', label: t('settings.themeLight'), preview: 'light' },
          { value: 'dark', label: t('settings.themeDark'), preview: 'dark' },
        ]}
      />
      <Divider />
      <Typography.Title level={5}>{t('settings.primaryColor')}</Typography.Title>
      <ColorSwatches
        value={s.primaryColor}
        onChange={(value) => dispatch({ type: 'setPrimaryColor', value })}
      />
      <Divider />
      <Typography.Title level={5}>{t('settings.layout')}</Typography.Title>
      <StylePicker
        value={s.layout}
        testId="settings-layout"
        onChange={(value) => dispatch({ type: 'setLayout', value })}
        options={[
          { value: 'sidemenu', label: t('settings.sidemenu'), preview: 'side' },
          { value: 'topmenu', label: t('settings.topmenu'), preview: 'top' },
        ]}
      />
      <SettingRow label={t('settings.contentWidth')} hint={side ? t('settings.fixedOnlyTop') : undefined}>
        <Select
          size="small"
          style={{ width: 88 }}
          value={s.contentWidth}
          disabled={side}
          onChange={(value) => dispatch({ type: 'setContentWidth', value })}
          options={[
            { value: 'Fluid', label: t('settings.fluid') },
            { value: 'Fixed', label: t('settings.fixed') },
          ]}
          data-testid="settings-content-width"
        />
      </SettingRow>
      <SettingSwitch
        label={t('settings.fixedHeader')}
        checked={s.fixedHeader}
        onChange={(value) => dispatch({ type: 'setFixedHeader', value })}
      />
      <SettingSwitch
        label={t('settings.autoHideHeader')}
        hint={s.fixedHeader ? undefined : t('settings.autoHideHint')}
        checked={s.autoHideHeader}
        disabled={!s.fixedHeader}
        onChange={(value) => dispatch({ type: 'setAutoHideHeader', value })}
      />
      <SettingSwitch
        label={t('settings.fixedSidebar')}
        hint={side ? undefined : t('settings.fixedSidebarHint')}
        checked={s.fixedSidebar}
        disabled={!side}
        onChange={(value) => dispatch({ type: 'setFixedSidebar', value })}
      />
      <Divider />
      <Typography.Title level={5}>{t('settings.other')}</Typography.Title>
      <SettingSwitch
        label={t('settings.colorWeak')}
        checked={s.colorWeak}
        onChange={(value) => dispatch({ type: 'setColorWeak', value })}
      />
      <SettingSwitch
        label={t('settings.grayMode')}
        checked={s.grayMode}
        onChange={(value) => dispatch({ type: 'setGrayMode', value })}
      />
      <SettingSwitch
        label={t('settings.darkMode')}
        checked={s.darkMode}
        onChange={(value) => dispatch({ type: 'setDarkMode', value })}
        testId="settings-dark-mode"
      />
      <Divider />
      <Button block icon={<UndoOutlined />} onClick={() => dispatch({ type: 'reset' })}>
        {t('settings.reset')}
      </Button>
    </Drawer>
  )
}
