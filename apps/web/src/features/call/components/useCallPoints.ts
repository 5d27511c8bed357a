import type { Call, CallDetail } from '@aed/contracts/call'
import { useMemo } from 'react'
import { formatDateTime } from '../../../lib/datetime'
import { type MapFocus, type MapPoint, PointKind } from './mapPoints'

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
 * devices of its radius (9) and the responders (5); the focus is the selected call, again with each `focusKey`.
 */
export function useCallPoints(
  rows: readonly Call[],
  selectedId: number | null,
  detail: CallDetail | undefined,
  focusKey: number,
) {
  const around = detail && detail.id === selectedId ? detail : undefined
  const points = useMemo(() => {
    const calls = rows.map((c) => callPoint(c, c.id === selectedId))
    if (around && !rows.some((c) => c.id === around.id)) calls.push(callPoint(around, true))
    const devices: MapPoint[] = (around?.devices ?? []).map((d) => ({
      key: `device-${d.id}`,
      id: d.id,
      kind: PointKind.NEARBY_DEVICE,
      lat: d.lat,
      lon: d.lon,
      title: `${d.device_sn} ${d.distance}m`,
    }))
    const responders: MapPoint[] = (around?.responders ?? []).map((r) => ({
      key: `responder-${r.id}`,
      id: r.id,
      kind: PointKind.RESPONDER,
      lat: r.lat,
      lon: r.lon,
      title: `${r.name} ${r.distance}m`,
    }))
    return [...devices, ...responders, ...calls]
  }, [rows, selectedId, around])
  const selected = rows.find((c) => c.id === selectedId) ?? around
  const lat = selected?.lat
  const lon = selected?.lon
  const focus = useMemo<MapFocus | null>(
    () => (lat === undefined || lon === undefined ? null : { lat, lon, key: focusKey }),
    [lat, lon, focusKey],
  )
  return { points, focus }
}
