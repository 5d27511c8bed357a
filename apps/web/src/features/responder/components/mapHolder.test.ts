import type { Map as MapLibre } from 'maplibre-gl'
import { describe, expect, it, vi } from 'vitest'
import { keepsMap, leaveMap, takeParkedMap } from './mapHolder'

function fakeMap() {
  const element = document.createElement('div')
  document.body.append(element)
  return { map: { remove: vi.fn() } as unknown as MapLibre, element }
}

describe('the responder map on leaving the page', () => {
  it('is destroyed for any route but the emergency call page', () => {
    const kept = fakeMap()
    leaveMap(kept, '/deviceManagement/device')
    expect(kept.map.remove).toHaveBeenCalledTimes(1)
    expect(takeParkedMap()).toBeNull()
  })

  it('is parked, detached, for /emergency/call and handed over once', () => {
    const kept = fakeMap()
    leaveMap(kept, '/emergency/call')
    expect(kept.map.remove).not.toHaveBeenCalled()
    expect(kept.element.isConnected).toBe(false)
    expect(takeParkedMap()).toBe(kept)
    expect(takeParkedMap()).toBeNull()
  })

  it('replaces a map parked before, destroying that one', () => {
    const first = fakeMap()
    const second = fakeMap()
    leaveMap(first, '/emergency/call')
    leaveMap(second, '/emergency/call')
    expect(first.map.remove).toHaveBeenCalledTimes(1)
    expect(takeParkedMap()).toBe(second)
  })

  it('keeps only for that route', () => {
    expect(keepsMap('/emergency/call')).toBe(true)
    expect(keepsMap('/emergency/callers')).toBe(false)
    expect(keepsMap('/aidManManagement/aidMan')).toBe(false)
  })
})
