import type { Feature, Point } from 'geojson'
import { describe, expect, it } from 'vitest'
import { mercator, type View } from '../../../components/MapView/canvasLayer'
import { STATUS_HEX } from '../../../lib/deviceStatus'
import {
  byZoom,
  deviceShapes,
  hitsAt,
  MARKER_HALO,
  markerShapes,
  POINT_RADIUS,
  paintDevices,
} from './canvasDevices'
import type { MarkerLayer, MarkerPoint } from './mapLayers'

const cluster = (id: number, lon: number, lat: number, count: number, w: number): Feature<Point> => ({
  type: 'Feature',
  id,
  properties: {
    cluster: true,
    cluster_id: id,
    point_count: count,
    point_count_abbreviated: String(count),
    w,
  },
  geometry: { type: 'Point', coordinates: [lon, lat] },
})
const device = (id: number, lon: number, lat: number, s: number): Feature<Point> => ({
  type: 'Feature',
  id,
  properties: { s },
  geometry: { type: 'Point', coordinates: [lon, lat] },
})

/** A view of 800 × 600 px at `zoom`, centred on (lon, lat). */
function viewAt(lon: number, lat: number, zoom: number): View {
  const world = 512 * 2 ** zoom
  const [x, y] = mercator(lon, lat)
  return { x: 400 - x * world, y: 300 - y * world, world, width: 800, height: 600 }
}
const pixel = (view: View, lon: number, lat: number) => {
  const [x, y] = mercator(lon, lat)
  return { x: view.x + x * view.world, y: view.y + y * view.world }
}

/** A 2D context that records what is filled and drawn, in order: colour, circles and the last radius. */
function recorder() {
  const log: string[] = []
  let arcs = 0
  let radius = 0
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    globalAlpha: 1,
    lineWidth: 1,
    beginPath: () => {
      arcs = 0
    },
    moveTo: () => {},
    arc: (_x: number, _y: number, r: number) => {
      radius = r
      arcs++
    },
    fill: () =>
      log.push(
        `fill ${String(ctx.fillStyle)} ${arcs} r${radius}${ctx.globalAlpha < 1 ? ` @${ctx.globalAlpha}` : ''}`,
      ),
    stroke: () => log.push(`stroke ${String(ctx.strokeStyle)} ${arcs} r${radius}`),
    drawImage: (sprite: { text: string }) => log.push(`count ${sprite.text}`),
  }
  return { ctx: ctx as unknown as CanvasRenderingContext2D, log }
}
const sprite = (text: string) => ({ text, width: 20, height: 16 }) as unknown as HTMLCanvasElement

const rescue: MarkerLayer = {
  key: 'rescue',
  label: 'dashboard.layer.rescue',
  color: '#cf1322',
  refreshMs: 1,
  liveTypes: [],
  load: async () => [],
}
const marker = (id: number, lon: number, lat: number, active: boolean): MarkerPoint => ({
  id,
  lon,
  lat,
  title: `R${id}`,
  lines: [],
  active,
})
const same = (p: { lon: number; lat: number }): [number, number] => [p.lon, p.lat]

describe('device canvas', () => {
  it('groups single devices by colour with the worst status last, and keeps each cluster with its count', () => {
    const shapes = deviceShapes([
      device(1, 120, 30, 2),
      device(2, 120.01, 30, 0),
      cluster(9, 121, 31, 1500, 3),
      device(3, 120.02, 30, 0),
      device(4, 120.03, 30, 4),
    ])
    expect(shapes.points.map((g) => [g.color, g.features.map((f) => f.id)])).toEqual([
      [STATUS_HEX[0], [2, 3]],
      [STATUS_HEX[4], [4]],
      [STATUS_HEX[2], [1]],
    ])
    expect(shapes.clusters).toHaveLength(1)
    expect(shapes.clusters[0]).toMatchObject({ radius: 23, color: STATUS_HEX[3], text: '1500' })
  })

  it('draws clusters, then devices, then markers with their halos, then the counts, and only what is on screen', () => {
    const view = viewAt(120, 30, 12)
    const shapes = deviceShapes([
      cluster(9, 120.01, 30, 40, 4),
      cluster(8, 125, 30, 40, 0), // far off screen
      device(1, 120, 30, 0),
      device(2, 120.005, 30, 2),
      device(3, 126, 30, 2), // off screen
    ])
    const markers = markerShapes(
      [{ layer: rescue, points: [marker(1, 120, 30.001, true), marker(2, 120, 30.002, false)] }],
      same,
    )
    const { ctx, log } = recorder()
    paintDevices(ctx, shapes, markers, view, 12, sprite)
    // At zoom 12: a cluster of 40 is 14 px with its 2 px ring outside; a device 6 px with 1.5;
    // a rescue 8 px with 2.5, and an 18 px halo.
    expect(log).toEqual([
      `fill ${STATUS_HEX[2]} 1 r14 @0.88`, // cluster 9: fault inside
      'stroke #ffffff 1 r15',
      'fill #ffffff 1 r7.5', // the normal device's ring, then its disc
      `fill ${STATUS_HEX[0]} 1 r6`,
      'fill #ffffff 1 r7.5', // the faulty one's, on top
      `fill ${STATUS_HEX[2]} 1 r6`,
      'fill #cf1322 1 r18 @0.25', // one halo: one rescue is still going on
      'fill #ffffff 2 r10.5',
      'fill #cf1322 2 r8',
      'count 40',
    ])
  })

  it('draws a layer’s points in their own colours, the layer’s colour first, at its scale, and finds each', () => {
    const view = viewAt(120, 30, 12)
    const people: MarkerLayer = { ...rescue, key: 'responder', color: '#13a8a8', scale: 0.5 }
    const points = [
      { ...marker(1, 120, 30.01, false), color: '#8c8c8c' },
      { ...marker(2, 120, 30.02, false), color: '#13a8a8' },
      { ...marker(3, 120, 29.99, false) }, // no colour of its own: the layer's
      { ...marker(4, 120, 29.98, false), color: '#d46b08' },
    ]
    const markers = markerShapes([{ layer: people, points }], same)
    const { ctx, log } = recorder()
    paintDevices(ctx, deviceShapes([]), markers, view, 12, sprite)
    // Half a rescue's size: 4 px with a 1.25 px ring at zoom 12.
    expect(log).toEqual([
      'fill #ffffff 2 r5.25',
      'fill #13a8a8 2 r4',
      'fill #ffffff 1 r5.25',
      'fill #8c8c8c 1 r4',
      'fill #ffffff 1 r5.25',
      'fill #d46b08 1 r4',
    ])
    const at = pixel(view, 120, 29.98)
    const ids = (dx: number) =>
      hitsAt(deviceShapes([]), markers, view, 12, at.x + dx, at.y).map(
        (h) => h.kind === 'marker' && h.point.id,
      )
    expect(ids(0)).toEqual([4])
    expect(ids(5)).toEqual([4])
    expect(ids(6)).toEqual([])
  })

  it('draws an outlined layer (third-party AEDs) as white discs in a ring of its colour', () => {
    const view = viewAt(120, 30, 12)
    const others: MarkerLayer = {
      ...rescue,
      key: 'third_party',
      color: '#8c8c8c',
      scale: 0.5,
      outlined: true,
    }
    const markers = markerShapes([{ layer: others, points: [marker(1, 120, 30, false)] }], same)
    const { ctx, log } = recorder()
    paintDevices(ctx, deviceShapes([]), markers, view, 12, sprite)
    expect(log).toEqual(['fill #8c8c8c 1 r5.25', 'fill #ffffff 1 r4'])
  })

  it('finds what is drawn under a pixel, the topmost first, within each circle and its ring', () => {
    const view = viewAt(120, 30, 14)
    const shapes = deviceShapes([cluster(9, 120.01, 30, 40, 0), device(1, 120, 30, 0), device(2, 120, 30, 2)])
    // The markers' places are shifted for display, as the map's datum may ask.
    const shifted = (p: { lon: number; lat: number }): [number, number] => [p.lon + 0.001, p.lat]
    const markers = markerShapes([{ layer: rescue, points: [marker(7, 119.999, 30, true)] }], shifted)
    const at = pixel(view, 120, 30)
    const hits = hitsAt(shapes, markers, view, 14, at.x, at.y)
    expect(
      hits.map((h) => (h.kind === 'marker' ? `marker ${h.point.id}` : `${h.kind} ${h.feature.id}`)),
    ).toEqual(['marker 7', 'device 2', 'device 1'])
    expect(hits[0].at[0]).toBeCloseTo(120, 9)
    expect(hits[0].at[1]).toBe(30)
    // A device at zoom 14 is 7 px with a 1.5 px ring: hit at 8 px from its centre, not at 9.
    expect(hitsAt(shapes, [], view, 14, at.x + 8, at.y)).toHaveLength(2)
    expect(hitsAt(shapes, [], view, 14, at.x + 9, at.y)).toHaveLength(0)
    // The cluster of 40 is 14 px with a 2 px ring.
    const c = pixel(view, 120.01, 30)
    expect(hitsAt(shapes, [], view, 14, c.x, c.y + 15.5).map((h) => h.kind)).toEqual(['cluster'])
    expect(hitsAt(shapes, [], view, 14, c.x, c.y + 16.5)).toEqual([])
  })

  it('sizes by zoom linearly between two stops and holds beyond them', () => {
    expect([2, 8, 12, 16, 18].map((z) => byZoom(z, POINT_RADIUS))).toEqual([4, 4, 6, 8, 8])
    expect(byZoom(8, MARKER_HALO)).toBe(14)
  })

  it('finds a cluster first over its count, drawn over the markers, and the marker beside it', () => {
    const view = viewAt(120, 30, 6)
    // At zoom 6 a cluster of 105 is 18 px with a 2 px ring; a rescue reaches 7.5 px. The rescue
    // lies 16 px east of the cluster's centre, past its count's digits (about 12.8 px each way).
    const east = 120 + (16 * 360) / view.world
    const shapes = deviceShapes([cluster(9, 120, 30, 105, 0)])
    const markers = markerShapes([{ layer: rescue, points: [marker(7, east, 30, true)] }], same)
    const at = pixel(view, 120, 30)
    const kinds = (dx: number, dy: number) =>
      hitsAt(shapes, markers, view, 6, at.x + dx, at.y + dy).map((h) => h.kind)
    expect(kinds(0, 0)).toEqual(['cluster'])
    expect(kinds(16, 0)).toEqual(['marker', 'cluster'])
    expect(kinds(10, 0)).toEqual(['cluster', 'marker'])
    expect(kinds(0, -8.5)).toEqual(['cluster'])
    expect(kinds(0, 21)).toEqual([])
  })
})
