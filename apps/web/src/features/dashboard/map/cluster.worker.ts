/// <reference lib="webworker" />
import type { DeviceLocations } from '@aed/contracts/dashboard'
import { buildClusterIndex } from './clusterIndex'
import { toDisplayPoints, withChanges } from './clusterPoints'
import type { ClusterPoints, ClusterReply, ClusterRequest, ClusterView, FetchTiming } from './clusterProtocol'
import { layerOf } from './deviceLayer'

// The device clusters, built off the main thread. The device layer's answer (2.5 MB of JSON at
// 100,000 devices) is fetched and read here, kept, and indexed at once, while the map may still be
// loading; the page gets the devices back as typed arrays. supercluster indexes them once per
// answer or batch of pushed changes, and each view asks for the clusters and single devices inside
// it (a few hundred features, milliseconds).

const scope = self as unknown as DedicatedWorkerGlobalScope
type Index = ReturnType<typeof buildClusterIndex>
/** Fetched answers by request number, the newest last (two kept: the shown one and its successor). */
const datasets = new Map<number, ClusterPoints>()
/** A fetched answer's devices (GCJ-02) and its count of devices without a place. */
type ReadLayer = ClusterPoints & { unplaced: number }
/** The index built ahead for a fetched answer, before the map asks for it. */
let ahead: { dataset: number; index: Index } | null = null
const fetching = new Map<number, AbortController>()
let index: Index | null = null
/** The devices `index` was built from: what a batch of pushed changes applies to. */
let current: ClusterPoints | null = null
let generation = 0

scope.onmessage = (e: MessageEvent<ClusterRequest>) => {
  const m = e.data
  if (m.type === 'fetch') void fetchLayer(m)
  else if (m.type === 'abort') fetching.get(m.request)?.abort()
  else if (m.type === 'load') {
    const points = 'dataset' in m.devices ? datasets.get(m.devices.dataset) : m.devices
    if (!points) {
      // Changes sent after this load must not apply to the devices before it: they wait for it too.
      current = null
      return reply({ type: 'missing', generation: m.generation })
    }
    const built =
      'dataset' in m.devices && ahead?.dataset === m.devices.dataset
        ? ahead.index
        : buildClusterIndex({ ...points, ...m.cluster })
    ahead = null
    loaded(m, points, built)
  } else if (m.type === 'change') {
    if (!current) return reply({ type: 'missing', generation: m.generation })
    const points = withChanges(current, m.set, m.remove)
    loaded(m, points, buildClusterIndex({ ...points, ...m.cluster }))
  } else if (m.type === 'clear') {
    datasets.clear()
    ahead = null
    index = null
    current = null
  } else if (index && m.type === 'query') {
    reply({
      type: 'clusters',
      generation,
      ask: m.ask,
      features: index.getClusters(m.bbox, Math.floor(m.zoom)),
    })
  } else if (index && m.type === 'expand') {
    reply({ type: 'expanded', clusterId: m.clusterId, zoom: index.getClusterExpansionZoom(m.clusterId) })
  }
}

/** The devices of load or change `m` are indexed: kept, and the view's clusters answered. */
function loaded(m: { generation: number; view: ClusterView }, points: ClusterPoints, built: Index) {
  current = points
  index = built
  generation = m.generation
  const features = built.getClusters(m.view.bbox, Math.floor(m.view.zoom))
  reply({ type: 'loaded', generation, count: points.ids.length, features })
}

/**
 * Fetches an answer; a code-0 answer is sent back as typed arrays, kept and indexed ahead. Anything
 * else answers null: the page asks again through its own request client, which shows the error.
 */
async function fetchLayer(m: Extract<ClusterRequest, { type: 'fetch' }>) {
  const controller = new AbortController()
  fetching.set(m.request, controller)
  const timer = setTimeout(() => controller.abort(), m.timeoutMs)
  let points: ReadLayer | null = null
  try {
    const response = await fetch(m.url, { headers: m.headers, signal: controller.signal })
    if (response.status === 200) points = await read(response, m.statuses)
  } catch {
    // Aborted, offline or unreadable: the page's request client tells which.
  } finally {
    clearTimeout(timer)
    fetching.delete(m.request)
  }
  if (!points || controller.signal.aborted) {
    return reply({ type: 'fetched', request: m.request, layer: null, timing: null })
  }
  reply({ type: 'fetched', request: m.request, layer: points, timing: timingOf(m.url) })
  const shown = toDisplayPoints(points, m.datum)
  keep(m.request, shown)
  ahead = { dataset: m.request, index: buildClusterIndex({ ...shown, ...m.cluster }) }
}

/** The devices of a code-0 answer, else null. */
async function read(response: Response, statuses: readonly number[]): Promise<ReadLayer | null> {
  const body = (await response.json()) as { code?: unknown; data?: unknown }
  if (body?.code !== 0 || !isLocations(body.data, statuses)) return null
  const { ids, coords, statuses: s, unplaced } = layerOf(body.data, statuses)
  return { ids, coords, statuses: s, unplaced }
}

function keep(dataset: number, points: ClusterPoints) {
  datasets.set(dataset, points)
  for (const old of datasets.keys()) if (datasets.size > 2) datasets.delete(old)
}

function isLocations(data: unknown, statuses: readonly number[]): data is DeviceLocations {
  const d = data as Record<string, unknown> | null
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.unplaced === 'number' &&
    statuses.every((s) => Array.isArray(d[String(s)]))
  )
}

/** The request's resource timing, in epoch milliseconds (the page converts it to its own clock). */
function timingOf(url: string): FetchTiming | null {
  const entries = performance.getEntriesByName(new URL(url, scope.location.href).href, 'resource')
  const e = entries.at(-1) as PerformanceResourceTiming | undefined
  if (!e) return null
  performance.clearResourceTimings()
  return {
    responseEnd: performance.timeOrigin + e.responseEnd,
    transferSize: e.transferSize,
    encodedBodySize: e.encodedBodySize,
    decodedBodySize: e.decodedBodySize,
  }
}

function reply(r: ClusterReply) {
  scope.postMessage(r)
}
