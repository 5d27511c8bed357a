import { LiveType } from '@aed/contracts/live'
import type { Map as MapLibre } from 'maplibre-gl'
import { Marker, Popup } from 'maplibre-gl'
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { labelPoint } from '../../../components/MapView/chinaBasemap'
import {
  createMap,
  datum,
  markerElement,
  setBasemapObstacles,
  tiles,
} from '../../../components/MapView/createMap'
import { type LatLon, toDisplay } from '../../../components/MapView/datum'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { type CanvasDevices, type CanvasHit, drawCanvasDevices } from './canvasDevices'
import { type ClusterClient, clusterClient } from './clusterClient'
import type { ClusterView } from './clusterProtocol'
import { type DeviceLayer, indexOfLayer } from './deviceLayer'
import { applyChanges, clusterObstacles, type DeviceIndex, type StatusChange } from './deviceSource'
import type { MarkerPoint, MarkerSet } from './mapLayers'
import { COUNTRY_VIEW, type PlaceIndex, regionCentre, toMapZoom, zoomFor } from './regionView'

/** Pushed status changes are applied together at most this often (one re-cluster per batch). */
export const LIVE_BATCH_MS = 1000
/** The view asked of the cluster worker reaches this far past each edge, so a pan shows no gap. */
const VIEW_MARGIN = 0.5
const show = (p: LatLon) => toDisplay(p, datum)

/** What a click opened: a device's popup or a marker's. */
export type MapTarget = { kind: 'device'; id: number } | { kind: 'marker'; layer: string; point: MarkerPoint }

/** The event the page highlights: where, and how it is titled. */
export type MapFocus = { key: string; lon: number; lat: number; title: string; color: string }

type Props = {
  /** The chosen region (code and name) and a key that changes with each choice: the map flies there. */
  region: { code: string | undefined; name: string | undefined; key: number }
  /** The statuses ticked in the legend. */
  statuses: readonly number[]
  /** The device layer of the region and statuses, and the region code it answers. */
  locations: { layer: DeviceLayer; code: string | undefined } | undefined
  /** The ticked marker layers and their points. */
  markers: MarkerSet
  focus: MapFocus | null
  /** A popup's content. */
  renderPopup: (target: MapTarget) => ReactNode
  /** A pushed change named a device the map cannot place in the chosen region: the page may refetch. */
  onUnknownDevice: () => void
}

/**
 * The dashboard's map: every device of the region clustered in the cluster worker (clusters
 * coloured by the worst status inside), single devices coloured by status when zoomed in, the
 * marker layers over them, a popup on click, pushed status changes applied in batches without
 * reloading, and the highlighted event. All of it is drawn on a 2D canvas (canvasDevices.ts),
 * which also finds what a click or the mouse is over; MapLibre keeps the view, popups and pins.
 */
export default function DashboardMap({
  region,
  statuses,
  locations,
  markers,
  focus,
  renderPopup,
  onUnknownDevice,
}: Props) {
  const { t } = useTranslation()
  const container = useRef<HTMLDivElement>(null)
  const mapRef = useRef<MapLibre | null>(null)
  const [loaded, setLoaded] = useState(false)
  const [places, setPlaces] = useState<PlaceIndex | null>(null)
  const [failed, setFailed] = useState(false)
  const [target, setTarget] = useState<MapTarget | null>(null)
  const [drawn, setDrawn] = useState<number | null>(null)
  const popupNode = useMemo(() => document.createElement('div'), [])
  const popup = useRef<Popup | null>(null)
  const index = useRef<DeviceIndex>(new Map())
  const pending = useRef<StatusChange[]>([])
  const clusters = useRef<ClusterClient | null>(null)
  const canvasRef = useRef<CanvasDevices | null>(null)
  const latest = useRef({ statuses, region, onUnknownDevice })
  latest.current = { statuses, region, onUnknownDevice }

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is made once
  useEffect(() => {
    const client = clusterClient()
    if (!container.current) return
    if (!client) {
      setFailed(true)
      return
    }
    let map: MapLibre
    try {
      map = createMap(container.current, COUNTRY_VIEW, (basemap) =>
        setPlaces({
          provinces: new Map(
            basemap.provinces.features.map((f) => [String(f.properties?.code), labelPoint(f.geometry)]),
          ),
          cities: basemap.cities.features.map((f) => ({
            name: String(f.properties?.name),
            at: f.geometry.coordinates as [number, number],
          })),
        }),
      )
    } catch {
      setFailed(true)
      return
    }
    mapRef.current = map
    const canvas = drawCanvasDevices(map, show)
    canvasRef.current = canvas
    // Without raster tiles the WebGL canvas shows nothing: the devices are on the 2D canvas.
    // Hidden, the browser no longer composites it, which without a GPU meant reading it back from
    // SwiftShader in every frame (frames up to 117 ms while panning: docs/benchmarks.md, session 10).
    if (!tiles) {
      map.getCanvas().style.visibility = 'hidden'
      container.current.classList.add('map-canvas-2d')
    }
    client.onClusters = (features) => {
      canvas.setDevices(features)
      // The basemap's names keep clear of the clusters, whose counts would be drawn over them.
      setBasemapObstacles(map, clusterObstacles(features))
    }
    clusters.current = client
    // Only a build for tests (VITE_TEST_HOOKS=1) shows the map to the journeys and the benchmark;
    // otherwise Vite drops exposeForTests and its window names from the bundle.
    const unexpose = import.meta.env.VITE_TEST_HOOKS ? exposeForTests(map, canvas) : undefined
    popup.current = new Popup({ closeButton: true, maxWidth: '320px', offset: 12 }).setDOMContent(popupNode)
    popup.current.on('close', () => setTarget(null))
    // The content arrives after the popup is placed (the device is fetched on click): once it has
    // its size the popup is placed again and the map moves just enough to show it whole.
    const refit = new ResizeObserver(() => {
      const open = popup.current
      if (!open?.isOpen() || !container.current) return
      open.setLngLat(open.getLngLat())
      const box = open.getElement().getBoundingClientRect()
      const area = container.current.getBoundingClientRect()
      const over = (low: number, high: number, min: number, max: number) =>
        low < min + 8 ? low - min - 8 : high > max - 8 ? Math.min(high - max + 8, low - min - 8) : 0
      const dx = over(box.left, box.right, area.left, area.right)
      const dy = over(box.top, box.bottom, area.top, area.bottom)
      if (dx || dy) map.panBy([dx, dy], { duration: 200 })
    })
    refit.observe(popupNode)
    map.on('move', () => askView(map))
    // A click opens what is drawn on top under the mouse: a device's popup or a marker's, or
    // zooms into a cluster.
    map.on('click', (e) => {
      const hit = canvas.hitsAt(e.point)[0]
      if (!hit) return
      if (hit.kind === 'cluster') void zoomIntoCluster(map, clusters.current, hit)
      else if (hit.kind === 'device') open(map, hit.at, { kind: 'device', id: Number(hit.feature.id) })
      else open(map, hit.at, { kind: 'marker', layer: hit.layer, point: hit.point })
    })
    // The hand says a click there does something: nothing else on the canvas tells.
    let hand = false
    map.on('mousemove', (e) => {
      // While the map is dragged or eased nothing is looked up, and MapLibre's grabbing hand shows.
      const over = !map.isMoving() && canvas.hitsAt(e.point).length > 0
      if (over === hand) return
      hand = over
      map.getCanvasContainer().style.cursor = over ? 'pointer' : ''
    })
    map.on('load', () => setLoaded(true))
    return () => {
      refit.disconnect()
      client.clear()
      clusters.current = null
      canvas.remove()
      canvasRef.current = null
      popup.current?.remove()
      unexpose?.()
      map.remove()
      mapRef.current = null
    }
  }, [])

  const open = (map: MapLibre, at: [number, number], next: MapTarget) => {
    popup.current?.setLngLat(at).addTo(map)
    setTarget(next)
  }

  // A new answer replaces the devices: indexed in the cluster worker (while the map loads, the
  // first time), the view's clusters drawn, and counted once the map is idle again.
  useEffect(() => {
    const map = mapRef.current
    const client = clusters.current
    if (!map || !client || !locations) return
    performance.mark('dashboard:data')
    setDrawn(null)
    let current = true
    const loading = client.load(locations.layer, viewOf(map))
    // Changes pushed while the answer was on its way are kept: applied over it, they only repeat
    // what it may already say. (Built while the worker indexes.)
    index.current = indexOfLayer(locations.layer)
    void loading.then(() => {
      if (!current) return
      performance.mark('dashboard:indexed')
      // The canvas has drawn them: counted once the map's next frame is out.
      map.once('idle', () => {
        if (!current) return
        performance.mark('dashboard:drawn')
        setDrawn(index.current.size)
      })
      map.triggerRepaint()
    })
    return () => {
      current = false
    }
  }, [locations])

  /** Asks the worker for the clusters of the view, unless those asked last still cover it. */
  const askView = (map: MapLibre) => {
    const client = clusters.current
    const b = map.getBounds()
    if (!client || client.covers([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], map.getZoom()))
      return
    client.query(viewOf(map, b))
  }

  // Pushed status changes, applied in batches: one re-cluster in the worker (and one redraw) per
  // batch however many devices changed.
  useLiveFrames(LiveType.DEVICE_STATUS, (frame) => {
    const d = frame.data
    pending.current.push({ id: d.device_id, s: d.shown_status ?? d.status, lon: d.lon, lat: d.lat })
  })
  useEffect(() => {
    if (!loaded) return
    const timer = setInterval(() => {
      const map = mapRef.current
      const client = clusters.current
      if (!map || !client || pending.current.length === 0 || !locations) return
      const changes = pending.current
      pending.current = []
      const { statuses: ticked, region: chosen, onUnknownDevice: unknown } = latest.current
      const diff = applyChanges(index.current, changes, new Set(ticked), !chosen.code)
      const missed = changes.some((c) => !index.current.has(c.id) && ticked.includes(c.s))
      if (diff.unplaced > 0 || (chosen.code && missed)) unknown()
      if (diff.update.length + diff.add.length + diff.remove.length === 0) return
      void client.change(diff, index.current, viewOf(map)).then(() => setDrawn(index.current.size))
    }, LIVE_BATCH_MS)
    return () => clearInterval(timer)
  }, [loaded, locations])

  // Flies to a newly chosen region: its basemap place, else (districts) the middle of its devices
  // once they have arrived.
  // The map opens on the country view: region 0 needs no flight (an 800 ms animation for nothing).
  const flown = useRef<number | null>(0)
  useEffect(() => {
    const map = mapRef.current
    if (!map || !loaded || flown.current === region.key) return
    const hasData = locations && locations.code === region.code
    const points = hasData ? [...index.current.values()].map((d): [number, number] => [d.lon, d.lat]) : []
    const centre = regionCentre(region.code, region.name, places, points)
    if (!centre) {
      if (hasData) flown.current = region.key
      return
    }
    flown.current = region.key
    map.flyTo({ center: show(centre), zoom: zoomFor(region.code), essential: true, duration: 800 })
  }, [region, places, loaded, locations])

  // Marker layers, redrawn when the ticked layers or their points change.
  useEffect(() => {
    canvasRef.current?.setMarkers(markers)
  }, [markers])

  // The highlighted event: a pin that pulses, and the map pans there.
  useEffect(() => {
    const map = mapRef.current
    if (!map || !loaded || !focus) return
    const el = markerElement(focus.color, focus.title)
    el.classList.add('map-marker-focus')
    el.dataset.testid = 'dashboard-focus-marker'
    const pin = new Marker({ element: el, anchor: 'bottom' }).setLngLat(show(focus)).addTo(map)
    map.flyTo({ center: show(focus), zoom: toMapZoom(16), essential: true, duration: 800 })
    return () => {
      pin.remove()
    }
  }, [loaded, focus])

  if (failed) return <div className="map-view-message">{t('map.unavailable')}</div>
  return (
    <>
      <div
        ref={container}
        className="map-canvas"
        data-testid="dashboard-map-canvas"
        data-drawn={drawn ?? undefined}
      />
      {target && createPortal(renderPopup(target), popupNode)}
    </>
  )
}

/** The map's view with a margin past each edge, so a pan shows no gap before the next answer. */
function viewOf(map: MapLibre, b = map.getBounds()): ClusterView {
  const dx = (b.getEast() - b.getWest()) * VIEW_MARGIN
  const dy = (b.getNorth() - b.getSouth()) * VIEW_MARGIN
  return {
    bbox: [
      Math.max(-180, b.getWest() - dx),
      Math.max(-85, b.getSouth() - dy),
      Math.min(180, b.getEast() + dx),
      Math.min(85, b.getNorth() + dy),
    ],
    zoom: map.getZoom(),
  }
}

/** Zooms in to where a clicked cluster splits. */
async function zoomIntoCluster(
  map: MapLibre,
  client: ClusterClient | null,
  hit: Extract<CanvasHit, { kind: 'cluster' }>,
) {
  if (!client) return
  const zoom = await client.expand(Number(hit.feature.properties?.cluster_id))
  map.easeTo({ center: hit.at, zoom })
}

/** What the journeys and the benchmark reach on window. */
type DashboardHooks = {
  __aedDashboardMap?: MapLibre
  /** What is drawn under a pixel of the map, the topmost first. */
  __aedDashboardHits?: (x: number, y: number) => { kind: string; id: number; s?: number }[]
}

/**
 * Puts the map on window for the journeys and the benchmark, which project a device to the
 * screen, move the view and ask what is drawn under a pixel; returns what takes it off again.
 * Called only in a build for tests (VITE_TEST_HOOKS=1).
 */
function exposeForTests(map: MapLibre, canvas: CanvasDevices): () => void {
  const hook = window as unknown as DashboardHooks
  hook.__aedDashboardMap = map
  hook.__aedDashboardHits = (x, y) =>
    canvas.hitsAt({ x, y }).map((h) =>
      h.kind === 'marker'
        ? { kind: h.kind, id: h.point.id }
        : {
            kind: h.kind,
            id: h.kind === 'cluster' ? Number(h.feature.properties?.cluster_id) : Number(h.feature.id),
            s: h.kind === 'device' ? Number(h.feature.properties?.s) : undefined,
          },
    )
  return () => {
    hook.__aedDashboardMap = undefined
    hook.__aedDashboardHits = undefined
  }
}
