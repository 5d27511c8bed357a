import { toDisplay } from '../../../components/MapView/datum'
import type { Datum } from '../../../components/MapView/mapTiles'
import type { ClusterPoints } from './clusterProtocol'

/** The devices in the map's display coordinates (the same arrays when the map draws GCJ-02). */
export function toDisplayPoints(points: ClusterPoints, datum: Datum): ClusterPoints {
  if (datum === 'gcj02') return points
  const coords = new Float64Array(points.coords.length)
  for (let i = 0; i < coords.length; i += 2) {
    const [x, y] = toDisplay({ lon: points.coords[i], lat: points.coords[i + 1] }, datum)
    coords[i] = x
    coords[i + 1] = y
  }
  return { ...points, coords }
}
