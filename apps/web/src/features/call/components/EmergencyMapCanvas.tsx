import type { Map as MapLibre } from 'maplibre-gl'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BROWSE_ZOOM } from '../../../components/MapPicker/MapPicker'
import { createMap, datum } from '../../../components/MapView/createMap'
import { toDisplay } from '../../../components/MapView/datum'
import { mapHome } from '../../../lib/browserPosition'
import { leaveMap, type ParkedMap, takeParkedMap } from '../../responder'
import type { MapFocus, MapLine, MapPoint } from './mapPoints'
import { useMapLines } from './useMapLines'
import { useMapPoints } from './useMapPoints'

type Props = {
  points: readonly MapPoint[]
  lines?: readonly MapLine[]
  focus: MapFocus | null
  onPointClick: (p: MapPoint) => void
}

/** The responder page's map when it was kept for this page, else a new one. */
function openMap(host: HTMLElement, focus: MapFocus | null): ParkedMap {
  const center = focus ?? mapHome()
  const kept = takeParkedMap()
  if (kept) {
    kept.element.classList.add('emergency-map-element')
    host.append(kept.element)
    kept.map.resize()
    kept.map.jumpTo({ center: toDisplay(center, datum), zoom: BROWSE_ZOOM })
    return kept
  }
  const element = document.createElement('div')
  element.className = 'emergency-map-element'
  host.append(element)
  try {
    return { map: createMap(element, { center, zoom: BROWSE_ZOOM }), element }
  } catch (error) {
    element.remove()
    throw error
  }
}

/** The MapLibre map of the emergency page: its points and lines, and a move to each new focus (zoom 13 or closer). */
export default function EmergencyMapCanvas({ points, lines, focus, onPointClick }: Props) {
  const { t } = useTranslation()
  const host = useRef<HTMLDivElement>(null)
  const [map, setMap] = useState<MapLibre | null>(null)
  const [failed, setFailed] = useState(false)

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is opened once; the focus effect moves it
  useEffect(() => {
    if (!host.current) return
    let opened: ParkedMap
    try {
      opened = openMap(host.current, focus)
    } catch {
      setFailed(true)
      return
    }
    setMap(opened.map)
    // The router has moved to the next route by the time the page unmounts.
    return () => leaveMap(opened, window.location.pathname)
  }, [])

  useMapPoints(map, points, onPointClick)
  useMapLines(map, lines)

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new focus key moves the view
  useEffect(() => {
    if (!map || !focus) return
    const zoom = Math.max(map.getZoom(), BROWSE_ZOOM)
    map.flyTo({ center: toDisplay(focus, datum), zoom, essential: true, duration: 600 })
  }, [map, focus?.key])

  if (failed) return <div className="map-view-message">{t('map.unavailable')}</div>
  return <div ref={host} className="map-canvas" data-testid="emergency-map-canvas" />
}
