import type { DeviceLocations } from '@aed/contracts/analysis-board'
import { expression, type StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec'
import { describe, expect, it } from 'vitest'
import { STATUS_HEX } from '../../device/components/stats/statusPie'
import { applyChanges, clusterColor, collectionOf, indexOf, pointColor } from './deviceSource'

const locations: DeviceLocations = {
  '0': [
    [1, 120.1, 30.1],
    [2, 120.2, 30.2],
  ],
  '1': [],
  '2': [[3, 121, 31]],
  '3': [],
  '4': [],
  unplaced: 0,
}

/** Evaluates a paint expression for a feature's properties, as MapLibre would. */
function colourOf(exp: unknown, properties: Record<string, number>) {
  const spec = {
    type: 'color',
    'property-type': 'data-driven',
    expression: { parameters: ['zoom', 'feature'] },
  }
  const compiled = expression.createPropertyExpression(
    exp,
    'paint.circle-color',
    spec as StylePropertySpecification,
  )
  if (compiled.result !== 'success') throw new Error(JSON.stringify(compiled.value))
  const c = compiled.value.evaluate({ zoom: 10 }, { type: 'Point', properties } as never) as {
    toString(): string
  }
  return c.toString()
}
const rgba = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16)
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},1)`
}

describe('device source', () => {
  it('indexes the answer by device id and builds point features with the id', () => {
    const index = indexOf(locations)
    expect([...index.keys()]).toEqual([1, 2, 3])
    const fc = collectionOf(index, (p) => [p.lon, p.lat])
    expect(fc.features[2]).toEqual({
      type: 'Feature',
      id: 3,
      properties: { s: 2 },
      geometry: { type: 'Point', coordinates: [121, 31] },
    })
  })

  it('a cluster takes the worst status inside: fault over offset over offline over warning over normal', () => {
    const cluster = (counts: number[]) => Object.fromEntries(counts.map((n, s) => [`s${s}`, n]))
    expect(colourOf(clusterColor, cluster([9, 1, 0, 0, 1]))).toBe(rgba(STATUS_HEX[4]))
    expect(colourOf(clusterColor, cluster([9, 1, 1, 1, 1]))).toBe(rgba(STATUS_HEX[2]))
    expect(colourOf(clusterColor, cluster([9, 1, 0, 1, 1]))).toBe(rgba(STATUS_HEX[3]))
    expect(colourOf(clusterColor, cluster([9, 1, 0, 0, 0]))).toBe(rgba(STATUS_HEX[1]))
    expect(colourOf(clusterColor, cluster([9, 0, 0, 0, 0]))).toBe(rgba(STATUS_HEX[0]))
    expect(colourOf(pointColor, { s: 2 })).toBe(rgba(STATUS_HEX[2]))
  })

  it('pushed changes recolour, remove a device now hidden, and add one the map did not draw', () => {
    const index = indexOf(locations)
    const shown = new Set([0, 1, 2])
    const diff = applyChanges(
      index,
      [
        { id: 1, s: 1 },
        { id: 1, s: 2 },
        { id: 2, s: 4 },
        { id: 3, s: 2 },
        { id: 9, s: 0, lon: 110, lat: 20 },
        { id: 10, s: 0 },
        { id: 11, s: 4, lon: 1, lat: 1 },
      ],
      shown,
      true,
    )
    expect(diff).toEqual({
      update: [{ id: 1, s: 2 }],
      remove: [2],
      add: [{ id: 9, d: { lon: 110, lat: 20, s: 0 } }],
      unplaced: 1,
    })
    expect(index.get(1)?.s).toBe(2)
    expect(index.has(2)).toBe(false)
  })

  it('with a region chosen, a device the map did not draw is not added (it may lie outside)', () => {
    const index = indexOf(locations)
    const diff = applyChanges(index, [{ id: 9, s: 0, lon: 110, lat: 20 }], new Set([0]), false)
    expect(diff.add).toEqual([])
    expect(index.has(9)).toBe(false)
  })
})
