import { DEFAULT_COORDINATE } from '@aed/contracts/constants'
import gcoord from 'gcoord'
import type { LatLon } from '../components/MapView/datum'

/** Why the browser gave no position: each has its own message on the sign-in page. */
export type PositionFailure = 'insecure' | 'unsupported' | 'denied' | 'failed'

const KEY = 'aed__browserPosition'
const PERMISSION_DENIED = 1

/** The position the browser gave this session (GCJ-02, as our maps and data are), if any. */
export function sessionPosition(): LatLon | null {
  try {
    const raw = window.sessionStorage.getItem(KEY)
    const p = raw ? (JSON.parse(raw) as Partial<LatLon>) : null
    return typeof p?.lat === 'number' && typeof p.lon === 'number' ? { lat: p.lat, lon: p.lon } : null
  } catch {
    return null
  }
}

/** Where a map with nothing else to show looks: the session's position, else the default coordinate. */
export function mapHome(): LatLon {
  return sessionPosition() ?? DEFAULT_COORDINATE
}

function keep(coords: { latitude: number; longitude: number }) {
  const [lon, lat] = gcoord.transform([coords.longitude, coords.latitude], gcoord.WGS84, gcoord.GCJ02)
  const round = (v: number) => Math.round(v * 1e6) / 1e6
  window.sessionStorage.setItem(KEY, JSON.stringify({ lat: round(lat), lon: round(lon) }))
}

/**
 * Asks the browser where it is and keeps the answer for the session; answers null when kept, or
 * why not: a page not served over https (browsers give no position there), no geolocation in
 * this browser, the user or browser refusing it, or any other failure (no fix, a timeout).
 */
export function requestBrowserPosition(): Promise<PositionFailure | null> {
  if (!window.isSecureContext) return Promise.resolve('insecure')
  if (!('geolocation' in navigator) || !navigator.geolocation) return Promise.resolve('unsupported')
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => {
        keep(p.coords)
        resolve(null)
      },
      (error) => resolve(error.code === PERMISSION_DENIED ? 'denied' : 'failed'),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 10 * 60_000 },
    )
  })
}
