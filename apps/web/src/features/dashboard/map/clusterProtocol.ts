import type { Feature, Point } from 'geojson'
import type { ClusterInput } from './clusterIndex'

/** What the map asks its cluster worker. */
export type ClusterRequest =
  | (ClusterInput & {
      type: 'load'
      /** Counts the loads: answers to queries of an older load are dropped. */
      generation: number
      /** The view to answer at once, saving the map a round trip. */
      view: ClusterView
    })
  | ({ type: 'query'; ask: number } & ClusterView)
  | { type: 'expand'; clusterId: number }

/** A view of the map: its bounds (west, south, east, north, display coordinates) and zoom. */
export type ClusterView = { bbox: [number, number, number, number]; zoom: number }

/** What the worker answers. */
export type ClusterReply =
  | { type: 'loaded'; generation: number; count: number; features: Feature<Point>[] }
  | { type: 'clusters'; generation: number; ask: number; features: Feature<Point>[] }
  | { type: 'expanded'; clusterId: number; zoom: number }
