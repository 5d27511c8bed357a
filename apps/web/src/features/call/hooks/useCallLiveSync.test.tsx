import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { createLiveBus, LiveBusContext } from '../../../lib/live/liveContext'
import { callKeys } from '../api/keys'
import { useCallLiveSync } from './useCallLiveSync'

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

describe('useCallLiveSync', () => {
  it('refetches the calls when a call’s alarm arrives, not on a rescue’s', () => {
    const bus = createLiveBus()
    const client = new QueryClient()
    const invalidate = vi.spyOn(client, 'invalidateQueries')
    renderHook(() => useCallLiveSync(), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>
          <LiveBusContext.Provider value={bus}>{children}</LiveBusContext.Provider>
        </QueryClientProvider>
      ),
    })
    act(() => bus.emit(alarm(1, 2)))
    expect(invalidate).not.toHaveBeenCalled()
    act(() => bus.emit(alarm(2, 1)))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: callKeys.all })
  })
})
