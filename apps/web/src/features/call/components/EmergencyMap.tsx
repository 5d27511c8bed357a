import { Spin } from 'antd'
import { lazy, type ReactNode, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { MapBoundary } from '../../../components/MapView/MapView'
import { MapLegend } from './MapLegend'
import type { MapFocus, MapLine, MapPoint } from './mapPoints'

/** MapLibre loads with the page's first map, never with the lists alone. */
const EmergencyMapCanvas = lazy(() => import('./EmergencyMapCanvas'))

type Props = {
  points: readonly MapPoint[]
  /** The dispatched responders' ways. */
  lines?: readonly MapLine[]
  focus: MapFocus | null
  onPointClick: (p: MapPoint) => void
  /** Drawn over the map's right side (the selected call's details). */
  children?: ReactNode
}

/** The emergency page's map with its legend, and what the page lays over it. */
export function EmergencyMap({ points, lines, focus, onPointClick, children }: Props) {
  const { t } = useTranslation()
  return (
    <div className="map-view emergency-map" data-testid="emergency-map">
      <MapBoundary fallback={<div className="map-view-message">{t('map.unavailable')}</div>}>
        <Suspense
          fallback={
            <div className="map-view-message">
              <Spin size="small" /> {t('map.loading')}
            </div>
          }
        >
          <EmergencyMapCanvas points={points} lines={lines} focus={focus} onPointClick={onPointClick} />
        </Suspense>
      </MapBoundary>
      <MapLegend />
      {children}
    </div>
  )
}
