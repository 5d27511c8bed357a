import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { act } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderLiveHook } from '../../../lib/live/renderLiveHook'
import { deviceKeys } from '../api/keys'
import { DETAIL_REFRESH_MS, useDeviceDetailLiveSync } from './useDeviceDetailLiveSync'

const status = (id: number, device_sn: string): LiveFrame => ({
  id,
  data_type: LiveType.DEVICE_STATUS,
  data: { device_id: 1, device_sn, status: 2, readiness: 'not_ready', reasons: [] },
})
const closed = (id: number, device_sn: string): LiveFrame => ({
  id,
  data_type: LiveType.DEVICE_EVENT,
  data: { event_id: id, device_id: 1, device_sn, kind: 'offline', opened: false },
})

afterEach(() => vi.useRealTimers())

describe('useDeviceDetailLiveSync', () => {
  it("refetches the open detail (base and record tabs) on its device's status and events only, at most once per 2 s", () => {
    vi.useFakeTimers()
    const { bus, keys } = renderLiveHook(() => useDeviceDetailLiveSync('A1'))
    act(() => {
      bus.emit(status(1, 'B2'))
      bus.emit(closed(2, 'B2'))
    })
    expect(keys()).toEqual([])
    act(() => {
      bus.emit(status(3, 'A1'))
      bus.emit(closed(4, 'A1'))
    })
    expect(keys()).toEqual([deviceKeys.detail('sn:A1')])
    act(() => vi.advanceTimersByTime(DETAIL_REFRESH_MS))
    expect(keys()).toHaveLength(2)
  })

  it('does nothing while no device is open', () => {
    const { bus, keys } = renderLiveHook(() => useDeviceDetailLiveSync(null))
    act(() => bus.emit(status(1, 'A1')))
    expect(keys()).toEqual([])
  })
})
