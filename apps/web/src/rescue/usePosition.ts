import { useEffect, useState } from 'react'
import type { Position } from './api'

/** The phone's position (WGS-84, as the browser gives it), or whether it was refused. */
export type PositionState = { at: Position | null; failed: boolean }

/** Watches the phone's position while `on`; stops the GPS when off or when the page goes. */
export function usePosition(on: boolean): PositionState {
  const [state, setState] = useState<PositionState>({ at: null, failed: false })
  useEffect(() => {
    if (!on || !('geolocation' in navigator)) return
    const id = navigator.geolocation.watchPosition(
      (p) =>
        setState({
          at: { lat: p.coords.latitude, lon: p.coords.longitude, accuracy: Math.round(p.coords.accuracy) },
          failed: false,
        }),
      () => setState((s) => ({ ...s, failed: true })),
      // Fresh fixes for someone running; a fix up to 10 s old is still where they about are.
      { enableHighAccuracy: true, maximumAge: 10_000, timeout: 30_000 },
    )
    return () => navigator.geolocation.clearWatch(id)
  }, [on])
  return state
}
