import { dashboardApi, type EventFocusQuery, MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import { LiveType } from '@aed/contracts/live'
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { callApi } from '../../../lib/api'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import type { MarkerLayer } from '../map/mapLayers'
import { DASHBOARD_REFRESH } from '../refresh'
import { fetchDeviceLayer } from './fetchDeviceLayer'
import { dashboardKeys } from './keys'

/**
 * The devices of the region in the ticked statuses. Status changes arrive pushed, so the full
 * reload is the spec's 5-hour tick (paused while an event is highlighted); the previous answer
 * stays drawn while the next loads.
 */
export function useDeviceLocations(code: string | undefined, statuses: readonly number[], paused: boolean) {
  const sorted = MAP_DEVICE_STATUSES.filter((s) => statuses.includes(s))
  return useQuery({
    queryKey: dashboardKeys.devices(code ?? '', sorted.join()),
    queryFn: async ({ signal }) => ({
      code,
      layer: await fetchDeviceLayer({ address_code: code, status_list: JSON.stringify(sorted) }, signal),
    }),
    placeholderData: keepPreviousData,
    // A new answer replaces the old one whole (typed arrays: nothing to compare).
    structuralSharing: false,
    refetchInterval: paused ? false : DASHBOARD_REFRESH.fullMs,
    staleTime: DASHBOARD_REFRESH.fullMs,
  })
}

/** The ticked marker layers' points for the region, each on its own tick and its live frames. */
export function useMarkerLayers(layers: readonly MarkerLayer[], code: string | undefined, paused: boolean) {
  const client = useQueryClient()
  const results = useQueries({
    queries: layers.map((layer) => ({
      queryKey: dashboardKeys.layer(layer.key, code ?? ''),
      queryFn: ({ signal }: { signal: AbortSignal }) => layer.load(code, signal),
      refetchInterval: paused ? (false as const) : layer.refreshMs,
      placeholderData: keepPreviousData,
    })),
  })
  // A rescue alarm refreshes the rescue layer at once.
  useLiveFrames(LiveType.AID_ALARM, () => {
    for (const layer of layers) {
      if (layer.liveTypes.includes(LiveType.AID_ALARM)) {
        void client.invalidateQueries({ queryKey: dashboardKeys.layer(layer.key) })
      }
    }
  })
  const stamp = results.map((r) => r.dataUpdatedAt).join()
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` stands for the answers: a new list only when one changes
  return useMemo(() => layers.map((layer, i) => ({ layer, points: results[i]?.data ?? [] })), [layers, stamp])
}

/** One device as its popup shows it. */
export function useDevicePopup(id: number) {
  return useQuery({
    queryKey: dashboardKeys.popup(id),
    queryFn: ({ signal }) => callApi(dashboardApi.devicePopup, { params: { id }, signal }),
    staleTime: 10_000,
  })
}

/** The event a message's details link highlights. */
export function useEventFocus(q: EventFocusQuery | null) {
  return useQuery({
    queryKey: dashboardKeys.focus(q),
    queryFn: ({ signal }) => callApi(dashboardApi.eventFocus, { query: q as EventFocusQuery, signal }),
    enabled: q !== null,
    retry: false,
  })
}
