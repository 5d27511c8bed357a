import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, theme } from 'antd'
// The ES builds: antd/locale/* are CommonJS and pull antd's whole lib locale tree.
import enUS from 'antd/es/locale/en_US'
import zhCN from 'antd/es/locale/zh_CN'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { RequestBridge } from './RequestBridge'
import { useLayoutSettings } from './settings/LayoutSettingsContext'

/** antd locale and theme follow the language and the layout settings. */
export function ThemedApp({ children, client }: { children: ReactNode; client: QueryClient }) {
  const { i18n } = useTranslation()
  const { settings } = useLayoutSettings()
  return (
    <ConfigProvider
      locale={i18n.language === 'en-US' ? enUS : zhCN}
      theme={{
        algorithm: settings.darkMode ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: settings.primaryColor, borderRadius: 6 },
        components: { Layout: { headerHeight: 64, headerPadding: '0 24px' } },
      }}
    >
      <AntApp className="ant-app-root">
        <RequestBridge />
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  )
}
