import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { callKeys } from '../api/keys'
import { POSITION_REFRESH_MS, useCallLiveSync } from './useCallLiveSync'

const alarm = (id: number, event_type: number): LiveFrame => ({
  id,
  data_type: LiveType.AID_ALARM,
  data: {
    data_time: '2026-03-10 09:30:00',
    location: '文三路20号',
    cabinet_sn: null,
    device_sn: null,
    agency_name: '西湖急救中心',
    msg_id: id,
    event_type,
    event_id: id,
    escalation_level: 0,
  },
})

const step = (id: number, call_id: number | null, kind: string): LiveFrame => ({
  id,
  data_type: LiveType.DISPATCH,
  data: { call_id, dispatch_id: 3, kind },
})

function setup(selectedId: number | null = null) {
  const bus = createLiveBus()
  const client = new QueryClient()
  const invalidate = vi.spyOn(client, 'invalidateQueries')
  renderHook(() => useCallLiveSync(selectedId), {
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <LiveBusContext.Provider value={bus}>{children}</LiveBusContext.Provider>
      </QueryClientProvider>
    ),
  })
  return { bus, invalidate }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('useCallLiveSync', () => {
  it('refetches the calls when a call’s alarm arrives, not on a rescue’s', () => {
    const { bus, invalidate } = setup()
    act(() => bus.emit(alarm(1, 2)))
    expect(invalidate).not.toHaveBeenCalled()
    act(() => bus.emit(alarm(2, 1)))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: callKeys.all })
  })

  it('refetches the calls when a rescue is linked to one (15)', () => {
    const { bus, invalidate } = setup(1)
    act(() => bus.emit({ id: 1, data_type: LiveType.CALL_RESCUE, data: { call_id: 1, rescue_id: 7 } }))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: callKeys.all })
  })

  it('refetches the selected call and the list on a step of its dispatch (14)', () => {
    const { bus, invalidate } = setup(1)
    act(() => bus.emit(step(1, 1, 'accepted')))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: callKeys.all })
  })

  it('refetches the selected call alone on positions, at most once a second', () => {
    vi.useFakeTimers()
    const { bus, invalidate } = setup(1)
    act(() => {
      bus.emit(step(1, 1, 'located'))
      bus.emit(step(2, 1, 'located'))
      bus.emit(step(3, 1, 'located'))
    })
    expect(invalidate.mock.calls).toEqual([[{ queryKey: callKeys.detail(1) }]])
    act(() => vi.advanceTimersByTime(POSITION_REFRESH_MS))
    expect(invalidate.mock.calls).toEqual([
      [{ queryKey: callKeys.detail(1) }],
      [{ queryKey: callKeys.detail(1) }],
    ])
  })

  it('only marks another call’s detail stale, and ignores a dispatch without a call', () => {
    const { bus, invalidate } = setup(1)
    act(() => {
      bus.emit(step(1, 2, 'accepted'))
      bus.emit(step(2, null, 'started'))
    })
    expect(invalidate.mock.calls).toEqual([[{ queryKey: callKeys.detail(2), refetchType: 'none' }]])
  })
})
