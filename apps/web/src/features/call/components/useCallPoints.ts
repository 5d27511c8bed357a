import type { Call, CallDetail } from '@aed/contracts/call'
import type { DispatchAlert } from '@aed/contracts/dispatch'
import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { dispatchLayer } from './dispatchLayer'
import { type MapFocus, type MapLine, type MapPoint, PointKind } from './mapPoints'

const NO_LINES: readonly MapLine[] = []

const callPoint = (c: Call, active: boolean): MapPoint => ({
  key: `call-${c.id}`,
  id: c.id,
  kind: PointKind.CALL,
  lat: c.lat,
  lon: c.lon,
  title: `${c.location} ${formatDateTime(c.call_time)}`,
  active,
})

/**
 * The call tab's map: the page's calls (6), the selected one marked, and around it the normal
 * devices of its radius and the AEDs its dispatch chose from (9), the responders (5) where they
 * last were, and the ways of those dispatched; the focus is the selected call, again with each `focusKey`.
 */
export function useCallPoints(
  rows: readonly Call[],
  selectedId: number | null,
  detail: CallDetail | undefined,
  focusKey: number,
) {
  const { t } = useTranslation()
  const around = detail && detail.id === selectedId ? detail : undefined
  const alertTitle = useCallback((a: DispatchAlert) => `${a.name} ${t(`call.alert.states.${a.state}`)}`, [t])
  const { points, lines } = useMemo(() => {
    const calls = rows.map((c) => callPoint(c, c.id === selectedId))
    if (around && !rows.some((c) => c.id === around.id)) calls.push(callPoint(around, true))
    if (!around) return { points: calls, lines: NO_LINES }
    const layer = dispatchLayer(around, alertTitle)
    return { points: [...layer.devices, ...layer.responders, ...calls], lines: layer.lines }
  }, [rows, selectedId, around, alertTitle])
  const selected = rows.find((c) => c.id === selectedId) ?? around
  const lat = selected?.lat
  const lon = selected?.lon
  const focus = useMemo<MapFocus | null>(
    () => (lat === undefined || lon === undefined ? null : { lat, lon, key: focusKey }),
    [lat, lon, focusKey],
  )
  return { points, lines, focus }
}
