import { deviceStatsApi } from '@aed/contracts/device-stats'
import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { mockApi, on } from '../../../test/mockApi'
import { DASHBOARD_LIVE_MS, DASHBOARD_REFRESH } from '../refresh'
import { useDashboardStats } from './useDashboardStats'

const calls = { state: 0, bands: 0, regions: 0 }

function api() {
  return mockApi([
    on(deviceStatsApi.stateDistribution, () => {
      calls.state++
      return {
        code: 0,
        data: {
          all_count: 3,
          rescue_event_count: 1,
          normal_count: 1,
          warn_event_count: 0,
          error_report_count: 1,
          offset_event_count: 0,
          disconnect_count: 1,
        },
      }
    }),
    on(deviceStatsApi.mainStateDistribution, () => {
      calls.bands++
      return {
        code: 0,
        data: { battery: [], electrode_sheet_expire: [], battery_expire: [], host_expire: [] },
      }
    }),
    on(deviceStatsApi.regionalDistribution, () => {
      calls.regions++
      return { code: 0, data: { address_code: null, name: '全国', items: [] } }
    }),
  ])
}

const statusFrame = (id: number): LiveFrame => ({
  id,
  data_type: LiveType.DEVICE_STATUS,
  data: { device_id: id, device_sn: `A${id}`, status: 2, readiness: 'not_ready', reasons: [] },
})

function mount() {
  const bus = createLiveBus()
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <LiveBusContext.Provider value={bus}>{children}</LiveBusContext.Provider>
    </QueryClientProvider>
  )
  // Two listeners, as on the page: the status column and the bars.
  renderHook(
    () => {
      useDashboardStats(undefined)
      return useDashboardStats(undefined)
    },
    { wrapper },
  )
  return { bus }
}

beforeEach(() => {
  calls.state = calls.bands = calls.regions = 0
  vi.useFakeTimers({ shouldAdvanceTime: true })
  api()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('useDashboardStats', () => {
  it('refetches status and bands once per 5 s window for a burst of 1,000 device status pushes', async () => {
    const { bus } = mount()
    await waitFor(() => expect(calls).toEqual({ state: 1, bands: 1, regions: 1 }))

    act(() => {
      for (let i = 1; i <= 1000; i++) bus.emit(statusFrame(i))
    })
    await waitFor(() => expect(calls.state).toBe(2))
    expect(calls.bands).toBe(2)

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_LIVE_MS - 500))
    expect(calls.state).toBe(2)
    // The pushes after the first collapse into one refetch at the end of the window.
    await act(() => vi.advanceTimersByTimeAsync(500))
    await waitFor(() => expect(calls.state).toBe(3))
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_LIVE_MS * 3))
    expect(calls).toEqual({ state: 3, bands: 3, regions: 1 })
  })

  it('refetches every statistic hourly', async () => {
    mount()
    await waitFor(() => expect(calls).toEqual({ state: 1, bands: 1, regions: 1 }))
    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH.statsMs))
    await waitFor(() => expect(calls).toEqual({ state: 2, bands: 2, regions: 2 }))
  })
})
