import gcoord from 'gcoord'
import { describe, expect, it } from 'vitest'
import { distanceM, gcj02ToWgs84, wgs84ToGcj02 } from './geo'
import { fitView, metresPerPixel, project, scaleBar, tilesFor } from './mapView'

const tiananmen = { lat: 39.90923, lon: 116.397428 }

describe('geo', () => {
  it('shifts a browser position to GCJ-02 as gcoord does, and back within a metre', () => {
    const gcj = wgs84ToGcj02(tiananmen)
    const [lon, lat] = gcoord.transform([tiananmen.lon, tiananmen.lat], gcoord.WGS84, gcoord.GCJ02)
    expect(distanceM(gcj, { lat, lon })).toBeLessThan(0.01)
    expect(distanceM(gcj, tiananmen)).toBeGreaterThan(300)
    expect(distanceM(gcj02ToWgs84(gcj), tiananmen)).toBeLessThan(1)
  })

  it('leaves points outside China as they are', () => {
    const paris = { lat: 48.8584, lon: 2.2945 }
    expect(wgs84ToGcj02(paris)).toEqual(paris)
  })

  it('measures metres along the ground', () => {
    // 0.01 degrees of latitude is about 1,112 m.
    expect(distanceM(tiananmen, { lat: tiananmen.lat + 0.01, lon: tiananmen.lon })).toBeCloseTo(1112, -1)
  })
})

describe('the schematic view', () => {
  const patient = { lat: 30.2741, lon: 120.1551 }
  const aed = { lat: 30.2761, lon: 120.1571 }
  const me = { lat: 30.2711, lon: 120.1521 }

  it('fits every point inside the padding, north up', () => {
    const view = fitView([patient, aed, me], 360, 230, 34)
    for (const p of [patient, aed, me]) {
      const [x, y] = project(view, p)
      expect(x).toBeGreaterThanOrEqual(33.9)
      expect(x).toBeLessThanOrEqual(326.1)
      expect(y).toBeGreaterThanOrEqual(33.9)
      expect(y).toBeLessThanOrEqual(196.1)
    }
    // The AED is north-east of the patient: right and up on the screen.
    const [px, py] = project(view, patient)
    const [ax, ay] = project(view, aed)
    expect(ax).toBeGreaterThan(px)
    expect(ay).toBeLessThan(py)
  })

  it('shows one point alone at street level, centred', () => {
    const view = fitView([patient], 360, 230, 34)
    expect(view.zoom).toBe(17)
    const [x, y] = project(view, patient)
    expect(x).toBeCloseTo(180)
    expect(y).toBeCloseTo(115)
    // About 1.0 m a pixel at zoom 17 and 30°N: a scale bar of 50 m under 90 px.
    expect(metresPerPixel(view, patient.lat)).toBeCloseTo(1.03, 1)
    expect(scaleBar(view, patient.lat, 90).metres).toBe(50)
  })

  it('lists the tiles under the view, flipping rows for TMS services', () => {
    const view = fitView([patient], 360, 230, 34)
    const xyz = tilesFor(view, ['https://a/{z}/{x}/{y}.png', 'https://b/{z}/{x}/{y}.png'], 'xyz', 18)
    expect(xyz.length).toBeGreaterThanOrEqual(2)
    expect(xyz.length).toBeLessThanOrEqual(6)
    const first = xyz[0]
    expect(first.size).toBeCloseTo(256)
    expect(first.href).toMatch(/^https:\/\/[ab]\/17\/\d+\/\d+\.png$/)
    // Every pixel of the view is under a tile.
    const covers = (x: number, y: number) =>
      xyz.some((t) => x >= t.x && x < t.x + t.size && y >= t.y && y < t.y + t.size)
    expect(covers(0, 0) && covers(359, 229) && covers(0, 229) && covers(359, 0)).toBe(true)
    const tms = tilesFor(view, ['{z}/{x}/{y}'], 'tms', 18)
    const [, , y] = first.href
      .replace(/^https:\/\/[ab]\//, '')
      .split(/[/.]/)
      .map(Number)
    expect(tms.map((t) => Number(t.href.split('/')[2]))).toContain(2 ** 17 - 1 - y)
  })

  it('draws tiles of the service’s deepest zoom larger past it', () => {
    const view = fitView([patient, { lat: patient.lat + 0.0003, lon: patient.lon }], 360, 230, 34)
    expect(view.zoom).toBe(18)
    const tiles = tilesFor(view, ['{z}/{x}/{y}'], 'xyz', 16)
    expect(tiles[0].href.startsWith('16/')).toBe(true)
    expect(tiles[0].size).toBeCloseTo(1024)
  })
})
