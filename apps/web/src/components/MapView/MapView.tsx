import { Spin } from 'antd'
import './mapView.css'
import { Component, type CSSProperties, lazy, type ReactNode, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import type { MapViewProps } from './types'

/** MapLibre and its worker load with the first map shown, never with the pages that have none. */
const MapCanvas = lazy(() => import('./MapCanvas'))

/** Shows `fallback` instead of a map that failed to load (its chunk, or WebGL). */
export class MapBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}

/**
 * The console's map: an offline basemap of China's provinces and cities, the configured raster
 * tiles over it (mapTiles.ts), markers in GCJ-02 shifted to the tiles' datum for display.
 */
export function MapView({
  height = 360,
  style,
  testId,
  ...props
}: MapViewProps & { height?: number | string; style?: CSSProperties; testId?: string }) {
  const { t } = useTranslation()
  return (
    <div className="map-view" style={{ height, ...style }} data-testid={testId}>
      <MapBoundary fallback={<div className="map-view-message">{t('map.unavailable')}</div>}>
        <Suspense
          fallback={
            <div className="map-view-message">
              <Spin size="small" /> {t('map.loading')}
            </div>
          }
        >
          <MapCanvas {...props} />
        </Suspense>
      </MapBoundary>
    </div>
  )
}
