import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, theme } from 'antd'
// The ES builds: antd/locale/* are CommonJS and pull antd's whole lib locale tree.
import enUS from 'antd/es/locale/en_US'
import zhCN from 'antd/es/locale/zh_CN'
import { type ReactNode, useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { RequestBridge } from './RequestBridge'
import { useLayoutSettings } from './settings/LayoutSettingsContext'

/**
 * Answers carry the server's labels in the request's language (status texts, service names):
 * after a language switch every query is fetched again, so nothing stays in the other language.
 */
function useRefetchOnLanguage(client: QueryClient, language: string) {
  const shown = useRef(language)
  useEffect(() => {
    if (shown.current === language) return
    shown.current = language
    void client.invalidateQueries()
  }, [client, language])
}

/** antd locale and theme follow the language and the layout settings. */
export function ThemedApp({ children, client }: { children: ReactNode; client: QueryClient }) {
  const { i18n } = useTranslation()
  const { settings } = useLayoutSettings()
  useRefetchOnLanguage(client, i18n.language)
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
