import { levelOf } from '@aed/contracts'
import { type EventFocusQuery, eventFocusQuery, MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import { Button, Card, Spin } from 'antd'
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { LazyMount } from '../../../components/LazyMount'
import { MapBoundary } from '../../../components/MapView/MapView'
import { throttle } from '../../../lib/throttle'
import '../../../components/MapView/mapView.css'
import type { DeviceDetail, DeviceRef } from '../../../lib/deviceDetail'
import { STATUS_HEX, statusCounts } from '../../../lib/deviceStatus'
import { ApiError } from '../../../lib/errors'
import { useSession } from '../../../lib/useSession'
import { useDashboardStats } from '../api/useDashboardStats'
import { DashboardBars } from '../components/DashboardBars'
import { DashboardStatusColumn } from '../components/DashboardStatusColumn'
import '../dashboard.css'
import { useDeviceLocations, useEventFocus, useMarkerLayers } from '../api/useMapData'
import type { MapFocus, MapTarget } from '../map/DashboardMap'
import { DevicePopupCard, MarkerPopupCard } from '../map/DevicePopupCard'
import { EventFocusCard } from '../map/EventFocusCard'
import { MARKER_LAYERS, type MarkerLayer } from '../map/mapLayers'
import { RegionSelects } from '../map/RegionSelects'
import { regionCode } from '../map/regionView'
import { StatusLegend } from '../map/StatusLegend'

/** MapLibre loads with this page's map, never with the sign-in page. */
const DashboardMap = lazy(() => import('../map/DashboardMap'))

/** How long an event from a message stays highlighted (the spec's ~1800 frames). */
export const FOCUS_HOLD_MS = 30_000
/** A device pushed into view that the map cannot place asks for a reload at most this often. */
const UNKNOWN_RELOAD_MS = 30_000
/** The highlight's colour per event_type: call, rescue, offset, cabinet door. */
const FOCUS_COLORS: Record<number, string> = { 1: '#1677ff', 2: '#cf1322', 3: STATUS_HEX[3], 4: '#fa8c16' }

/** The marker layers the signed-in member may read (a layer's own area, when it has one). */
function useReadableLayers(): readonly MarkerLayer[] {
  const { userInfo } = useSession()
  return useMemo(() => {
    const member = userInfo
      ? { role_type: userInfo.role_type, permissions: userInfo.permissions ?? {} }
      : null
    return MARKER_LAYERS.filter((l) => !l.area || (member !== null && levelOf(member, l.area) !== null))
  }, [userInfo])
}

/** The event in the address (formMsg=1 with event_type and event_id), or null. */
function focusOf(params: URLSearchParams): EventFocusQuery | null {
  if (params.get('formMsg') !== '1') return null
  const parsed = eventFocusQuery.safeParse({
    event_type: params.get('event_type'),
    event_id: params.get('event_id'),
  })
  return parsed.success ? parsed.data : null
}

/**
 * /watchBoard/dashboard: the map of every device of the chosen region with its legend and bars
 * on the left, the status and region statistics on the right; arriving from a message, the
 * event's detail and its highlighted place. A device's detail opens in `DeviceDetail`, which the
 * app hands over (the device feature draws it).
 */
export function DashboardPage({ DeviceDetail }: { DeviceDetail?: DeviceDetail }) {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const [region, setRegion] = useState<{ path: string[]; name: string | undefined; key: number }>({
    path: [],
    name: undefined,
    key: 0,
  })
  const code = regionCode(region.path)
  const [statuses, setStatuses] = useState<number[]>([...MAP_DEVICE_STATUSES])
  const readable = useReadableLayers()
  const [layerKeys, setLayerKeys] = useState<string[]>(() => readable.map((l) => l.key))
  const [detail, setDetail] = useState<DeviceRef | null>(null)

  const focusQuery = useMemo(() => focusOf(params), [params])
  const focus = useEventFocus(focusQuery)
  const [holding, setHolding] = useState(false)
  useEffect(() => {
    if (!focus.data) return
    setHolding(true)
    const timer = setTimeout(() => setHolding(false), FOCUS_HOLD_MS)
    return () => clearTimeout(timer)
  }, [focus.data])
  const mapFocus = useMemo<MapFocus | null>(() => {
    const f = focus.data
    if (!holding || !f || f.lon === null || f.lat === null) return null
    return {
      key: `${f.event_type}:${f.event_id}`,
      lon: f.lon,
      lat: f.lat,
      title: f.title,
      color: FOCUS_COLORS[f.event_type] ?? '#cf1322',
    }
  }, [holding, focus.data])

  const locations = useDeviceLocations(code, statuses, holding)
  const layers = useMemo(() => readable.filter((l) => layerKeys.includes(l.key)), [readable, layerKeys])
  const markers = useMarkerLayers(layers, code, holding)
  const stats = useDashboardStats(code)
  const counts = stats.state.data ? Object.fromEntries(statusCounts(stats.state.data)) : undefined

  const refetch = useRef(locations.refetch)
  refetch.current = locations.refetch
  const reloadForUnknown = useMemo(() => throttle(() => void refetch.current(), UNKNOWN_RELOAD_MS), [])
  useEffect(() => reloadForUnknown.cancel, [reloadForUnknown])

  const renderPopup = (target: MapTarget) =>
    target.kind === 'device' ? (
      <DevicePopupCard
        id={target.id}
        onDetail={(d) =>
          setDetail({ id: d.id, device_sn: d.device_sn, status: d.status, status_text: d.status_text })
        }
      />
    ) : (
      <MarkerPopupCard
        point={target.point}
        layerLabel={t(MARKER_LAYERS.find((l) => l.key === target.layer)?.label ?? '')}
      />
    )

  const closeFocus = () => {
    setHolding(false)
    setParams({}, { replace: true })
  }

  return (
    <div className="page dashboard" data-testid="dashboard-page">
      <div className="dashboard-grid">
        <div className="dashboard-main">
          <Card size="small" className="dashboard-map-card">
            <div className="dashboard-toolbar">
              <RegionSelects
                path={region.path}
                onChange={(path, name) => setRegion((r) => ({ path, name, key: r.key + 1 }))}
              />
              <StatusLegend
                statuses={statuses}
                onStatuses={setStatuses}
                counts={counts}
                layers={readable}
                shownLayers={layerKeys}
                onLayers={setLayerKeys}
              />
            </div>
            <div className="map-view dashboard-map" data-testid="dashboard-map">
              <MapBoundary fallback={<div className="map-view-message">{t('map.unavailable')}</div>}>
                <Suspense
                  fallback={
                    <div className="map-view-message">
                      <Spin size="small" /> {t('map.loading')}
                    </div>
                  }
                >
                  <DashboardMap
                    region={{ code, name: region.name, key: region.key }}
                    statuses={statuses}
                    locations={locations.data}
                    markers={markers}
                    focus={mapFocus}
                    renderPopup={renderPopup}
                    onUnknownDevice={reloadForUnknown}
                  />
                </Suspense>
              </MapBoundary>
              {locations.isFetching && (
                <div className="dashboard-map-status" data-testid="dashboard-map-loading">
                  <Spin size="small" /> {t('dashboard.map.loading')}
                </div>
              )}
              {locations.isError && !locations.isFetching && (
                <div className="dashboard-map-status dashboard-map-error">
                  {t('dashboard.map.failed')}{' '}
                  <Button size="small" onClick={() => void locations.refetch()}>
                    {t('dashboard.map.retry')}
                  </Button>
                </div>
              )}
              {locations.data && locations.data.layer.unplaced > 0 && (
                <div className="dashboard-map-note">
                  {t('dashboard.legend.unplaced', { count: locations.data.layer.unplaced })}
                </div>
              )}
              {focusQuery && (
                <EventFocusCard
                  focus={focus.data}
                  loading={focus.isPending}
                  error={
                    focus.isError
                      ? focus.error instanceof ApiError && focus.error.msg
                        ? focus.error.msg
                        : t('dashboard.focus.loadFailed')
                      : null
                  }
                  onClose={closeFocus}
                />
              )}
            </div>
          </Card>
          <DashboardBars addressCode={code} />
        </div>
        <div className="dashboard-side">
          <DashboardStatusColumn addressCode={code} />
        </div>
      </div>
      {DeviceDetail && (
        <LazyMount when={detail !== null}>
          <Suspense fallback={null}>
            <DeviceDetail device={detail} onClose={() => setDetail(null)} />
          </Suspense>
        </LazyMount>
      )}
    </div>
  )
}
