import type { Feature, Point } from 'geojson'
import type { Datum } from '../../../components/MapView/mapTiles'

/** How the worker clusters: rank of badness per status (index = status), radius, last zoom. */
export type ClusterOptions = { ranks: readonly number[]; radius: number; maxZoom: number }

/** Devices to cluster: ids, [lon, lat] pairs in display coordinates, statuses, in one order. */
export type ClusterPoints = { ids: Int32Array; coords: Float64Array; statuses: Uint8Array }

/** What the map asks its cluster worker. */
export type ClusterRequest =
  | {
      /** Fetches and reads a device layer answer, keeps it (`dataset` = `request`) and indexes it. */
      type: 'fetch'
      request: number
      url: string
      headers: [string, string][]
      timeoutMs: number
      /** The answer's status keys, in the order the devices are kept (MAP_DEVICE_STATUSES). */
      statuses: readonly number[]
      datum: Datum
      cluster: ClusterOptions
    }
  | { type: 'abort'; request: number }
  | {
      type: 'load'
      /** Counts the loads: answers to queries of an older load are dropped. */
      generation: number
      /** A fetched answer the worker kept, or the devices themselves (display coordinates). */
      devices: { dataset: number } | ClusterPoints
      cluster: ClusterOptions
      /** The view to answer at once, saving the map a round trip. */
      view: ClusterView
    }
  | {
      /** A batch of pushed changes to the devices of the last load (withChanges), re-indexed. */
      type: 'change'
      generation: number
      /** Devices with their new status and place (display coordinates): changed, or added. */
      set: ClusterPoints
      /** Devices no longer shown. */
      remove: Int32Array
      cluster: ClusterOptions
      view: ClusterView
    }
  | ({ type: 'query'; ask: number } & ClusterView)
  | { type: 'expand'; clusterId: number }
  /** Forgets the kept answers and the index (the map is gone). */
  | { type: 'clear' }

/** A view of the map: its bounds (west, south, east, north, display coordinates) and zoom. */
export type ClusterView = { bbox: [number, number, number, number]; zoom: number }

/** The device layer's request as the page's resource timing would show it (epoch ms, bytes). */
export type FetchTiming = {
  responseEnd: number
  transferSize: number
  encodedBodySize: number
  decodedBodySize: number
}

/** What the worker answers. */
export type ClusterReply =
  | {
      type: 'fetched'
      request: number
      /** The answer's devices (GCJ-02), or null: not a code-0 answer, or the fetch failed. */
      layer: (ClusterPoints & { unplaced: number }) | null
      timing: FetchTiming | null
    }
  | { type: 'loaded'; generation: number; count: number; features: Feature<Point>[] }
  /** A load named a dataset the worker no longer keeps, or a change came with no devices loaded: the map sends the devices. */
  | { type: 'missing'; generation: number }
  | { type: 'clusters'; generation: number; ask: number; features: Feature<Point>[] }
  | { type: 'expanded'; clusterId: number; zoom: number }
