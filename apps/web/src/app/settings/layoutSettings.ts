export type NavTheme = 'light' | 'dark'
export type LayoutMode = 'topmenu' | 'sidemenu'
export type ContentWidth = 'Fluid' | 'Fixed'
export type Device = 'desktop' | 'tablet' | 'mobile'

export type LayoutSettings = {
  collapsed: boolean
  device: Device
  theme: NavTheme
  layout: LayoutMode
  contentWidth: ContentWidth
  fixedHeader: boolean
  fixedSidebar: boolean
  autoHideHeader: boolean
  primaryColor: string
  colorWeak: boolean
  grayMode: boolean
  drawerOpen: boolean
  darkMode: boolean
}

export const DEFAULT_PRIMARY_COLOR = '#1890FF'

export const defaultLayoutSettings: LayoutSettings = {
  collapsed: false,
  device: 'desktop',
  theme: 'dark',
  layout: 'topmenu',
  contentWidth: 'Fluid',
  fixedHeader: true,
  fixedSidebar: false,
  autoHideHeader: false,
  primaryColor: DEFAULT_PRIMARY_COLOR,
  colorWeak: false,
  grayMode: false,
  drawerOpen: false,
  darkMode: false,
}

/** Swatches offered in the drawer; the first is the default. */
export const primaryColors = [
  { key: 'daybreak', color: DEFAULT_PRIMARY_COLOR },
  { key: 'dust', color: '#F5222D' },
  { key: 'volcano', color: '#FA541C' },
  { key: 'sunset', color: '#FAAD14' },
  { key: 'cyan', color: '#13C2C2' },
  { key: 'green', color: '#52C41A' },
  { key: 'geekblue', color: '#2F54EB' },
  { key: 'purple', color: '#722ED1' },
] as const

/** The fields kept in site settings: everything but transient UI state. */
export type StoredLayoutSettings = Omit<LayoutSettings, 'drawerOpen' | 'device'>

export function toStored(s: LayoutSettings): StoredLayoutSettings {
  const { drawerOpen: _drawer, device: _device, ...stored } = s
  return stored
}

/** Restores settings from storage, keeping defaults for anything missing or malformed. */
export function fromStored(stored: Partial<StoredLayoutSettings> | null): LayoutSettings {
  const merged: LayoutSettings = { ...defaultLayoutSettings }
  if (!stored) return merged
  for (const key of Object.keys(defaultLayoutSettings) as (keyof LayoutSettings)[]) {
    const value = (stored as Partial<LayoutSettings>)[key]
    if (value !== undefined && typeof value === typeof defaultLayoutSettings[key]) {
      Object.assign(merged, { [key]: value })
    }
  }
  merged.drawerOpen = false
  merged.device = 'desktop'
  return normalise(merged)
}

/** Re-applies the cross-field rules to any settings object. */
export function normalise(s: LayoutSettings): LayoutSettings {
  const next = { ...s }
  if (next.layout === 'sidemenu') next.contentWidth = 'Fluid'
  if (next.darkMode) next.theme = 'dark'
  if (!next.fixedHeader) next.autoHideHeader = false
  return next
}
