import { type LiveFrame, LiveType } from '@aed/contracts/live'
import { act } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderLiveHook } from '../../../lib/live/renderLiveHook'
import { cabinetKeys } from '../api/keys'
import { CABINET_REFRESH_MS, useCabinetLiveSync } from './useCabinetLiveSync'

const door = (id: number, door_status: number): LiveFrame => ({
  id,
  data_type: LiveType.CABINET,
  data: { cabinet_id: 3, cabinet_sn: 'CB3', door_status },
})
const status = (id: number, device_sn: string): LiveFrame => ({
  id,
  data_type: LiveType.DEVICE_STATUS,
  data: { device_id: id, device_sn, status: 2, readiness: 'not_ready', reasons: [] },
})

afterEach(() => vi.useRealTimers())

describe('useCabinetLiveSync', () => {
  it('refetches the list on a door change, at most once per 3 s', () => {
    vi.useFakeTimers()
    const { bus, keys } = renderLiveHook(() => useCabinetLiveSync([]))
    act(() => {
      bus.emit(door(1, 1))
      bus.emit(door(2, 0))
    })
    expect(keys()).toEqual([cabinetKeys.lists()])
    act(() => vi.advanceTimersByTime(CABINET_REFRESH_MS))
    expect(keys()).toHaveLength(2)
  })

  it("refetches on a bound AED's status only when that AED is on the page", () => {
    const { bus, keys } = renderLiveHook(() => useCabinetLiveSync(['A1', null]))
    act(() => bus.emit(status(1, 'B9')))
    expect(keys()).toEqual([])
    act(() => bus.emit(status(2, 'A1')))
    expect(keys()).toEqual([cabinetKeys.lists()])
  })
})
