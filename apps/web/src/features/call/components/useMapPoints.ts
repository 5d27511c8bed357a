import { type Map as MapLibre, Marker } from 'maplibre-gl'
import { useEffect, useRef } from 'react'
import { datum, markerElement } from '../../../components/MapView/createMap'
import { toDisplay } from '../../../components/MapView/datum'
import { KIND_HEX, type MapPoint } from './mapPoints'

type Placed = { marker: Marker; element: HTMLElement }

/** Draws `points` on `map` as pins in their category's colour, the active one larger and on top, strong ones ringed, faint ones pale. */
export function useMapPoints(
  map: MapLibre | null,
  points: readonly MapPoint[],
  onClick: (p: MapPoint) => void,
) {
  const placed = useRef(new Map<string, Placed>())
  const latest = useRef(onClick)
  latest.current = onClick
  const byKey = useRef(new Map<string, MapPoint>())

  useEffect(() => {
    if (!map) return
    const shown = placed.current
    byKey.current = new Map(points.map((p) => [p.key, p]))
    for (const [key, { marker }] of shown) {
      if (!byKey.current.has(key)) {
        marker.remove()
        shown.delete(key)
      }
    }
    for (const p of points) {
      let entry = shown.get(p.key)
      if (!entry) {
        const element = markerElement(KIND_HEX[p.kind] ?? '#1677ff', p.title)
        element.dataset.kind = String(p.kind)
        element.addEventListener('click', (e) => {
          e.stopPropagation()
          const current = byKey.current.get(p.key)
          if (current) latest.current(current)
        })
        entry = {
          element,
          marker: new Marker({ element, anchor: 'bottom' }).setLngLat(toDisplay(p, datum)).addTo(map),
        }
        shown.set(p.key, entry)
      }
      entry.marker.setLngLat(toDisplay(p, datum))
      entry.element.title = p.title
      entry.element.classList.toggle('emergency-marker-active', Boolean(p.active))
      entry.element.classList.toggle('emergency-marker-strong', p.emphasis === 'strong')
      entry.element.classList.toggle('emergency-marker-faint', p.emphasis === 'faint')
    }
  }, [map, points])

  useEffect(() => {
    const shown = placed.current
    return () => {
      for (const { marker } of shown.values()) marker.remove()
      shown.clear()
    }
  }, [])
}
