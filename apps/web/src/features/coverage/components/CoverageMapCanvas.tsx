import type { CoveragePoint } from '@aed/contracts/coverage'
import type { Map as MapLibre } from 'maplibre-gl'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type CanvasLayer, canvasLayer } from '../../../components/MapView/canvasLayer'
import { createMap } from '../../../components/MapView/createMap'
import { mapHome } from '../../../lib/browserPosition'
import { dotAt, dotBounds, paintDots, placeDots } from './coverageDots'

/** The closest a fit to the calls zooms: the spec's map zoom. */
const MAX_FIT_ZOOM = 13

/** The MapLibre map of the uncovered calls: dots on a canvas over it, fitted to them; a click picks one. */
export default function CoverageMapCanvas({ points }: { points: CoveragePoint[] }) {
  const { t } = useTranslation()
  const host = useRef<HTMLDivElement>(null)
  const [map, setMap] = useState<MapLibre | null>(null)
  const [failed, setFailed] = useState(false)
  const [selected, setSelected] = useState<CoveragePoint | null>(null)
  const dots = useMemo(() => placeDots(points), [points])
  const latest = useRef({ dots, selected: null as number | null })
  latest.current = { dots, selected: selected?.[0] ?? null }
  const layer = useRef<CanvasLayer | null>(null)

  useEffect(() => {
    if (!host.current) return
    let instance: MapLibre
    try {
      instance = createMap(host.current, { center: mapHome(), zoom: 4 })
    } catch {
      setFailed(true)
      return
    }
    layer.current = canvasLayer(instance, { className: 'map-data-canvas', under: false }, (ctx, view) => {
      paintDots(ctx, view, latest.current.dots, latest.current.selected)
      return undefined
    })
    instance.on('click', (e) => {
      const hit = dotAt((p) => instance.project(p), latest.current.dots, e.point.x, e.point.y)
      setSelected(hit?.point ?? null)
    })
    setMap(instance)
    return () => {
      layer.current?.remove()
      layer.current = null
      instance.remove()
    }
  }, [])

  useEffect(() => {
    setSelected(null)
    const bounds = dotBounds(dots)
    if (map && bounds) map.fitBounds(bounds, { padding: 40, maxZoom: MAX_FIT_ZOOM, duration: 0 })
    layer.current?.redraw()
  }, [map, dots])

  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection is read through `latest`; the change asks for a frame
  useEffect(() => layer.current?.redraw(), [selected])

  if (failed) return <div className="map-view-message">{t('map.unavailable')}</div>
  return (
    <>
      <div ref={host} className="map-canvas" data-testid="coverage-map-canvas" />
      {selected && (
        <div className="coverage-map-card" data-testid="coverage-map-card">
          <div>
            {t('coverage.callTime')}：{selected[3]}
          </div>
          <div>
            {t('coverage.location')}：{selected[4]}
          </div>
        </div>
      )}
    </>
  )
}
