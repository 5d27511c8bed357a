import { type ReactNode, useEffect, useMemo, useReducer } from 'react'
import { StorageKey, storage } from '../../lib/storage'
import { LayoutSettingsContext } from './LayoutSettingsContext'
import { fromStored, type StoredLayoutSettings, toStored } from './layoutSettings'
import { layoutSettingsReducer } from './layoutSettingsReducer'

function initial() {
  return fromStored(storage.get<Partial<StoredLayoutSettings>>(StorageKey.siteSettings))
}

/** Holds the layout settings, saves each change to site settings and applies the page filters. */
export function LayoutSettingsProvider({ children }: { children: ReactNode }) {
  const [settings, dispatch] = useReducer(layoutSettingsReducer, undefined, initial)

  useEffect(() => {
    storage.set(StorageKey.siteSettings, toStored(settings))
  }, [settings])

  useEffect(() => {
    const root = document.documentElement
    root.classList.toggle('color-weak', settings.colorWeak)
    root.classList.toggle('gray-mode', settings.grayMode)
    root.dataset.theme = settings.darkMode ? 'dark' : 'light'
  }, [settings.colorWeak, settings.grayMode, settings.darkMode])

  const value = useMemo(() => ({ settings, dispatch }), [settings])
  return <LayoutSettingsContext.Provider value={value}>{children}</LayoutSettingsContext.Provider>
}
