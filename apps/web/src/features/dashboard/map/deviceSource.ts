import { MAP_DEVICE_STATUSES, STATUS_PRIORITY } from '@aed/contracts/dashboard'
import type { Feature, Point } from 'geojson'
import type { Obstacle } from '../../../components/MapView/canvasBasemap'
import { STATUS_HEX } from '../../../lib/deviceStatus'

/** A device drawn on the map: where (GCJ-02) and its shown status. */
export type PlacedDevice = { lon: number; lat: number; s: number }

/** Every drawn device by id: what the live frames are compared with. */
export type DeviceIndex = Map<number, PlacedDevice>

/** A status's rank of badness: 4 for the worst (fault) down to 0 for normal (STATUS_PRIORITY). */
export const rankOf = (status: number) => STATUS_PRIORITY.length - 1 - STATUS_PRIORITY.indexOf(status)

/** A cluster's radius (px) from this many devices on: 14 below 100, up to 29 from 10,000. */
export const CLUSTER_RADII = [
  [0, 14],
  [100, 18],
  [1000, 23],
  [10000, 29],
] as const
/** The white ring round a cluster (px). */
export const CLUSTER_STROKE = 2

/** A cluster's radius (px, without its ring) for this many devices, from CLUSTER_RADII. */
export const clusterRadiusOf = (count: number) =>
  CLUSTER_RADII.reduce<number>((r, [from, px]) => (count >= from ? px : r), 0)

/** The clusters among a view's features, as the circles the map draws for them. */
export function clusterObstacles(features: readonly Feature<Point>[]): Obstacle[] {
  const obstacles: Obstacle[] = []
  for (const f of features) {
    const count = Number(f.properties?.point_count)
    if (!f.properties?.cluster || !Number.isFinite(count)) continue
    const [lon, lat] = f.geometry.coordinates
    obstacles.push({ lon, lat, radius: clusterRadiusOf(count) + CLUSTER_STROKE })
  }
  return obstacles
}

/** A cluster's colour: that of the worst status inside it (`w`, the worst rank the cluster worker kept). */
export const clusterHex = (w: number) =>
  STATUS_HEX[STATUS_PRIORITY[STATUS_PRIORITY.length - 1 - w]] ?? STATUS_HEX[0]

/** A single device's colour: its status's. */
export const pointHex = (s: number) =>
  (MAP_DEVICE_STATUSES as readonly number[]).includes(s) ? STATUS_HEX[s] : STATUS_HEX[0]

/** A pushed status change, as the map needs it. */
export type StatusChange = { id: number; s: number; lon?: number | null; lat?: number | null }

/** What a batch of pushed changes does to the drawn devices. */
export type SourceDiff = {
  /** Devices whose colour changes. */
  update: { id: number; s: number }[]
  /** Devices now in a shown status the map did not draw (with a place). */
  add: { id: number; d: PlacedDevice }[]
  /** Devices now in a hidden status. */
  remove: number[]
  /** Devices in a shown status the map cannot place (unknown, and no place in the push). */
  unplaced: number
}

/**
 * Applies a batch of changes to the index (in place) and says what changed on the map. A device
 * unknown to the map is added only when `mayAdd` (the map shows the whole scope: a device outside
 * the chosen region must not appear in it), and only with its site's place.
 */
export function applyChanges(
  index: DeviceIndex,
  changes: readonly StatusChange[],
  shown: ReadonlySet<number>,
  mayAdd: boolean,
): SourceDiff {
  const last = new Map<number, StatusChange>()
  for (const c of changes) last.set(c.id, c)
  const diff: SourceDiff = { update: [], add: [], remove: [], unplaced: 0 }
  for (const c of last.values()) {
    const known = index.get(c.id)
    if (known) {
      if (!shown.has(c.s)) {
        index.delete(c.id)
        diff.remove.push(c.id)
      } else if (known.s !== c.s) {
        known.s = c.s
        diff.update.push({ id: c.id, s: c.s })
      }
    } else if (shown.has(c.s) && mayAdd) {
      if (c.lon == null || c.lat == null) {
        diff.unplaced++
        continue
      }
      const d = { lon: c.lon, lat: c.lat, s: c.s }
      index.set(c.id, d)
      diff.add.push({ id: c.id, d })
    }
  }
  return diff
}
