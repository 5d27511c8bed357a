import Supercluster, { type PointFeature } from 'supercluster'
import type { ClusterOptions, ClusterPoints } from './clusterProtocol'

/** A device as clustered: its status. */
type Props = { s: number }
/** A cluster keeps the worst rank inside it. */
type Worst = { w: number }

/** The devices to cluster and how. */
export type ClusterInput = ClusterPoints & ClusterOptions

/**
 * Indexes the devices with supercluster (512-pixel tiles, as MapLibre's zoom counts them). A
 * cluster's `w` is the worst rank of the devices inside; a single device keeps its status `s` and
 * its id as the feature id.
 */
export function buildClusterIndex(input: ClusterInput): Supercluster<Props, Worst> {
  const { ids, coords, statuses, ranks } = input
  const features: PointFeature<Props>[] = new Array(ids.length)
  for (let i = 0; i < ids.length; i++) {
    features[i] = {
      type: 'Feature',
      id: ids[i],
      properties: { s: statuses[i] },
      geometry: { type: 'Point', coordinates: [coords[2 * i], coords[2 * i + 1]] },
    }
  }
  return new Supercluster<Props, Worst>({
    radius: input.radius,
    maxZoom: input.maxZoom,
    extent: 512,
    map: (p) => ({ w: ranks[p.s] ?? 0 }),
    reduce: (acc, p) => {
      if (p.w > acc.w) acc.w = p.w
    },
  }).load(features)
}
