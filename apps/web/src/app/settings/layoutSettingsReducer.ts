import {
  type ContentWidth,
  type Device,
  defaultLayoutSettings,
  type LayoutMode,
  type LayoutSettings,
  type NavTheme,
} from './layoutSettings'

export type LayoutSettingsAction =
  | { type: 'toggleCollapsed' }
  | { type: 'setCollapsed'; value: boolean }
  | { type: 'setDevice'; value: Device }
  | { type: 'setTheme'; value: NavTheme }
  | { type: 'setLayout'; value: LayoutMode }
  | { type: 'setContentWidth'; value: ContentWidth }
  | { type: 'setFixedHeader'; value: boolean }
  | { type: 'setFixedSidebar'; value: boolean }
  | { type: 'setAutoHideHeader'; value: boolean }
  | { type: 'setPrimaryColor'; value: string }
  | { type: 'setColorWeak'; value: boolean }
  | { type: 'setGrayMode'; value: boolean }
  | { type: 'setDarkMode'; value: boolean }
  | { type: 'setDrawerOpen'; value: boolean }
  | { type: 'reset' }

/** The layout-settings rules of the spec, as a pure reducer. */
export function layoutSettingsReducer(state: LayoutSettings, action: LayoutSettingsAction): LayoutSettings {
  switch (action.type) {
    case 'toggleCollapsed':
      return { ...state, collapsed: !state.collapsed }
    case 'setCollapsed':
      return { ...state, collapsed: action.value }
    case 'setDevice':
      return {
        ...state,
        device: action.value,
        collapsed: action.value === 'desktop' ? state.collapsed : true,
      }
    case 'setTheme':
      // Picking a menu theme by hand leaves dark mode.
      return { ...state, theme: action.value, darkMode: false }
    case 'setLayout':
      // The side-menu layout always fills the width.
      return {
        ...state,
        layout: action.value,
        contentWidth: action.value === 'sidemenu' ? 'Fluid' : state.contentWidth,
      }
    case 'setContentWidth':
      return { ...state, contentWidth: state.layout === 'sidemenu' ? 'Fluid' : action.value }
    case 'setFixedHeader':
      return {
        ...state,
        fixedHeader: action.value,
        autoHideHeader: action.value ? state.autoHideHeader : false,
      }
    case 'setFixedSidebar':
      return { ...state, fixedSidebar: action.value }
    case 'setAutoHideHeader':
      return { ...state, autoHideHeader: state.fixedHeader ? action.value : false }
    case 'setPrimaryColor':
      return { ...state, primaryColor: action.value }
    case 'setColorWeak':
      return { ...state, colorWeak: action.value }
    case 'setGrayMode':
      return { ...state, grayMode: action.value }
    case 'setDarkMode':
      return { ...state, darkMode: action.value, theme: action.value ? 'dark' : state.theme }
    case 'setDrawerOpen':
      return { ...state, drawerOpen: action.value }
    case 'reset':
      return { ...defaultLayoutSettings, device: state.device, drawerOpen: state.drawerOpen }
  }
}
