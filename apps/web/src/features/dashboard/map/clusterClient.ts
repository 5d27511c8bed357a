import { MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import type { Feature, Point } from 'geojson'
import { tileService } from '../../../components/MapView/mapTiles'
import { toDisplayPoints } from './clusterPoints'
import type {
  ClusterOptions,
  ClusterPoints,
  ClusterReply,
  ClusterRequest,
  ClusterView,
} from './clusterProtocol'
import type { DeviceLayer } from './deviceLayer'
import { type DeviceIndex, rankOf, type SourceDiff } from './deviceSource'

/** Cluster radius in pixels and the last zoom that clusters (past it devices are drawn one by one). */
export const CLUSTER = { radius: 56, maxZoom: 13 } as const

/** The index level a zoom draws (the worker's `getClusters` floors it); past maxZoom, points only. */
const clusterLevel = (zoom: number) => Math.min(Math.floor(zoom), CLUSTER.maxZoom + 1)

/** Whether the clusters of `asked` serve `bounds` (west, south, east, north) at `zoom`. */
export function viewCovers(
  asked: ClusterView | null,
  bounds: [number, number, number, number],
  zoom: number,
): boolean {
  if (!asked || clusterLevel(asked.zoom) !== clusterLevel(zoom)) return false
  const [w, s, e, n] = asked.bbox
  return bounds[0] >= w && bounds[1] >= s && bounds[2] <= e && bounds[3] <= n
}

/** Rank of badness per status, index = status: fault 4, offset 3, offline 2, warning 1, normal 0. */
export const RANKS: number[] = MAP_DEVICE_STATUSES.map(rankOf)

const OPTIONS: ClusterOptions = { ranks: RANKS, radius: CLUSTER.radius, maxZoom: CLUSTER.maxZoom }
/** The map's datum (as createMap's, without loading MapLibre with the page). */
const DATUM = tileService()?.datum ?? 'gcj02'

/** A device layer as the worker read it, or null (not a code-0 answer, failed, aborted). */
export type Fetched = { layer: DeviceLayer; timing: Extract<ClusterReply, { type: 'fetched' }>['timing'] }

/**
 * The page's side of the cluster worker: fetches and reads the device layer there (the main thread
 * gets typed arrays, not 2.5 MB of JSON), loads devices to cluster (a fetched answer by its number,
 * else as typed arrays, transferred), asks for a view's clusters with at most one question in
 * flight (a newer view replaces one that waits), and answers a cluster's expansion zoom.
 */
export class ClusterClient {
  private worker: Worker
  private requests = 0
  private generation = 0
  private loaded = 0
  private asked = 0
  private inFlight = false
  private waiting: ClusterView | null = null
  /** The last view asked for, margin included: what the map draws (or soon will). */
  private askedView: ClusterView | null = null
  private fetches = new Map<number, (f: Fetched | null) => void>()
  private onLoaded = new Map<number, { resolve: () => void; retry: () => void }>()
  private expansions = new Map<number, (zoom: number) => void>()
  /** What `onClusters` got last: an answer the same as it is not given again. */
  private shown: Feature<Point>[] | null = null
  /** Gets every view's clusters (what the map draws), when they differ from the last given. */
  onClusters: ((features: Feature<Point>[]) => void) | null = null

  constructor() {
    this.worker = new Worker(new URL('./cluster.worker.ts', import.meta.url), { type: 'module' })
    this.worker.onmessage = (e: MessageEvent<ClusterReply>) => this.receive(e.data)
  }

  /** Fetches a device layer in the worker; null when it is not a code-0 answer or was aborted. */
  fetch(
    url: string,
    headers: [string, string][],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Fetched | null> {
    const request = ++this.requests
    this.post({
      type: 'fetch',
      request,
      url,
      headers,
      timeoutMs,
      statuses: MAP_DEVICE_STATUSES,
      datum: DATUM,
      cluster: OPTIONS,
    })
    signal?.addEventListener('abort', () => this.post({ type: 'abort', request }), { once: true })
    return new Promise((resolve) => this.fetches.set(request, resolve))
  }

  /**
   * Indexes the devices (an answer, or the map's index after pushed changes) and draws `view` from
   * the new index (through `onClusters`); resolves once the worker has.
   */
  load(devices: DeviceLayer | DeviceIndex, view: ClusterView): Promise<void> {
    const generation = ++this.generation
    this.askedView = view
    const send = (points: ClusterPoints) => this.send(generation, points, view)
    // The answer's arrays stay the page's: the worker gets copies.
    const copy = (l: DeviceLayer) => ({
      ids: l.ids.slice(),
      coords: l.coords.slice(),
      statuses: l.statuses.slice(),
    })
    if (devices instanceof Map) send(pointsOf(devices))
    else if (devices.dataset !== null) {
      this.post({ type: 'load', generation, devices: { dataset: devices.dataset }, cluster: OPTIONS, view })
    } else send(copy(devices))
    return new Promise((resolve) =>
      this.onLoaded.set(generation, {
        resolve,
        retry: () => send(devices instanceof Map ? pointsOf(devices) : copy(devices)),
      }),
    )
  }

  /**
   * Sends a batch of pushed changes (`diff`, applied to `index` already) for the worker to apply
   * to the devices it has and index again, and draws `view` from the new index; resolves once the
   * worker has. Only the changed devices cross, not all 100,000 (the whole `index` goes only
   * when the worker has no devices to change).
   */
  change(diff: SourceDiff, index: DeviceIndex, view: ClusterView): Promise<void> {
    const generation = ++this.generation
    this.askedView = view
    const changed = [
      ...diff.update.flatMap(({ id }) => {
        const d = index.get(id)
        return d ? [[id, d] as const] : []
      }),
      ...diff.add.map(({ id, d }) => [id, d] as const),
    ]
    const set = toDisplayPoints(pointsOf(new Map(changed)), DATUM)
    const remove = Int32Array.from(diff.remove)
    this.post({ type: 'change', generation, set, remove, cluster: OPTIONS, view }, [
      set.ids.buffer,
      set.coords.buffer,
      set.statuses.buffer,
      remove.buffer,
    ])
    return new Promise((resolve) =>
      this.onLoaded.set(generation, {
        resolve,
        retry: () => this.send(generation, pointsOf(index), view),
      }),
    )
  }

  /**
   * Whether the clusters already asked for cover `bounds` (west, south, east, north) at `zoom`:
   * the same clustering level, and inside the last view with its margin. A drag within that
   * margin then needs no new clusters, and the map's devices are not set again at every move.
   */
  covers(bounds: [number, number, number, number], zoom: number): boolean {
    return viewCovers(this.askedView, bounds, zoom)
  }

  /** Asks for the clusters of a view; answered through `onClusters`. */
  query(view: ClusterView) {
    this.askedView = view
    if (this.inFlight) {
      this.waiting = view
      return
    }
    this.inFlight = true
    this.post({ type: 'query', ask: ++this.asked, ...view })
  }

  /** The zoom where a cluster splits. */
  expand(clusterId: number): Promise<number> {
    this.post({ type: 'expand', clusterId })
    return new Promise((resolve) => this.expansions.set(clusterId, resolve))
  }

  /** Frees the worker's answers and index (the map is gone; the worker stays for the next). */
  clear() {
    this.onClusters = null
    this.askedView = null
    this.shown = null
    this.post({ type: 'clear' })
  }

  // A batch of pushed changes re-indexes every device, but mostly changes nothing in view (a
  // cluster's worst status stays): drawing them anyway redraws the same and moves no name.
  private draw(features: Feature<Point>[]) {
    if (this.shown && sameFeatures(this.shown, features)) return
    this.shown = features
    this.onClusters?.(features)
  }

  /** Loads devices (GCJ-02) in the worker, moved to it in display coordinates. */
  private send(generation: number, points: ClusterPoints, view: ClusterView) {
    const shown = toDisplayPoints(points, DATUM)
    this.post({ type: 'load', generation, devices: shown, cluster: OPTIONS, view }, [
      shown.ids.buffer,
      shown.coords.buffer,
      shown.statuses.buffer,
    ])
  }

  private post(m: ClusterRequest, transfer: Transferable[] = []) {
    this.worker.postMessage(m, transfer)
  }

  private receive(r: ClusterReply) {
    if (r.type === 'fetched') {
      const layer = r.layer && { ...r.layer, dataset: r.request }
      this.fetches.get(r.request)?.(layer && { layer, timing: r.timing })
      this.fetches.delete(r.request)
    } else if (r.type === 'missing') {
      this.onLoaded.get(r.generation)?.retry()
    } else if (r.type === 'loaded') {
      this.loaded = r.generation
      if (r.generation === this.generation) this.draw(r.features)
      this.onLoaded.get(r.generation)?.resolve()
      this.onLoaded.delete(r.generation)
    } else if (r.type === 'clusters') {
      this.inFlight = false
      // An answer from an index since replaced would draw devices as they were: dropped.
      if (r.generation === this.loaded && r.generation === this.generation) this.draw(r.features)
      const next = this.waiting
      this.waiting = null
      if (next) this.query(next)
    } else {
      this.expansions.get(r.clusterId)?.(r.zoom)
      this.expansions.delete(r.clusterId)
    }
  }
}

/** Whether two answers draw the same: the same features in the same order, places and properties. */
export function sameFeatures(a: Feature<Point>[], b: Feature<Point>[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]
    const y = b[i]
    if (x.id !== y.id) return false
    const [x0, x1] = x.geometry.coordinates
    const [y0, y1] = y.geometry.coordinates
    if (x0 !== y0 || x1 !== y1) return false
    const p = x.properties ?? {}
    const q = y.properties ?? {}
    const keys = Object.keys(p)
    if (keys.length !== Object.keys(q).length) return false
    for (const k of keys) if (p[k] !== q[k]) return false
  }
  return true
}

/** The devices of the map's index as arrays, in its order. */
function pointsOf(index: DeviceIndex): ClusterPoints {
  const n = index.size
  const points = { ids: new Int32Array(n), coords: new Float64Array(2 * n), statuses: new Uint8Array(n) }
  let i = 0
  for (const [id, d] of index) {
    points.ids[i] = id
    points.coords[2 * i] = d.lon
    points.coords[2 * i + 1] = d.lat
    points.statuses[i] = d.s
    i++
  }
  return points
}

let shared: ClusterClient | null = null

/** The dashboard's one cluster worker (null where workers are missing: tests, old browsers). */
export function clusterClient(): ClusterClient | null {
  if (typeof Worker === 'undefined') return null
  shared ??= new ClusterClient()
  return shared
}
