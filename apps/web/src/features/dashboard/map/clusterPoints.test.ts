import { describe, expect, it } from 'vitest'
import { withChanges } from './clusterPoints'
import type { ClusterPoints } from './clusterProtocol'

const points = (rows: [number, number, number, number][]): ClusterPoints => ({
  ids: Int32Array.from(rows.map((r) => r[0])),
  coords: Float64Array.from(rows.flatMap((r) => [r[1], r[2]])),
  statuses: Uint8Array.from(rows.map((r) => r[3])),
})
const rows = (p: ClusterPoints) =>
  Array.from(p.ids, (id, i) => [id, p.coords[2 * i], p.coords[2 * i + 1], p.statuses[i]])

describe('withChanges', () => {
  it('recolours devices in place, adds new ones at the end and leaves out removed ones', () => {
    const before = points([
      [1, 120, 30, 0],
      [2, 121, 31, 0],
      [3, 122, 32, 1],
      [4, 123, 33, 4],
    ])
    const after = withChanges(
      before,
      points([
        [3, 122, 32, 2],
        [9, 124, 34, 3],
        [1, 120, 30, 4],
      ]),
      Int32Array.from([2, 7]),
    )
    expect(rows(after)).toEqual([
      [1, 120, 30, 4],
      [3, 122, 32, 2],
      [4, 123, 33, 4],
      [9, 124, 34, 3],
    ])
  })

  it('leaves the devices it was given as they were (they may be a kept answer)', () => {
    const before = points([[1, 120, 30, 0]])
    withChanges(before, points([[1, 120, 30, 2]]), new Int32Array(0))
    expect(rows(before)).toEqual([[1, 120, 30, 0]])
  })

  it('does not add a device that the same batch removes', () => {
    const after = withChanges(points([[1, 120, 30, 0]]), points([[5, 121, 31, 2]]), Int32Array.from([5]))
    expect(rows(after)).toEqual([[1, 120, 30, 0]])
  })
})
