import { describe, expect, it } from 'vitest'
import { defaultLayoutSettings, fromStored, type LayoutSettings, toStored } from './layoutSettings'
import { layoutSettingsReducer as reduce } from './layoutSettingsReducer'

const base: LayoutSettings = { ...defaultLayoutSettings }

describe('layout settings defaults', () => {
  it('match the spec', () => {
    expect(base.layout).toBe('topmenu')
    expect(base.contentWidth).toBe('Fluid')
    expect(base.fixedHeader).toBe(true)
    expect(base.fixedSidebar).toBe(false)
    expect(base.autoHideHeader).toBe(false)
    expect(base.primaryColor).toBe('#1890FF')
    expect(base.darkMode).toBe(false)
  })
})

describe('layoutSettingsReducer', () => {
  it('forces Fluid content width when the side menu is chosen', () => {
    const fixed = reduce(base, { type: 'setContentWidth', value: 'Fixed' })
    expect(fixed.contentWidth).toBe('Fixed')
    const side = reduce(fixed, { type: 'setLayout', value: 'sidemenu' })
    expect(side.layout).toBe('sidemenu')
    expect(side.contentWidth).toBe('Fluid')
  })

  it('keeps Fluid when Fixed is asked for in the side-menu layout', () => {
    const side = reduce(base, { type: 'setLayout', value: 'sidemenu' })
    expect(reduce(side, { type: 'setContentWidth', value: 'Fixed' }).contentWidth).toBe('Fluid')
  })

  it('keeps the chosen width when switching back to the top menu', () => {
    const fixed = reduce(base, { type: 'setContentWidth', value: 'Fixed' })
    expect(reduce(fixed, { type: 'setLayout', value: 'topmenu' }).contentWidth).toBe('Fixed')
  })

  it('forces the dark theme when dark mode is turned on', () => {
    const light = reduce(base, { type: 'setTheme', value: 'light' })
    const dark = reduce(light, { type: 'setDarkMode', value: true })
    expect(dark.darkMode).toBe(true)
    expect(dark.theme).toBe('dark')
  })

  it('turns dark mode off when a theme is chosen while dark mode is on', () => {
    const dark = reduce(base, { type: 'setDarkMode', value: true })
    const light = reduce(dark, { type: 'setTheme', value: 'light' })
    expect(light.darkMode).toBe(false)
    expect(light.theme).toBe('light')
    const again = reduce(dark, { type: 'setTheme', value: 'dark' })
    expect(again.darkMode).toBe(false)
    expect(again.theme).toBe('dark')
  })

  it('keeps the theme when dark mode is turned off', () => {
    const dark = reduce(base, { type: 'setDarkMode', value: true })
    expect(reduce(dark, { type: 'setDarkMode', value: false }).theme).toBe('dark')
  })

  it('drops auto-hide header when the header is not fixed', () => {
    const auto = reduce(base, { type: 'setAutoHideHeader', value: true })
    expect(auto.autoHideHeader).toBe(true)
    const loose = reduce(auto, { type: 'setFixedHeader', value: false })
    expect(loose.autoHideHeader).toBe(false)
    expect(reduce(loose, { type: 'setAutoHideHeader', value: true }).autoHideHeader).toBe(false)
  })

  it('sets the simple flags and colour', () => {
    let s = reduce(base, { type: 'setPrimaryColor', value: '#722ED1' })
    s = reduce(s, { type: 'setColorWeak', value: true })
    s = reduce(s, { type: 'setGrayMode', value: true })
    s = reduce(s, { type: 'setFixedSidebar', value: true })
    s = reduce(s, { type: 'setDrawerOpen', value: true })
    expect(s).toMatchObject({
      primaryColor: '#722ED1',
      colorWeak: true,
      grayMode: true,
      fixedSidebar: true,
      drawerOpen: true,
    })
    expect(reduce(s, { type: 'reset' })).toMatchObject({ ...defaultLayoutSettings, drawerOpen: true })
  })

  it('collapses the sidebar on small devices', () => {
    expect(reduce(base, { type: 'setDevice', value: 'mobile' }).collapsed).toBe(true)
    expect(reduce(base, { type: 'toggleCollapsed' }).collapsed).toBe(true)
  })
})

describe('stored layout settings', () => {
  it('round-trip without transient state and re-apply the rules', () => {
    const stored = toStored({ ...base, drawerOpen: true, layout: 'sidemenu', contentWidth: 'Fixed' })
    expect(stored).not.toHaveProperty('drawerOpen')
    const restored = fromStored(stored)
    expect(restored.drawerOpen).toBe(false)
    expect(restored.contentWidth).toBe('Fluid')
  })

  it('ignore malformed values', () => {
    const restored = fromStored({ fixedHeader: 'yes' as unknown as boolean, darkMode: true, theme: 'light' })
    expect(restored.fixedHeader).toBe(true)
    expect(restored.theme).toBe('dark')
  })
})
