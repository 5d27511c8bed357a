import type { RescueRow } from '@aed/contracts/rescue'
import { useCallback, useMemo, useState } from 'react'
import { formatDateTime } from '../../../lib/datetime'
import { type MapLayer, type MapPoint, PointKind } from './mapPoints'

const NONE: readonly RescueRow[] = []

/**
 * The rescue tab's map: its rows with a place as rescues (8), the selected one marked and looked
 * at; a click on a point selects its row. Gives the tab's selection props and the map's layer.
 */
export function useRescueLayer() {
  const [rows, setRows] = useState<readonly RescueRow[]>(NONE)
  const [selectedId, setSelectedId] = useState<number | null>(null)
  const [focusKey, setFocusKey] = useState(0)
  const select = useCallback((id: number | null) => {
    setSelectedId(id)
    setFocusKey((k) => k + 1)
  }, [])
  const onPointClick = useCallback((p: MapPoint) => select(p.id), [select])

  const layer = useMemo<MapLayer>(() => {
    const placed = rows.filter((r) => r.event_lat !== null && r.event_lon !== null)
    const points = placed.map((r) => ({
      key: `rescue-${r.id}`,
      id: r.id,
      kind: PointKind.RESCUE,
      lat: r.event_lat as number,
      lon: r.event_lon as number,
      title: `${r.device_sn} ${formatDateTime(r.event_time)}`,
      active: r.id === selectedId,
    }))
    const selected = points.find((p) => p.active)
    return {
      points,
      focus: selected ? { lat: selected.lat, lon: selected.lon, key: focusKey } : null,
      onPointClick,
    }
  }, [rows, selectedId, focusKey, onPointClick])

  const onSelect = useCallback((r: RescueRow | undefined) => select(r?.id ?? null), [select])
  return { layer, tab: { selectedId, onSelect, onRows: setRows } }
}
