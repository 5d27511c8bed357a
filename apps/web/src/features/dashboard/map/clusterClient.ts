import { MAP_DEVICE_STATUSES } from '@aed/contracts/analysis-board'
import type { Feature, Point } from 'geojson'
import type { LatLon } from '../../../components/MapView/datum'
import type { ClusterReply, ClusterRequest, ClusterView } from './clusterProtocol'
import { type DeviceIndex, rankOf } from './deviceSource'

/** Cluster radius in pixels and the last zoom that clusters (past it devices are drawn one by one). */
export const CLUSTER = { radius: 56, maxZoom: 13 } as const

/** Rank of badness per status, index = status: fault 4, offset 3, offline 2, warning 1, normal 0. */
export const RANKS: number[] = MAP_DEVICE_STATUSES.map(rankOf)

/**
 * The map's side of the cluster worker: loads the drawn devices as typed arrays (transferred, so
 * 100,000 devices cross in no time), asks for a view's clusters with at most one question in
 * flight (a newer view replaces one that waits), and answers a cluster's expansion zoom.
 */
export class ClusterClient {
  private worker: Worker
  private generation = 0
  private loaded = 0
  private asked = 0
  private inFlight = false
  private waiting: ClusterView | null = null
  private onLoaded = new Map<number, () => void>()
  private expansions = new Map<number, (zoom: number) => void>()

  constructor(private readonly onClusters: (features: Feature<Point>[]) => void) {
    this.worker = new Worker(new URL('./cluster.worker.ts', import.meta.url), { type: 'module' })
    this.worker.onmessage = (e: MessageEvent<ClusterReply>) => this.receive(e.data)
  }

  /**
   * Indexes the devices (display coordinates from `toDisplay`) and draws `view` from the new index
   * (through `onClusters`); resolves once the worker has.
   */
  load(index: DeviceIndex, toDisplay: (p: LatLon) => [number, number], view: ClusterView): Promise<void> {
    const n = index.size
    const ids = new Int32Array(n)
    const coords = new Float64Array(2 * n)
    const statuses = new Uint8Array(n)
    let i = 0
    for (const [id, d] of index) {
      const [x, y] = toDisplay(d)
      ids[i] = id
      coords[2 * i] = x
      coords[2 * i + 1] = y
      statuses[i] = d.s
      i++
    }
    const generation = ++this.generation
    const request: ClusterRequest = {
      type: 'load',
      generation,
      ids,
      coords,
      statuses,
      ranks: RANKS,
      radius: CLUSTER.radius,
      maxZoom: CLUSTER.maxZoom,
      view,
    }
    this.worker.postMessage(request, [ids.buffer, coords.buffer, statuses.buffer])
    return new Promise((resolve) => this.onLoaded.set(generation, resolve))
  }

  /** Asks for the clusters of a view; answered through `onClusters`. */
  query(view: ClusterView) {
    if (this.inFlight) {
      this.waiting = view
      return
    }
    this.inFlight = true
    this.worker.postMessage({ type: 'query', ask: ++this.asked, ...view } satisfies ClusterRequest)
  }

  /** The zoom where a cluster splits. */
  expand(clusterId: number): Promise<number> {
    this.worker.postMessage({ type: 'expand', clusterId } satisfies ClusterRequest)
    return new Promise((resolve) => this.expansions.set(clusterId, resolve))
  }

  terminate() {
    this.worker.terminate()
  }

  private receive(r: ClusterReply) {
    if (r.type === 'loaded') {
      this.loaded = r.generation
      if (r.generation === this.generation) this.onClusters(r.features)
      this.onLoaded.get(r.generation)?.()
      this.onLoaded.delete(r.generation)
    } else if (r.type === 'clusters') {
      this.inFlight = false
      // An answer from an index since replaced would draw devices as they were: dropped.
      if (r.generation === this.loaded && r.generation === this.generation) this.onClusters(r.features)
      const next = this.waiting
      this.waiting = null
      if (next) this.query(next)
    } else {
      this.expansions.get(r.clusterId)?.(r.zoom)
      this.expansions.delete(r.clusterId)
    }
  }
}
