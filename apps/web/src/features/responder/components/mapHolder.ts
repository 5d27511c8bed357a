import type { Map as MapLibre } from 'maplibre-gl'

/**
 * The route that takes the responder map over: 急救呼叫 (/emergency/call, a later issue) shows the
 * responders around a call, and reuses this map instead of building another. Leaving the page for
 * any other route destroys the map.
 */
export const MAP_KEEPING_ROUTE = '/emergency/call'

/** A map kept alive between pages, with the element MapLibre draws into (detached while parked). */
export type ParkedMap = { map: MapLibre; element: HTMLElement }

let parked: ParkedMap | null = null

/** True when leaving for `path` keeps the map. */
export function keepsMap(path: string): boolean {
  return path === MAP_KEEPING_ROUTE || path.startsWith(`${MAP_KEEPING_ROUTE}?`)
}

/** The page is left for `nextPath`: the map is parked for the emergency call page, or destroyed. */
export function leaveMap(kept: ParkedMap, nextPath: string) {
  if (!keepsMap(nextPath)) {
    kept.map.remove()
    return
  }
  kept.element.remove()
  if (parked && parked.map !== kept.map) parked.map.remove()
  parked = kept
}

/** The parked map, handed to whichever page takes it (this one coming back, or 急救呼叫), or null. */
export function takeParkedMap(): ParkedMap | null {
  const taken = parked
  parked = null
  return taken
}
