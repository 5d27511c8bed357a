import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { act } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderLiveHook } from '../../../lib/live/renderLiveHook'
import { eventKeys } from '../api/keys'
import { EVENT_REFRESH_MS, useEventLiveSync } from './useEventLiveSync'

const event = (id: number, kind: 'fault' | 'offline', opened = true): LiveFrame => ({
  id,
  data_type: LiveType.DEVICE_EVENT,
  data: { event_id: id, device_id: 7, device_sn: 'A7', kind, opened },
})

afterEach(() => vi.useRealTimers())

describe('useEventLiveSync', () => {
  it("refetches the page's events when one of its kind opens or closes, at most once per 3 s", () => {
    vi.useFakeTimers()
    const { bus, keys } = renderLiveHook(() => useEventLiveSync('fault'))
    act(() => bus.emit(event(1, 'offline')))
    expect(keys()).toEqual([])
    act(() => {
      bus.emit(event(2, 'fault'))
      for (let i = 3; i < 40; i++) bus.emit(event(i, 'fault', i % 2 === 0))
    })
    expect(keys()).toEqual([eventKeys.kind('fault')])
    act(() => vi.advanceTimersByTime(EVENT_REFRESH_MS))
    expect(keys()).toHaveLength(2)
    act(() => vi.advanceTimersByTime(30_000))
    expect(keys()).toHaveLength(2)
  })

  it('stops listening once the page is left', () => {
    const { bus, keys, unmount } = renderLiveHook(() => useEventLiveSync('offline'))
    unmount()
    act(() => bus.emit(event(1, 'offline')))
    expect(keys()).toEqual([])
  })
})
