import { Grid } from 'antd'
import { useEffect } from 'react'
import { useLayoutSettings } from '../settings/LayoutSettingsContext'
import type { Device } from '../settings/layoutSettings'

/** Keeps the settings' device (desktop, tablet, mobile) in step with the window width. */
export function useDeviceSync() {
  const screens = Grid.useBreakpoint()
  const { settings, dispatch } = useLayoutSettings()
  const device: Device = screens.lg === false ? (screens.md === false ? 'mobile' : 'tablet') : 'desktop'
  useEffect(() => {
    if (device !== settings.device) dispatch({ type: 'setDevice', value: device })
  }, [device, settings.device, dispatch])
}
