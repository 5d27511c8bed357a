import { describe, expect, it } from 'vitest'
import { boxHeight, clampShare, MIN_PANE_PX, TOP_SHARE } from './useSplit'

describe('the map and list panes', () => {
  it('start at 55% and 45%', () => {
    expect(TOP_SHARE).toBe(0.55)
    expect(clampShare(TOP_SHARE, 800)).toBe(0.55)
  })

  it('keep each pane at least 200 px high', () => {
    expect(MIN_PANE_PX).toBe(200)
    expect(clampShare(0.1, 800)).toBe(0.25)
    expect(clampShare(0.95, 800)).toBe(0.75)
    expect(clampShare(0.6, 800)).toBe(0.6)
  })

  it('fill the window below the filters, never less than 560 px', () => {
    expect(boxHeight(250, 1000)).toBe(726)
    expect(boxHeight(250, 700)).toBe(560)
  })
})
