import { type Map as MapLibre, Marker } from 'maplibre-gl'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createMap, datum, markerElement } from './createMap'
import { fromDisplay, toDisplay } from './datum'
import type { MapViewProps } from './types'

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
      instance = createMap(container.current, { center, zoom })
    } catch {
      setFailed(true)
      return
    }
    instance.on('click', (e) => handlers.current.onPick?.(fromDisplay(e.lngLat, datum)))
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
