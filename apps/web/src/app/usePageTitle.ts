import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useMatches } from 'react-router'
import { routeFor } from '../lib/guard'

export type RouteHandle = { titleKey?: string }

function isHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'titleKey' in value
}

/** Sets the document title to the route title plus the site title. */
export function usePageTitle(pathname: string) {
  const { t, i18n } = useTranslation()
  const matches = useMatches()
  const handle = matches.map((m) => m.handle).findLast(isHandle)
  const route = routeFor(pathname)
  const routeTitle = route
    ? route.title[i18n.language === 'en-US' ? 1 : 0]
    : handle?.titleKey
      ? t(handle.titleKey)
      : ''
  const site = t('app.siteTitle')
  const title = routeTitle ? `${routeTitle} - ${site}` : site
  useEffect(() => {
    document.title = title
  }, [title])
}
