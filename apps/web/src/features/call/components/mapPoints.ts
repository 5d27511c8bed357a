import type { LatLon } from '../../../components/MapView/datum'
import { STATUS_HEX } from '../../../lib/deviceStatus'

/** The spec's map marker categories besides the device statuses 0-4. */
export const PointKind = { RESPONDER: 5, CALL: 6, RESCUE: 8, NEARBY_DEVICE: 9 } as const

/** The legend's order: statuses 0-4, responders, calls, rescues, normal devices near a call. */
export const LEGEND_KINDS = [0, 1, 2, 3, 4, 5, 6, 8, 9] as const

/**
 * Each category's colour: the device statuses as everywhere, responders teal as on the dashboard,
 * calls magenta, rescues the dashboard's dark red, devices near a call blue (apart from normal green).
 */
export const KIND_HEX: Readonly<Record<number, string>> = {
  ...STATUS_HEX,
  5: '#13a8a8',
  6: '#eb2f96',
  8: '#cf1322',
  9: '#1677ff',
}

/** A marker's weight besides the selection: strong (an accepted responder, an AED being fetched) or faint (not coming). */
export type Emphasis = 'strong' | 'faint'

/** One point of the emergency map (GCJ-02): its category, hover text and whether it is the selected one. */
export type MapPoint = LatLon & {
  key: string
  id: number
  kind: number
  title: string
  active?: boolean
  emphasis?: Emphasis
}

/** A responder's way on the map (GCJ-02): to the patient, or by their AED; `strong` once they accepted. */
export type MapLine = { key: string; path: readonly LatLon[]; strong: boolean }

/** Where the map goes: a point, again each time `key` changes. */
export type MapFocus = LatLon & { key: number }

/** What a tab of the page draws on the shared map, and what a click on one of its points does. */
export type MapLayer = {
  points: readonly MapPoint[]
  lines?: readonly MapLine[]
  focus: MapFocus | null
  onPointClick: (p: MapPoint) => void
}
