import { Code } from '@aed/contracts'
import type { MapAddress } from '@aed/contracts/map'
import { Typography } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { mapHome } from '../../lib/browserPosition'
import { ApiError } from '../../lib/errors'
import type { LatLon } from '../MapView/datum'
import { MapView } from '../MapView/MapView'
import { useReverseAddress } from '../PlaceSearch/useReverseAddress'

/** The spec's zooms: 13 to look around, 16 once a location is placed. */
export const BROWSE_ZOOM = 13
export const PLACE_ZOOM = 16

type Props = {
  value?: LatLon | null
  onChange?: (point: LatLon) => void
  /** The address of a picked point, when the map service can tell it. */
  onAddress?: (address: MapAddress) => void
  /** Changed by the owner when the value was set elsewhere (a search result): the map flies there. */
  focusKey?: number
  /** Where to look with no value yet. */
  home?: LatLon
  disabled?: boolean
  height?: number
}

/**
 * Picks a point: a click places the marker, the marker can be dragged, each pick asks the map
 * service for its address. When the service cannot resolve points (offline, code 6) it stops
 * asking and says the address and region are typed by hand.
 */
export function MapPicker({ value, onChange, onAddress, focusKey = 0, home, disabled, height = 300 }: Props) {
  const { t } = useTranslation()
  const reverse = useReverseAddress()
  const [manual, setManual] = useState(false)
  const [view, setView] = useState(() => ({
    center: value ?? home ?? mapHome(),
    zoom: value ? PLACE_ZOOM : BROWSE_ZOOM,
    key: 0,
  }))

  // A value that arrives after the first render (a stored record loading) is looked at once.
  const seen = useRef(Boolean(value))
  const hasValue = Boolean(value)
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new focusKey or the first value moves the view
  useEffect(() => {
    const first = hasValue && !seen.current
    if (hasValue) seen.current = true
    if ((focusKey || first) && value) setView((v) => ({ center: value, zoom: PLACE_ZOOM, key: v.key + 1 }))
  }, [focusKey, hasValue])

  const place = (point: LatLon, fly: boolean) => {
    if (disabled) return
    onChange?.(point)
    if (fly) setView((v) => ({ center: point, zoom: PLACE_ZOOM, key: v.key + 1 }))
    if (manual) return
    reverse.mutate(point, {
      onSuccess: (address) => onAddress?.(address),
      onError: (error) => {
        if (error instanceof ApiError && error.code === Code.PROVIDER_UNAVAILABLE) setManual(true)
      },
    })
  }

  return (
    <div className="map-picker" data-testid="map-picker">
      <MapView
        height={height}
        center={view.center}
        zoom={view.zoom}
        viewKey={view.key}
        markers={value ? [{ id: 'picked', ...value, draggable: !disabled }] : []}
        onPick={disabled ? undefined : (p) => place(p, true)}
        onMarkerDrag={(_, p) => place(p, false)}
      />
      <Typography.Text type={manual ? 'warning' : 'secondary'} className="map-picker-hint">
        {manual ? t('map.manualAddress') : t('map.pickHint')}
      </Typography.Text>
    </div>
  )
}
