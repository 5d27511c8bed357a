import type { CoveragePoint } from '@aed/contracts/coverage'
import { describe, expect, it } from 'vitest'
import { dotAt, dotBounds, placeDots } from './coverageDots'

const points: CoveragePoint[] = [
  [1, 120.1, 30.2, '2026-11-25 21:04:10', 'A'],
  [2, 120.3, 30.1, '2026-11-25 20:00:00', 'B'],
  [3, 120.2, 30.4, '2026-11-25 19:00:00', 'C'],
]
// A screen of 1 px a thousandth of a degree, the origin at 120° E, 30° N.
const project = ([lon, lat]: [number, number]) => ({ x: (lon - 120) * 1000, y: (30.5 - lat) * 1000 })

describe('the uncovered calls on the map', () => {
  it('are fitted by their bounds, none when there are none', () => {
    expect(dotBounds(placeDots(points))).toEqual([
      [120.1, 30.1],
      [120.3, 30.4],
    ])
    expect(dotBounds([])).toBeNull()
  })

  it('picks the nearest call within 10 px of a click, none further', () => {
    const dots = placeDots(points)
    expect(dotAt(project, dots, 104, 296)?.point[0]).toBe(1)
    expect(dotAt(project, dots, 200, 100)?.point[0]).toBe(3)
    expect(dotAt(project, dots, 150, 300)).toBeNull()
  })
})
