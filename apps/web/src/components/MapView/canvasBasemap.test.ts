import type { FeatureCollection, MultiPolygon } from 'geojson'
import { describe, expect, it } from 'vitest'
import { type Label, nameSprites, placeLabels, toMercator, tracePath } from './canvasBasemap'
import { mercator, type View } from './canvasLayer'

/** A path that records what it was told. */
function recorder() {
  const calls: string[] = []
  return {
    calls,
    moveTo: (x: number, y: number) => calls.push(`M${Math.round(x)},${Math.round(y)}`),
    lineTo: (x: number, y: number) => calls.push(`L${Math.round(x)},${Math.round(y)}`),
    closePath: () => calls.push('Z'),
  }
}

const shapes = (...rings: [number, number][][]): FeatureCollection<MultiPolygon> => ({
  type: 'FeatureCollection',
  features: rings.map((ring) => ({
    type: 'Feature',
    properties: {},
    geometry: { type: 'MultiPolygon', coordinates: [[ring]] },
  })),
})

describe('mercator', () => {
  it('projects as MapLibre does: 0-1 across the world, y down', () => {
    expect(mercator(-180, 0)).toEqual([0, 0.5])
    expect(mercator(0, 0)).toEqual([0.5, 0.5])
    const [x, y] = mercator(121.47, 31.23)
    // Shanghai at zoom 10 (512 px tiles): tile column 857, row 418 of 1024.
    expect(Math.floor(x * 1024)).toBe(857)
    expect(Math.floor(y * 1024)).toBe(418)
    expect(mercator(0, 89)[1]).toBeGreaterThan(0)
  })
})

describe('tracePath', () => {
  // A world 1,000 px wide with Mercator (0, 0) at the screen's origin: 1 unit = 1,000 px.
  const view: View = { x: 0, y: 0, world: 1000, width: 400, height: 300 }
  const square = (x0: number, y0: number, size: number): [number, number][] => {
    // Rings are given in lon/lat; this makes one whose Mercator corners are known.
    const lon = (x: number) => x * 360 - 180
    const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI
    return [
      [lon(x0), lat(y0)],
      [lon(x0 + size), lat(y0)],
      [lon(x0 + size), lat(y0 + size)],
      [lon(x0), lat(y0 + size)],
      [lon(x0), lat(y0)],
    ]
  }

  it('draws a ring on screen in pixels, closed', () => {
    const path = recorder()
    tracePath(path, toMercator(shapes(square(0.1, 0.1, 0.1))), view)
    expect(path.calls).toEqual(['M100,100', 'L200,100', 'L200,200', 'L100,200', 'L100,100', 'Z'])
  })

  it('leaves out rings wholly off screen and keeps those that reach it', () => {
    const path = recorder()
    const both = toMercator(shapes(square(0.5, 0.1, 0.1), square(0.35, 0.25, 0.1)))
    tracePath(path, both, view)
    expect(path.calls[0]).toBe('M350,250')
    expect(path.calls.filter((c) => c.startsWith('M'))).toHaveLength(1)
  })

  it('skips points under half a pixel from the last one drawn, but never the ring’s last', () => {
    const path = recorder()
    const lon = (x: number) => x * 360 - 180
    const ring: [number, number][] = [
      [lon(0.1), 0],
      [lon(0.1001), 0],
      [lon(0.1002), 0],
      [lon(0.2), 0],
      [lon(0.2002), 0],
    ]
    tracePath(path, toMercator(shapes(ring)), { ...view, y: -200 })
    expect(path.calls).toEqual(['M100,300', 'L200,300', 'L200,300', 'Z'])
  })

  it('moves with the view: the same ring, offset and scaled', () => {
    const path = recorder()
    tracePath(path, toMercator(shapes(square(0.1, 0.1, 0.1))), { ...view, x: -150, y: -250, world: 2000 })
    expect(path.calls.slice(0, 3)).toEqual(['M50,-50', 'L250,-50', 'L250,150'])
  })
})

describe('placeLabels', () => {
  const label = (text: string, x: number, y: number, width = 40): Label => ({
    text,
    x,
    y,
    width,
    size: 12,
    baseline: 'top',
  })

  it('keeps labels in the order given and leaves out those that would overlap a kept one', () => {
    const placed = placeLabels([label('杭州', 100, 100), label('嘉兴', 120, 105), label('宁波', 160, 100)])
    expect(placed.map((l) => l.text)).toEqual(['杭州', '宁波'])
  })

  it('keeps 2 px of padding around each box', () => {
    // Boxes 40 wide: centres 44 apart leave a 4 px gap, exactly the two paddings.
    expect(placeLabels([label('a', 100, 100), label('b', 144, 100)])).toHaveLength(2)
    expect(placeLabels([label('a', 100, 100), label('b', 143, 100)])).toHaveLength(1)
  })

  it('measures a province name from its middle and a city name from its top', () => {
    const province: Label = { ...label('江苏', 100, 100), baseline: 'middle' }
    // The city's box starts at its y (100); the province's ends at 100 + 6 + 2.
    expect(placeLabels([province, label('南京', 100, 104)])).toHaveLength(1)
    expect(placeLabels([province, label('南京', 100, 112)])).toHaveLength(2)
  })

  it('leaves out a label that meets a blocked box (a cluster drawn over the basemap)', () => {
    const blocked = [90, 90, 110, 110]
    expect(placeLabels([label('a', 100, 100)], 2, blocked)).toHaveLength(0)
    expect(placeLabels([label('a', 100, 111)], 2, blocked)).toHaveLength(0)
    expect(placeLabels([label('a', 100, 112)], 2, blocked)).toHaveLength(1)
    expect(placeLabels([label('a', 200, 100)], 2, blocked)).toHaveLength(1)
  })

  it('makes a new name only within the budget of its frame, and keeps the names it made', () => {
    const names = nameSprites()
    const past = performance.now() - 1
    expect(names.sprite(label('南京', 100, 100), 1, past)).toBeNull()
    const made = names.sprite(label('南京', 100, 100), 1)
    expect(made).not.toBeNull()
    expect(names.sprite(label('南京', 100, 100), 1, past)).toBe(made)
    expect(names.sprite(label('南京', 100, 100), 2, past)).toBeNull()
  })
})
