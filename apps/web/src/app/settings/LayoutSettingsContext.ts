import { createContext, type Dispatch, useContext } from 'react'
import { defaultLayoutSettings, type LayoutSettings } from './layoutSettings'
import type { LayoutSettingsAction } from './layoutSettingsReducer'

export type LayoutSettingsValue = { settings: LayoutSettings; dispatch: Dispatch<LayoutSettingsAction> }

export const LayoutSettingsContext = createContext<LayoutSettingsValue>({
  settings: defaultLayoutSettings,
  dispatch: () => {},
})

/** The layout settings and their dispatcher. */
export function useLayoutSettings(): LayoutSettingsValue {
  return useContext(LayoutSettingsContext)
}
