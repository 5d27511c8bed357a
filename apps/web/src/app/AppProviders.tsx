import type { QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { I18nextProvider } from 'react-i18next'
import { i18n } from '../i18n'
import { queryClient } from './queryClient'
import { LayoutSettingsProvider } from './settings/LayoutSettingsProvider'
import './signInTexts'
import { ThemedApp } from './ThemedApp'

/** i18n, layout settings, antd (locale, theme, message) and TanStack Query. */
export function AppProviders({
  children,
  client = queryClient,
}: {
  children: ReactNode
  client?: QueryClient
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <LayoutSettingsProvider>
        <ThemedApp client={client}>{children}</ThemedApp>
      </LayoutSettingsProvider>
    </I18nextProvider>
  )
}
