/** A point as the server sends it: GCJ-02 (the Chinese map datum). */
export type Point = { lat: number; lon: number }

const EARTH_M = 6_371_000
const rad = (deg: number) => (deg * Math.PI) / 180

/** Metres along the ground between two points (haversine; a few metres off over a few km). */
export function distanceM(a: Point, b: Point): number {
  const dLat = rad(b.lat - a.lat)
  const dLon = rad(b.lon - a.lon)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

// GCJ-02's published offset (Krasovsky ellipsoid). gcoord does the same in the console; written
// out here because the page must stay light and needs only these two directions.
const A = 6378245
const EE = 0.006693421622965943

function outsideChina(lat: number, lon: number) {
  return lon < 72.004 || lon > 137.8347 || lat < 0.8293 || lat > 55.8271
}

function offset(lat: number, lon: number): Point {
  const x = lon - 105
  const y = lat - 35
  let dLat = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x))
  dLat += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3
  dLat += ((20 * Math.sin(y * Math.PI) + 40 * Math.sin((y / 3) * Math.PI)) * 2) / 3
  dLat += ((160 * Math.sin((y / 12) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30)) * 2) / 3
  let dLon = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x))
  dLon += ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3
  dLon += ((20 * Math.sin(x * Math.PI) + 40 * Math.sin((x / 3) * Math.PI)) * 2) / 3
  dLon += ((150 * Math.sin((x / 12) * Math.PI) + 300 * Math.sin((x / 30) * Math.PI)) * 2) / 3
  const radLat = rad(lat)
  const magic = 1 - EE * Math.sin(radLat) ** 2
  const sqrtMagic = Math.sqrt(magic)
  return {
    lat: (dLat * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI),
    lon: (dLon * 180) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI),
  }
}

/** The browser's WGS-84 position as a GCJ-02 point, to draw beside the server's points. */
export function wgs84ToGcj02(p: Point): Point {
  if (outsideChina(p.lat, p.lon)) return p
  const d = offset(p.lat, p.lon)
  return { lat: p.lat + d.lat, lon: p.lon + d.lon }
}

/** A GCJ-02 point on WGS-84 tiles (OSM, Tianditu): one inverse step, within a metre. */
export function gcj02ToWgs84(p: Point): Point {
  if (outsideChina(p.lat, p.lon)) return p
  const d = offset(p.lat, p.lon)
  return { lat: p.lat - d.lat, lon: p.lon - d.lon }
}
