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

/**
 * `points` after a batch of pushed changes, as a new copy (the input may be a kept answer): each
 * device of `set` takes its status and place where it is, or is added at the end; the ids of
 * `remove` are left out. One pass over the devices, in the cluster worker.
 */
export function withChanges(points: ClusterPoints, set: ClusterPoints, remove: Int32Array): ClusterPoints {
  const removed = new Set(remove)
  const changed = new Map<number, number>()
  for (let j = 0; j < set.ids.length; j++) changed.set(set.ids[j], j)
  const most = points.ids.length + set.ids.length
  const out = {
    ids: new Int32Array(most),
    coords: new Float64Array(2 * most),
    statuses: new Uint8Array(most),
  }
  let k = 0
  const put = (id: number, from: ClusterPoints, i: number) => {
    out.ids[k] = id
    out.coords[2 * k] = from.coords[2 * i]
    out.coords[2 * k + 1] = from.coords[2 * i + 1]
    out.statuses[k] = from.statuses[i]
    k++
  }
  for (let i = 0; i < points.ids.length; i++) {
    const id = points.ids[i]
    if (removed.has(id)) continue
    const j = changed.get(id)
    if (j === undefined) put(id, points, i)
    else {
      put(id, set, j)
      changed.delete(id)
    }
  }
  for (const [id, j] of changed) if (!removed.has(id)) put(id, set, j)
  return { ids: out.ids.slice(0, k), coords: out.coords.slice(0, 2 * k), statuses: out.statuses.slice(0, k) }
}
