import {
  type ContentWidth,
  type Device,
  defaultLayoutSettings,
  type LayoutMode,
  type LayoutSettings,
  type NavTheme,
} from './layoutSettings'

/** The actions that only store their value, and the setting each one stores. */
const plainSetters = {
  setCollapsed: 'collapsed',
  setFixedSidebar: 'fixedSidebar',
  setPrimaryColor: 'primaryColor',
  setColorWeak: 'colorWeak',
  setGrayMode: 'grayMode',
  setDrawerOpen: 'drawerOpen',
} as const satisfies Record<string, keyof LayoutSettings>

type PlainSetter = keyof typeof plainSetters
type PlainSetterAction = {
  [A in PlainSetter]: { type: A; value: LayoutSettings[(typeof plainSetters)[A]] }
}[PlainSetter]

export type LayoutSettingsAction =
  | PlainSetterAction
  | { type: 'toggleCollapsed' }
  | { type: 'setDevice'; value: Device }
  | { type: 'setTheme'; value: NavTheme }
  | { type: 'setLayout'; value: LayoutMode }
  | { type: 'setContentWidth'; value: ContentWidth }
  | { type: 'setFixedHeader'; value: boolean }
  | { type: 'setAutoHideHeader'; value: boolean }
  | { type: 'setDarkMode'; value: boolean }
  | { type: 'reset' }

/** The layout-settings rules of the spec, as a pure reducer. */
export function layoutSettingsReducer(state: LayoutSettings, action: LayoutSettingsAction): LayoutSettings {
  switch (action.type) {
    case 'toggleCollapsed':
      return { ...state, collapsed: !state.collapsed }
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
    case 'setAutoHideHeader':
      return { ...state, autoHideHeader: state.fixedHeader ? action.value : false }
    case 'setDarkMode':
      return { ...state, darkMode: action.value, theme: action.value ? 'dark' : state.theme }
    case 'reset':
      return { ...defaultLayoutSettings, device: state.device, drawerOpen: state.drawerOpen }
    default:
      return { ...state, [plainSetters[action.type]]: action.value }
  }
}
