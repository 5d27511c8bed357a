import { describe, expect, it } from 'vitest'
import { CLUSTER, viewCovers } from './clusterClient'

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
