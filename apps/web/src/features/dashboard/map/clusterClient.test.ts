import type { Feature, Point } from 'geojson'
import { describe, expect, it } from 'vitest'
import { CLUSTER, sameFeatures, viewCovers } from './clusterClient'

const asked = { bbox: [118, 29, 124, 33] as [number, number, number, number], zoom: 7.4 }

describe('viewCovers', () => {
  it('serves a view inside the asked one, margin included, at the same clustering level', () => {
    expect(viewCovers(asked, [119, 30, 123, 32], 7.9)).toBe(true)
    expect(viewCovers(asked, [118, 29, 124, 33], 7)).toBe(true)
  })

  it('asks again when the view leaves the margin', () => {
    expect(viewCovers(asked, [117.9, 30, 123, 32], 7.4)).toBe(false)
    expect(viewCovers(asked, [119, 30, 124.1, 32], 7.4)).toBe(false)
    expect(viewCovers(asked, [119, 28.9, 123, 32], 7.4)).toBe(false)
    expect(viewCovers(asked, [119, 30, 123, 33.1], 7.4)).toBe(false)
  })

  it('asks again at another clustering level, and before anything was asked', () => {
    expect(viewCovers(asked, [119, 30, 123, 32], 8)).toBe(false)
    expect(viewCovers(asked, [119, 30, 123, 32], 6.99)).toBe(false)
    expect(viewCovers(null, [119, 30, 123, 32], 7.4)).toBe(false)
  })

  it('takes every zoom past the last clustering one as one level: points only', () => {
    const street = { ...asked, zoom: CLUSTER.maxZoom + 1.2 }
    expect(viewCovers(street, [119, 30, 123, 32], CLUSTER.maxZoom + 4)).toBe(true)
    expect(viewCovers(street, [119, 30, 123, 32], CLUSTER.maxZoom + 0.5)).toBe(false)
  })
})

describe('sameFeatures', () => {
  const device = (id: number, s: number, lon = 120.1): Feature<Point> => ({
    type: 'Feature',
    id,
    properties: { s },
    geometry: { type: 'Point', coordinates: [lon, 30.2] },
  })
  const cluster = (w: number, count: number): Feature<Point> => ({
    type: 'Feature',
    id: 901,
    properties: { cluster: true, cluster_id: 901, point_count: count, w },
    geometry: { type: 'Point', coordinates: [121, 31] },
  })

  it('finds two answers alike when every feature is, in order', () => {
    expect(sameFeatures([device(1, 0), cluster(4, 120)], [device(1, 0), cluster(4, 120)])).toBe(true)
    expect(sameFeatures([], [])).toBe(true)
  })

  it('tells a recoloured device, a changed cluster, a move, a new order or another count apart', () => {
    const shown = [device(1, 0), device(2, 1), cluster(4, 120)]
    expect(sameFeatures(shown, [device(1, 2), device(2, 1), cluster(4, 120)])).toBe(false)
    expect(sameFeatures(shown, [device(1, 0), device(2, 1), cluster(3, 120)])).toBe(false)
    expect(sameFeatures(shown, [device(1, 0), device(2, 1), cluster(4, 121)])).toBe(false)
    expect(sameFeatures(shown, [device(1, 0, 120.2), device(2, 1), cluster(4, 120)])).toBe(false)
    expect(sameFeatures(shown, [device(2, 1), device(1, 0), cluster(4, 120)])).toBe(false)
    expect(sameFeatures(shown, shown.slice(0, 2))).toBe(false)
  })
})
