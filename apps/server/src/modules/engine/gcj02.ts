import { toGcj02 } from './reducer.ts'

/** A point. */
export type LatLon = { lat: number; lon: number }

/**
 * A GCJ-02 point as WGS-84: the inverse of the engine's toGcj02, by fixed-point iteration (the
 * offset changes by metres over kilometres, so each step gains about five digits) until the
 * forward transform lands within 1e-9° of the point.
 */
export function fromGcj02(lat: number, lon: number): LatLon {
  let w = { lat, lon }
  for (let i = 0; i < 10; i++) {
    const g = toGcj02(w.lat, w.lon)
    const dLat = g.lat - lat
    const dLon = g.lon - lon
    if (Math.abs(dLat) < 1e-9 && Math.abs(dLon) < 1e-9) break
    w = { lat: w.lat - dLat, lon: w.lon - dLon }
  }
  return w
}

export { toGcj02 }
