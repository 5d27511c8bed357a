import type { PermissionArea } from '@aed/contracts'
import { callApi as callEventApi } from '@aed/contracts/call'
import { dictLabel } from '@aed/contracts/constants'
import { dashboardApi } from '@aed/contracts/dashboard'
import { type DispatchState, LAYER_STATES, responderApi } from '@aed/contracts/responder'
import { reviewApi } from '@aed/contracts/review'
import { currentLanguage, i18n } from '../../../i18n'
import { callApi } from '../../../lib/api'
import { formatDateTime } from '../../../lib/datetime'

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
  /** Its own colour, where a layer colours its points by state; else the layer's. */
  color?: string
  /** The popup's tag beside the title; else a rescue's in progress or ended. */
  tag?: { text: string; color: string }
}

/**
 * A marker layer of the dashboard beside the devices: its legend entry, colour, how often it
 * refreshes (the spec's 5-minute events tick), which live frames refresh it at once, and how it
 * loads for a region. Each layer is one more entry of MARKER_LAYERS.
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
  /**
   * Its markers' size against a rescue's (default 1): people live beside the devices, and drawn
   * as large as a rescue, hundreds of them would hide the devices' clusters.
   */
  scale?: number
  /** The colours its points may take besides the layer's, with the i18n key of each (the legend's dots). */
  states?: readonly { color: string; label: string }[]
  /** The permission area its points need beyond the dashboard's own: without it the layer is not offered. */
  area?: PermissionArea
  /** Drawn as white discs in a ring of its colour, not filled: points whose state nobody knows. */
  outlined?: boolean
  /** i18n key of what its legend entry says on hover. */
  hint?: string
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

/** Emergency calls (marker 6): open ones and those of the last 24 hours; a call's alarm refreshes it. */
const call: MarkerLayer = {
  key: 'call',
  label: 'dashboard.layer.call',
  color: '#1677ff',
  refreshMs: 5 * 60_000,
  liveTypes: [2],
  area: 'aid_event',
  load: async (addressCode, signal) => {
    const data = await callApi(callEventApi.location, { query: { address_code: addressCode }, signal })
    return data.resource.map((c) => ({
      id: c.id,
      lon: c.lon,
      lat: c.lat,
      title: c.location,
      lines: [formatDateTime(c.call_time)],
      active: c.status === 1,
    }))
  },
}

/**
 * A responder's colour by whether an alert may reach them: ready teal (beside the devices' green),
 * paused grey (darker than an offline device), certificate expired orange.
 */
export const RESPONDER_HEX: Record<DispatchState, string> = {
  ready: '#13a8a8',
  paused: '#8c8c8c',
  certificate_expired: '#d46b08',
}

/**
 * First-aid responders of the region (layer 5), coloured by dispatch state. The texts are the
 * language's at loading: a language switch fetches every query again.
 */
const responder: MarkerLayer = {
  key: 'responder',
  label: 'dashboard.layer.responder',
  color: RESPONDER_HEX.ready,
  refreshMs: 5 * 60_000,
  liveTypes: [],
  scale: 0.6,
  // The register's people: for members who may read it (the server refuses the others).
  area: 'aid_man',
  states: (['paused', 'certificate_expired'] as const).map((s) => ({
    color: RESPONDER_HEX[s],
    label: `dashboard.responder.${s}`,
  })),
  load: async (addressCode, signal) => {
    const data = await callApi(responderApi.location, { query: { address_code: addressCode }, signal })
    const lang = currentLanguage()
    return data.resource.map(([id, lon, lat, aptitude, stateIndex, name]) => {
      const state = LAYER_STATES[stateIndex]
      return {
        id,
        lon,
        lat,
        title: name,
        lines: [i18n.t('dashboard.responder.aptitude', { label: dictLabel('aid_aptitude', aptitude, lang) })],
        active: false,
        color: RESPONDER_HEX[state],
        tag: { text: i18n.t(`dashboard.responder.${state}`), color: RESPONDER_HEX[state] },
      }
    })
  },
}

/** The grey of third-party AEDs: no colour of a state, since nobody watches them. */
export const THIRD_PARTY_HEX = '#8c8c8c'

/**
 * Approved third-party AEDs of the region (公众审核): someone else's, reported by the public, their
 * readiness unknown; outlined in grey, smaller than the devices. They change only by review, so
 * the 30-minute tick is enough.
 */
const thirdParty: MarkerLayer = {
  key: 'third_party',
  label: 'dashboard.layer.thirdParty',
  hint: 'dashboard.thirdParty.unknown',
  color: THIRD_PARTY_HEX,
  refreshMs: 30 * 60_000,
  liveTypes: [],
  scale: 0.7,
  outlined: true,
  // The server answers members who may read devices.
  area: 'device',
  load: async (addressCode, signal) => {
    const data = await callApi(reviewApi.thirdPartyLayer, { query: { address_code: addressCode }, signal })
    const unknown = i18n.t('dashboard.thirdParty.readiness')
    const tag = { text: i18n.t('dashboard.layer.thirdParty'), color: 'default' }
    return data.resource.map(([id, lon, lat, brand, location]) => ({
      id,
      lon,
      lat,
      title: brand,
      lines: [location, unknown],
      active: false,
      tag,
    }))
  },
}

/** The ticked marker layers and their points, as the page passes them to the map. */
export type MarkerSet = readonly { layer: MarkerLayer; points: readonly MarkerPoint[] }[]

/** The marker layers the dashboard draws, in legend order. */
export const MARKER_LAYERS: readonly MarkerLayer[] = [call, rescue, responder, thirdParty]
