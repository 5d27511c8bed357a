import type { LatLon } from './datum'

/** A point drawn on the map (GCJ-02). */
export type MapMarker = LatLon & {
  id: string | number
  color?: string
  title?: string
  draggable?: boolean
}

export type MapViewProps = {
  /** Where the map opens (GCJ-02); with a new `viewKey` it flies there. */
  center: LatLon
  /** 13 by default (the spec's map zoom); 16 when placing a location. */
  zoom?: number
  /** Changing it moves the view to `center` and `zoom` (a search result, a placed point). */
  viewKey?: string | number
  markers?: MapMarker[]
  /** A click on the map, at the GCJ-02 point under it. */
  onPick?: (point: LatLon) => void
  onMarkerDrag?: (id: string | number, point: LatLon) => void
  onMarkerClick?: (id: string | number) => void
}
