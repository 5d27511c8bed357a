import { describe, expect, it } from 'vitest'
import { axisMax } from '../EChart/EChart'
import { labelPoint } from './chinaBasemap'
import { fromDisplay, toDisplay } from './datum'
import { tileService } from './mapTiles'

describe('tileService', () => {
  it('is the offline basemap alone unless a service is configured', () => {
    expect(tileService({})).toBeNull()
    expect(tileService({ VITE_MAP_TILES: 'tianditu' })).toBeNull()
  })

  it('knows the datum of each service', () => {
    expect(tileService({ VITE_MAP_TILES: 'amap' })).toMatchObject({ datum: 'gcj02', scheme: 'xyz' })
    expect(tileService({ VITE_MAP_TILES: 'tencent' })).toMatchObject({ datum: 'gcj02', scheme: 'tms' })
    const tianditu = tileService({ VITE_MAP_TILES: 'tianditu', VITE_MAP_TILES_KEY: 'k1' })
    expect(tianditu).toMatchObject({ datum: 'wgs84' })
    expect(tianditu?.tiles[0]).toContain('tk=k1')
    expect(
      tileService({ VITE_MAP_TILES: 'https://tiles.example/{z}/{x}/{y}.png', VITE_MAP_TILES_DATUM: 'wgs84' }),
    ).toMatchObject({ tiles: ['https://tiles.example/{z}/{x}/{y}.png'], datum: 'wgs84' })
  })
})

describe('datum', () => {
  const tiananmen = { lat: 39.90923, lon: 116.397428 }

  it('draws GCJ-02 points as they are on GCJ-02 maps', () => {
    expect(toDisplay(tiananmen, 'gcj02')).toEqual([116.397428, 39.90923])
  })

  it('shifts them by a few hundred metres on WGS-84 maps, and back on a click', () => {
    const [lon, lat] = toDisplay(tiananmen, 'wgs84')
    expect(Math.abs(lon - tiananmen.lon)).toBeGreaterThan(0.004)
    expect(Math.abs(lat - tiananmen.lat)).toBeGreaterThan(0.0005)
    const back = fromDisplay({ lng: lon, lat }, 'wgs84')
    expect(back.lat).toBeCloseTo(tiananmen.lat, 5)
    expect(back.lon).toBeCloseTo(tiananmen.lon, 5)
  })
})

describe('the basemap and charts', () => {
  it('labels a shape at the centroid of its largest ring', () => {
    const square = (x: number, y: number, s: number) => [
      [
        [x, y],
        [x + s, y],
        [x + s, y + s],
        [x, y + s],
        [x, y],
      ],
    ]
    const [lon, lat] = labelPoint({ type: 'MultiPolygon', coordinates: [square(0, 0, 1), square(10, 10, 4)] })
    expect(lon).toBeCloseTo(12)
    expect(lat).toBeCloseTo(12)
  })

  it('scales value axes to multiples of 4', () => {
    expect(axisMax([])).toBe(4)
    expect(axisMax([3])).toBe(4)
    expect(axisMax([17, 9])).toBe(20)
  })
})
