import 'maplibre-gl/dist/maplibre-gl.css'
import type { GeoJSON } from 'geojson'
import {
  type GeoJSONSource,
  Map as MapLibre,
  Marker,
  NavigationControl,
  ScaleControl,
  setWorkerUrl,
} from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { loadChinaBasemap } from './chinaBasemap'
import { fromDisplay, toDisplay } from './datum'
import { LOCAL_FONTS, mapStyle } from './mapStyle'
import { tileService } from './mapTiles'
import type { MapViewProps } from './types'

setWorkerUrl(workerUrl)

const tiles = tileService()
const datum = tiles?.datum ?? 'gcj02'

const MARKER_SVG =
  '<svg width="26" height="34" viewBox="0 0 26 34" aria-hidden="true"><path d="M13 0C5.8 0 0 5.6 0 12.6 0 22 13 34 13 34S26 22 26 12.6C26 5.6 20.2 0 13 0Z" fill="currentColor"/><circle cx="13" cy="12.5" r="5" fill="#fff"/></svg>'

function markerElement(color: string, title: string | undefined) {
  const el = document.createElement('div')
  el.className = 'map-marker'
  el.style.color = color
  el.innerHTML = MARKER_SVG
  if (title) el.title = title
  return el
}

/** The MapLibre map behind MapView: basemap, markers, clicks and drags in GCJ-02. */
export default function MapCanvas({
  center,
  zoom = 13,
  viewKey,
  markers = [],
  onPick,
  onMarkerDrag,
  onMarkerClick,
}: MapViewProps) {
  const { t } = useTranslation()
  const container = useRef<HTMLDivElement>(null)
  const map = useRef<MapLibre | null>(null)
  const placed = useRef(new Map<string | number, Marker>())
  const handlers = useRef({ onPick, onMarkerDrag, onMarkerClick })
  handlers.current = { onPick, onMarkerDrag, onMarkerClick }
  const [failed, setFailed] = useState(false)

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is made once; viewKey moves it
  useEffect(() => {
    if (!container.current) return
    let instance: MapLibre
    try {
      instance = new MapLibre({
        container: container.current,
        style: mapStyle(tiles),
        center: toDisplay(center, datum),
        zoom,
        minZoom: 2,
        maxZoom: 18,
        localIdeographFontFamily: LOCAL_FONTS,
        attributionControl: { compact: true },
        dragRotate: false,
        pitchWithRotate: false,
      })
    } catch {
      setFailed(true)
      return
    }
    instance.addControl(new NavigationControl({ showCompass: false }), 'top-right')
    instance.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left')
    instance.touchZoomRotate.disableRotation()
    instance.on('click', (e) => handlers.current.onPick?.(fromDisplay(e.lngLat, datum)))
    instance.on('load', async () => {
      const basemap = await loadChinaBasemap()
      const set = (id: string, data: GeoJSON) =>
        (instance.getSource(id) as GeoJSONSource | undefined)?.setData(data)
      set('china-provinces', basemap.provinces)
      set('china-outline', basemap.outline)
      set('china-province-labels', basemap.provinceLabels)
      set('china-cities', basemap.cities)
    })
    map.current = instance
    const shown = placed.current
    return () => {
      for (const m of shown.values()) m.remove()
      shown.clear()
      instance.remove()
      map.current = null
    }
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new viewKey moves the view
  useEffect(() => {
    if (viewKey === undefined) return
    map.current?.flyTo({ center: toDisplay(center, datum), zoom, essential: true, duration: 600 })
  }, [viewKey])

  useEffect(() => {
    const instance = map.current
    if (!instance) return
    const shown = placed.current
    const wanted = new Set(markers.map((m) => m.id))
    for (const [id, m] of shown) {
      if (!wanted.has(id)) {
        m.remove()
        shown.delete(id)
      }
    }
    for (const m of markers) {
      const at = toDisplay(m, datum)
      const existing = shown.get(m.id)
      if (existing) {
        existing.setLngLat(at).setDraggable(Boolean(m.draggable))
        continue
      }
      const el = markerElement(m.color ?? '#1677ff', m.title)
      el.addEventListener('click', (e) => {
        e.stopPropagation()
        handlers.current.onMarkerClick?.(m.id)
      })
      const marker = new Marker({ element: el, draggable: Boolean(m.draggable), anchor: 'bottom' })
        .setLngLat(at)
        .addTo(instance)
      marker.on('dragend', () =>
        handlers.current.onMarkerDrag?.(m.id, fromDisplay(marker.getLngLat(), datum)),
      )
      shown.set(m.id, marker)
    }
  }, [markers])

  if (failed) return <div className="map-view-message">{t('map.unavailable')}</div>
  return (
    <div
      ref={container}
      className={onPick ? 'map-canvas map-canvas-pick' : 'map-canvas'}
      data-testid="map-canvas"
    />
  )
}
