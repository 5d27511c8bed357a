import type { DeviceLocations } from '@aed/contracts/dashboard'
import type { DeviceIndex } from './deviceSource'

/**
 * A device layer answer as the page keeps it: one device a slot (id, GCJ-02 place, shown status)
 * in typed arrays, which cross to and from the cluster worker without a copy per device.
 */
export type DeviceLayer = {
  ids: Int32Array
  /** [lon, lat] pairs. */
  coords: Float64Array
  statuses: Uint8Array
  /** Registered devices of the asked statuses with no place (not drawn). */
  unplaced: number
  /** The cluster worker's copy of this answer (it fetched it), or null. */
  dataset: number | null
}

/**
 * The layer of an answer, in the order of `statuses` (MAP_DEVICE_STATUSES, passed in so the
 * cluster worker does not load the contracts' schemas for five numbers).
 */
export function layerOf(
  locations: DeviceLocations,
  statuses: readonly number[],
  dataset: number | null = null,
): DeviceLayer {
  let n = 0
  for (const s of statuses) n += locations[String(s) as '0'].length
  const layer: DeviceLayer = {
    ids: new Int32Array(n),
    coords: new Float64Array(2 * n),
    statuses: new Uint8Array(n),
    unplaced: locations.unplaced,
    dataset,
  }
  let i = 0
  for (const s of statuses) {
    for (const [id, lon, lat] of locations[String(s) as '0']) {
      layer.ids[i] = id
      layer.coords[2 * i] = lon
      layer.coords[2 * i + 1] = lat
      layer.statuses[i] = s
      i++
    }
  }
  return layer
}

/** The devices of a layer by id: what pushed changes are compared with. */
export function indexOfLayer(layer: DeviceLayer): DeviceIndex {
  const index: DeviceIndex = new Map()
  const { ids, coords, statuses } = layer
  for (let i = 0; i < ids.length; i++) {
    index.set(ids[i], { lon: coords[2 * i], lat: coords[2 * i + 1], s: statuses[i] })
  }
  return index
}
