import { Spin } from 'antd'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import type { LatLon } from '../../../components/MapView/datum'
import { MapBoundary } from '../../../components/MapView/MapView'

/** MapLibre loads with the first responder shown, never with the list alone. */
const ResponderMapCanvas = lazy(() => import('./ResponderMapCanvas'))

type Props = { point: LatLon | null; title?: string; height?: number }

/** Where the selected responder lives; a note instead of the pin when no position is known. */
export function ResponderMap({ point, title, height = 420 }: Props) {
  const { t } = useTranslation()
  return (
    <div className="map-view responder-map" style={{ height }} data-testid="responder-map">
      <MapBoundary fallback={<div className="map-view-message">{t('map.unavailable')}</div>}>
        <Suspense
          fallback={
            <div className="map-view-message">
              <Spin size="small" /> {t('map.loading')}
            </div>
          }
        >
          <ResponderMapCanvas point={point} title={title} />
        </Suspense>
      </MapBoundary>
      {!point && <div className="responder-map-note">{t('responder.noPosition')}</div>}
    </div>
  )
}
