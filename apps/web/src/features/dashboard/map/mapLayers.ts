import { dashboardApi } from '@aed/contracts/dashboard'
import { callApi } from '../../../lib/api'

/** One marker of an event or people layer: where (GCJ-02) and what its popup says. */
export type MarkerPoint = {
  id: number
  lon: number
  lat: number
  title: string
  /** Further lines of the popup (time, address, state). */
  lines: string[]
  /** Drawn with a halo: an event still going on. */
  active: boolean
}

/**
 * A marker layer of the dashboard beside the devices: its legend entry, colour, how often it
 * refreshes (the spec's 5-minute events tick), which live frames refresh it at once, and how it
 * loads for a region. The responder (5) and call layers of the responders issue are one more
 * entry each.
 */
export type MarkerLayer = {
  key: string
  /** i18n key of its legend label. */
  label: string
  color: string
  refreshMs: number
  /** data_type of live frames that refresh it at once (a rescue alarm). */
  liveTypes: readonly number[]
  load: (addressCode: string | undefined, signal: AbortSignal) => Promise<MarkerPoint[]>
}

/** Rescues in progress and of the last 24 hours. */
const rescue: MarkerLayer = {
  key: 'rescue',
  label: 'dashboard.layer.rescue',
  color: '#cf1322',
  refreshMs: 5 * 60_000,
  liveTypes: [2],
  load: async (addressCode, signal) => {
    const data = await callApi(dashboardApi.rescueLocation, {
      query: { address_code: addressCode },
      signal,
    })
    return data.resource.map((r) => ({
      id: r.id,
      lon: r.lon,
      lat: r.lat,
      title: r.device_sn,
      lines: [r.event_time, ...(r.location ? [r.location] : [])],
      active: r.in_progress === 1,
    }))
  },
}

/** The ticked marker layers and their points, as the page passes them to the map. */
export type MarkerSet = readonly { layer: MarkerLayer; points: readonly MarkerPoint[] }[]

/** The marker layers the dashboard draws, in legend order. */
export const MARKER_LAYERS: readonly MarkerLayer[] = [rescue]
