import type { ResponderAlert } from '@aed/contracts/dispatch'
import { distanceM, type Point, wgs84ToGcj02 } from './geo'
import type { Target } from './navigation'
import type { Texts } from './texts'

/** Where the responder goes next: the AED (role aed, until they have it), then the patient. */
export function nextStop(alert: ResponderAlert, hasAed: boolean): 'aed' | 'patient' {
  return alert.role === 'aed' && alert.aed && !hasAed && alert.state !== 'arrived' ? 'aed' : 'patient'
}

/** The next stop as a map app's destination. */
export function targetOf(alert: ResponderAlert, stop: 'aed' | 'patient', t: Texts): Target {
  if (stop === 'aed' && alert.aed) {
    const { lat, lon, location } = alert.aed
    return { lat, lon, name: location ? `AED ${location}` : t.aed }
  }
  return { lat: alert.call.lat, lon: alert.call.lon, name: alert.call.location }
}

// Heartrunner's median, DISPATCH_DEFAULTS.dispatch_speed_mps: used when the answer gives no time.
const FALLBACK_SPEED_MPS = 2.3

/** Which way `wayLeft` measured: to the AED, to the patient, or the whole way by the AED. */
export type Leg = 'aed' | 'patient' | 'via'

/**
 * Metres to go and the walking seconds: from the phone's position to the next stop when it is
 * known, else the server's figures for the whole way from where the responder was sent from.
 */
export function wayLeft(alert: ResponderAlert, stop: 'aed' | 'patient', me: Point | null) {
  if (!me) {
    const leg: Leg = alert.role === 'aed' && alert.aed && stop === 'aed' ? 'via' : 'patient'
    return { leg, metres: alert.distance, seconds: alert.eta_s }
  }
  // The organisation's walking speed, as the server used it for its own estimate.
  const speed = alert.eta_s > 0 && alert.distance > 0 ? alert.distance / alert.eta_s : FALLBACK_SPEED_MPS
  const to = stop === 'aed' && alert.aed ? alert.aed : alert.call
  const metres = Math.round(distanceM(wgs84ToGcj02(me), to))
  return { leg: stop as Leg, metres, seconds: Math.round(metres / speed) }
}
