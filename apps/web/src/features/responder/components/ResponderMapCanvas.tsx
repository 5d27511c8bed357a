import { type Map as MapLibre, Marker } from 'maplibre-gl'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createMap, datum, markerElement } from '../../../components/MapView/createMap'
import type { LatLon } from '../../../components/MapView/datum'
import { toDisplay } from '../../../components/MapView/datum'
import { mapHome } from '../../../lib/browserPosition'
import { leaveMap, type ParkedMap, takeParkedMap } from './mapHolder'

/** The spec's map zoom, at which the selected responder is shown. */
const RESPONDER_ZOOM = 13

type Props = { point: LatLon | null; title?: string }

/** A new map in a fresh element, or the one parked by a previous visit. */
function openMap(host: HTMLElement, center: LatLon): ParkedMap {
  const reused = takeParkedMap()
  if (reused) {
    host.append(reused.element)
    reused.map.resize()
    return reused
  }
  const element = document.createElement('div')
  element.className = 'responder-map-element'
  host.append(element)
  try {
    return { map: createMap(element, { center, zoom: RESPONDER_ZOOM }), element }
  } catch (error) {
    element.remove()
    throw error
  }
}

/** The MapLibre map under the responder list: the selected responder's pin, kept across the emergency call page. */
export default function ResponderMapCanvas({ point, title }: Props) {
  const { t } = useTranslation()
  const host = useRef<HTMLDivElement>(null)
  const [map, setMap] = useState<MapLibre | null>(null)
  const [failed, setFailed] = useState(false)

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is opened once; the point effect moves it
  useEffect(() => {
    if (!host.current) return
    let opened: ParkedMap
    try {
      opened = openMap(host.current, point ?? mapHome())
    } catch {
      setFailed(true)
      return
    }
    setMap(opened.map)
    // The router has moved to the next route by the time the page unmounts.
    return () => leaveMap(opened, window.location.pathname)
  }, [])

  const lat = point?.lat
  const lon = point?.lon
  useEffect(() => {
    if (!map || lat === undefined || lon === undefined) return
    const at = toDisplay({ lat, lon }, datum)
    const marker = new Marker({ element: markerElement('#f5222d', title), anchor: 'bottom' })
      .setLngLat(at)
      .addTo(map)
    map.flyTo({ center: at, zoom: RESPONDER_ZOOM, essential: true, duration: 600 })
    return () => void marker.remove()
  }, [map, lat, lon, title])

  if (failed) return <div className="map-view-message">{t('map.unavailable')}</div>
  return <div ref={host} className="map-canvas" data-testid="responder-map-canvas" />
}
