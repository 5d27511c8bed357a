import gcoord from 'gcoord'
import type { Datum } from './mapTiles'

/** A point of our data: GCJ-02, as the map vendors and the server store it. */
export type LatLon = { lat: number; lon: number }

/** Where a GCJ-02 point is drawn on a map in `datum`: [lon, lat]. */
export function toDisplay(p: LatLon, datum: Datum): [number, number] {
  if (datum === 'gcj02') return [p.lon, p.lat]
  const [lon, lat] = gcoord.transform([p.lon, p.lat], gcoord.GCJ02, gcoord.WGS84)
  return [lon, lat]
}

/** The GCJ-02 point under a position of a map in `datum`, rounded to 6 decimals (about 0.1 m). */
export function fromDisplay(lngLat: { lng: number; lat: number }, datum: Datum): LatLon {
  const [lon, lat] =
    datum === 'gcj02'
      ? [lngLat.lng, lngLat.lat]
      : gcoord.transform([lngLat.lng, lngLat.lat], gcoord.WGS84, gcoord.GCJ02)
  const round = (v: number) => Math.round(v * 1e6) / 1e6
  return { lat: round(lat), lon: round(lon) }
}
