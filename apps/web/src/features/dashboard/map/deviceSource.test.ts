import { type DeviceLocations, MAP_DEVICE_STATUSES } from '@aed/contracts/dashboard'
import type { Feature, Point } from 'geojson'
import { describe, expect, it } from 'vitest'
import { STATUS_HEX } from '../../../lib/deviceStatus'
import { RANKS } from './clusterClient'
import { buildClusterIndex } from './clusterIndex'
import { indexOfLayer, layerOf } from './deviceLayer'
import { applyChanges, clusterHex, clusterObstacles, pointHex } from './deviceSource'

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

/** The colour of a cluster of devices in these statuses, as the cluster worker ranks them. */
function clusterColourOf(statuses: number[]) {
  return clusterHex(Math.max(...statuses.map((s) => RANKS[s])))
}

/** A clustered feature, its properties read loosely. */
type Loose = { id?: number; properties: Record<string, number | boolean> }

describe('device source', () => {
  it('indexes the answer by device id', () => {
    const index = indexOfLayer(layerOf(locations, MAP_DEVICE_STATUSES))
    expect([...index.keys()]).toEqual([1, 2, 3])
    expect(index.get(3)).toEqual({ lon: 121, lat: 31, s: 2 })
  })

  it('clusters near devices at low zoom keeping the worst rank, and shows each device with its id and status up close', () => {
    // Three devices a few hundred metres apart in Hangzhou, one in Beijing.
    const ids = new Int32Array([1, 2, 3, 4])
    const coords = new Float64Array([120.15, 30.28, 120.152, 30.281, 120.154, 30.279, 116.4, 39.9])
    const statuses = new Uint8Array([0, 1, 2, 0])
    const index = buildClusterIndex({ ids, coords, statuses, ranks: RANKS, radius: 56, maxZoom: 13 })
    const country = index.getClusters([70, 15, 140, 55], 4) as unknown as Loose[]
    const hangzhou = country.find((f) => f.properties.cluster)
    expect(hangzhou?.properties).toMatchObject({ point_count: 3, w: RANKS[2] })
    expect(clusterHex(Number(hangzhou?.properties.w))).toBe(STATUS_HEX[2])
    const beijing = country.find((f) => !f.properties.cluster)
    expect(beijing).toMatchObject({ id: 4, properties: { s: 0 } })
    const street = index.getClusters([120.14, 30.27, 120.16, 30.29], 17) as unknown as Loose[]
    expect(street.map((f) => [f.id, f.properties.s]).sort()).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ])
    expect(index.getClusterExpansionZoom(Number(hangzhou?.properties.cluster_id))).toBeGreaterThan(4)
  })

  it('a cluster takes the worst status inside: fault over offset over offline over warning over normal', () => {
    expect(clusterColourOf([0, 0, 1, 4])).toBe(STATUS_HEX[4])
    expect(clusterColourOf([0, 1, 2, 3, 4])).toBe(STATUS_HEX[2])
    expect(clusterColourOf([0, 1, 3, 4])).toBe(STATUS_HEX[3])
    expect(clusterColourOf([0, 0, 1])).toBe(STATUS_HEX[1])
    expect(clusterColourOf([0, 0])).toBe(STATUS_HEX[0])
    expect(pointHex(2)).toBe(STATUS_HEX[2])
    expect(pointHex(4)).toBe(STATUS_HEX[4])
    expect(pointHex(9)).toBe(STATUS_HEX[0])
  })

  it('pushed changes recolour, remove a device now hidden, and add one the map did not draw', () => {
    const index = indexOfLayer(layerOf(locations, MAP_DEVICE_STATUSES))
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
    const index = indexOfLayer(layerOf(locations, MAP_DEVICE_STATUSES))
    const diff = applyChanges(index, [{ id: 9, s: 0, lon: 110, lat: 20 }], new Set([0]), false)
    expect(diff.add).toEqual([])
    expect(index.has(9)).toBe(false)
  })

  it('keeps the basemap names clear of each cluster as the canvas draws it, and of no single device', () => {
    const cluster = (id: number, count: number): Feature<Point> => ({
      type: 'Feature',
      id,
      properties: { cluster: true, cluster_id: id, point_count: count, w: 0 },
      geometry: { type: 'Point', coordinates: [120 + id, 30] },
    })
    const counts = [2, 99, 100, 999, 5000, 10000, 25000]
    const single: Feature<Point> = {
      type: 'Feature',
      id: 7,
      properties: { s: 2 },
      geometry: { type: 'Point', coordinates: [121, 31] },
    }
    const obstacles = clusterObstacles([...counts.map((n, i) => cluster(i, n)), single])
    expect(obstacles).toHaveLength(counts.length)
    expect(obstacles.map((o) => o.radius)).toEqual([16, 16, 20, 20, 25, 31, 31])
    expect(obstacles[3]).toMatchObject({ lon: 123, lat: 30 })
  })
})
