import type { CoveragePoint } from '@aed/contracts/coverage'
import { Spin } from 'antd'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { MapBoundary } from '../../../components/MapView/MapView'

/** MapLibre loads with the map, in its own chunk. */
const CoverageMapCanvas = lazy(() => import('./CoverageMapCanvas'))

type Props = { points: CoveragePoint[]; height?: number }

/** The uncovered calls on a map: a red dot each; a click on one shows its time and address. */
export function CoverageMap({ points, height = 420 }: Props) {
  const { t } = useTranslation()
  return (
    <div className="map-view coverage-map" style={{ height }} data-testid="coverage-map">
      <MapBoundary fallback={<div className="map-view-message">{t('map.unavailable')}</div>}>
        <Suspense
          fallback={
            <div className="map-view-message">
              <Spin size="small" /> {t('map.loading')}
            </div>
          }
        >
          <CoverageMapCanvas points={points} />
        </Suspense>
      </MapBoundary>
    </div>
  )
}
