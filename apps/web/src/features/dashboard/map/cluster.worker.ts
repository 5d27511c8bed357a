/// <reference lib="webworker" />
import { buildClusterIndex } from './clusterIndex'
import type { ClusterReply, ClusterRequest } from './clusterProtocol'

// The device clusters, built off the main thread: the devices arrive as typed arrays (moved, not
// copied), supercluster indexes them once per answer or batch of pushed changes, and each view
// asks for the clusters and single devices inside it (a few hundred features, milliseconds).

const scope = self as unknown as DedicatedWorkerGlobalScope
let index: ReturnType<typeof buildClusterIndex> | null = null
let generation = 0

scope.onmessage = (e: MessageEvent<ClusterRequest>) => {
  const m = e.data
  if (m.type === 'load') {
    index = buildClusterIndex(m)
    generation = m.generation
    const features = index.getClusters(m.view.bbox, Math.floor(m.view.zoom))
    reply({ type: 'loaded', generation, count: m.ids.length, features })
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

function reply(r: ClusterReply) {
  scope.postMessage(r)
}
