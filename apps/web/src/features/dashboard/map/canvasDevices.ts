import type { Feature, Point } from 'geojson'
import type { Map as MapLibre } from 'maplibre-gl'
import {
  canvasLayer,
  mercator,
  onScreen,
  textSprite,
  type View,
} from '../../../components/MapView/canvasLayer'
import type { LatLon } from '../../../components/MapView/datum'
import { LOCAL_FONTS } from '../../../components/MapView/mapStyle'
import { CLUSTER_STROKE, clusterHex, clusterRadiusOf, pointHex, rankOf } from './deviceSource'
import type { MarkerPoint, MarkerSet } from './mapLayers'

/** A cluster as drawn: where (Mercator), its circle and count, and the worker's feature. */
type DrawnCluster = {
  x: number
  y: number
  radius: number
  color: string
  text: string
  feature: Feature<Point>
}

/** The single devices of one colour: x and y (Mercator) after each other, and their features. */
type DrawnPoints = { color: string; coords: Float64Array; features: Feature<Point>[] }

/** A marker layer as drawn: every point's x and y (Mercator), the same by colour, and those with a halo. */
type DrawnMarkers = {
  key: string
  color: string
  coords: Float64Array
  /** The layer's own colour first (the usual state under the exceptions), then the others. */
  byColor: { color: string; coords: Float64Array }[]
  /** Its size against a rescue marker's (radius, ring and halo). */
  scale: number
  /** White discs in a ring of the colour (third-party AEDs), not filled ones. */
  outlined: boolean
  active: Float64Array
  points: readonly MarkerPoint[]
  /** Each point in the map's display coordinates. */
  places: [number, number][]
}

/** What the device canvas draws, in Mercator units, ready for each frame. */
export type DeviceShapes = { clusters: DrawnCluster[]; points: DrawnPoints[] }

/** What is under the mouse: a cluster, a single device or a marker, and where it is (display coordinates). */
export type CanvasHit =
  | { kind: 'cluster'; feature: Feature<Point>; at: [number, number] }
  | { kind: 'device'; feature: Feature<Point>; at: [number, number] }
  | { kind: 'marker'; layer: string; point: MarkerPoint; at: [number, number] }

/** The clusters' opacity (their ring is opaque). */
const CLUSTER_OPACITY = 0.88
/** A single device's radius: 4 px at zoom 8 up to 8 px at zoom 16 (zoom, px, zoom, px), held beyond. */
export const POINT_RADIUS = [8, 4, 16, 8] as const
/** The white ring round a single device (px). */
const POINT_STROKE = 1.5
/** A marker's radius (zoom, px, zoom, px). */
const MARKER_RADIUS = [4, 5, 12, 8] as const
/** The width of a marker's white ring (zoom, px, zoom, px). */
const MARKER_STROKE = [4, 1.5, 12, 2.5] as const
/** The radius of the halo round a rescue still going on (zoom, px, zoom, px). */
export const MARKER_HALO = [4, 10, 12, 18] as const

/** A two-stop size by zoom: linear between the stops, held beyond. */
export const byZoom = (zoom: number, [z0, from, z1, to]: readonly [number, number, number, number]) =>
  from + ((to - from) * (Math.min(z1, Math.max(z0, zoom)) - z0)) / (z1 - z0)

/**
 * The cluster worker's features as the canvas draws them: clusters with their radius, colour and
 * count, and single devices grouped by colour, the worst statuses last so they are drawn on top.
 */
export function deviceShapes(features: readonly Feature<Point>[]): DeviceShapes {
  const clusters: DrawnCluster[] = []
  const byStatus = new Map<number, Feature<Point>[]>()
  for (const f of features) {
    const p = f.properties ?? {}
    if (p.cluster) {
      const count = Number(p.point_count)
      const [x, y] = mercator(f.geometry.coordinates[0], f.geometry.coordinates[1])
      clusters.push({
        x,
        y,
        radius: clusterRadiusOf(count),
        color: clusterHex(Number(p.w)),
        text: String(p.point_count_abbreviated ?? count),
        feature: f,
      })
    } else {
      const s = Number(p.s)
      const list = byStatus.get(s) ?? []
      if (list.length === 0) byStatus.set(s, list)
      list.push(f)
    }
  }
  const points = [...byStatus]
    .sort(([a], [b]) => rankOf(a) - rankOf(b))
    .map(([s, list]) => ({
      color: pointHex(s),
      coords: mercatorOf(list.map((f) => f.geometry.coordinates as [number, number])),
      features: list,
    }))
  return { clusters, points }
}

/** The ticked marker layers as the canvas draws them (`show`: GCJ-02 to the map's coordinates). */
export function markerShapes(markers: MarkerSet, show: (p: LatLon) => [number, number]): DrawnMarkers[] {
  return markers.map((m) => {
    const places = m.points.map(show)
    const colorOf = (p: MarkerPoint) => p.color ?? m.layer.color
    const colors = [...new Set([m.layer.color, ...m.points.map(colorOf)])]
    return {
      key: m.layer.key,
      color: m.layer.color,
      scale: m.layer.scale ?? 1,
      outlined: m.layer.outlined ?? false,
      coords: mercatorOf(places),
      byColor: colors.flatMap((color) => {
        const mine = places.filter((_, i) => colorOf(m.points[i]) === color)
        return mine.length ? [{ color, coords: mercatorOf(mine) }] : []
      }),
      active: mercatorOf(places.filter((_, i) => m.points[i].active)),
      points: m.points,
      places,
    }
  })
}

/**
 * Draws `shapes` and `markers` for `view`: clusters, single devices (each colour in one path, the
 * worst last), then markers over them (a rescue happens at a device, whose point would hide it;
 * a halo round those still going on), then the clusters' counts over all.
 */
export function paintDevices(
  ctx: CanvasRenderingContext2D,
  shapes: DeviceShapes,
  markers: readonly DrawnMarkers[],
  view: View,
  zoom: number,
  countSprite: (text: string) => CanvasImageSource & { width: number; height: number },
  ratio = 1,
) {
  const shownClusters: { x: number; y: number; text: string }[] = []
  ctx.lineWidth = CLUSTER_STROKE
  ctx.strokeStyle = '#ffffff'
  for (const c of shapes.clusters) {
    const p = onScreen(view, c, c.radius + CLUSTER_STROKE)
    if (!p) continue
    shownClusters.push({ ...p, text: c.text })
    ctx.beginPath()
    ctx.arc(p.x, p.y, c.radius, 0, 2 * Math.PI)
    ctx.globalAlpha = CLUSTER_OPACITY
    ctx.fillStyle = c.color
    ctx.fill()
    ctx.globalAlpha = 1
    // The ring lies outside the circle, as MapLibre's circle-stroke did.
    ctx.beginPath()
    ctx.arc(p.x, p.y, c.radius + CLUSTER_STROKE / 2, 0, 2 * Math.PI)
    ctx.stroke()
  }

  const radius = byZoom(zoom, POINT_RADIUS)
  for (const group of shapes.points) discs(ctx, view, group.coords, radius, POINT_STROKE, group.color)

  const halo = byZoom(zoom, MARKER_HALO)
  const markerRadius = byZoom(zoom, MARKER_RADIUS)
  const markerStroke = byZoom(zoom, MARKER_STROKE)
  for (const m of markers) {
    ctx.fillStyle = m.color
    ctx.globalAlpha = 0.25
    if (circles(ctx, view, m.active, halo * m.scale)) ctx.fill()
    ctx.globalAlpha = 1
    const paint = m.outlined ? rings : discs
    for (const g of m.byColor)
      paint(ctx, view, g.coords, markerRadius * m.scale, markerStroke * m.scale, g.color)
  }

  // The counts over the markers, so a rescue beside a cluster does not hide its number.
  for (const c of shownClusters) {
    const sprite = countSprite(c.text)
    const w = sprite.width / ratio
    const h = sprite.height / ratio
    ctx.drawImage(sprite, c.x - w / 2, c.y - h / 2, w, h)
  }
}

/**
 * What is under the pixel (x, y) of `view`, the topmost first as drawn: a cluster's count, then
 * markers, single devices (the worst status on top) and clusters. Each is hit within its circle
 * and ring, a count within about the box of its digits.
 */
export function hitsAt(
  shapes: DeviceShapes,
  markers: readonly DrawnMarkers[],
  view: View,
  zoom: number,
  x: number,
  y: number,
): CanvasHit[] {
  const hits: CanvasHit[] = []
  const within = (mx: number, my: number, r: number) => {
    const dx = view.x + mx * view.world - x
    const dy = view.y + my * view.world - y
    return dx * dx + dy * dy <= r * r
  }
  // The counts are drawn over everything: a click on a number zooms into its cluster.
  for (let i = shapes.clusters.length - 1; i >= 0; i--) {
    const c = shapes.clusters[i]
    const dx = Math.abs(view.x + c.x * view.world - x)
    const dy = Math.abs(view.y + c.y * view.world - y)
    if (dx > COUNT_DIGIT * c.text.length + COUNT_PAD || dy > 8) continue
    hits.push({ kind: 'cluster', feature: c.feature, at: c.feature.geometry.coordinates as [number, number] })
  }
  const markerReach = byZoom(zoom, MARKER_RADIUS) + byZoom(zoom, MARKER_STROKE)
  for (let l = markers.length - 1; l >= 0; l--) {
    const m = markers[l]
    for (let i = m.points.length - 1; i >= 0; i--) {
      if (!within(m.coords[2 * i], m.coords[2 * i + 1], markerReach * m.scale)) continue
      hits.push({ kind: 'marker', layer: m.key, point: m.points[i], at: m.places[i] })
    }
  }
  const pointReach = byZoom(zoom, POINT_RADIUS) + POINT_STROKE
  for (let g = shapes.points.length - 1; g >= 0; g--) {
    const group = shapes.points[g]
    for (let i = group.features.length - 1; i >= 0; i--) {
      if (!within(group.coords[2 * i], group.coords[2 * i + 1], pointReach)) continue
      const feature = group.features[i]
      hits.push({ kind: 'device', feature, at: feature.geometry.coordinates as [number, number] })
    }
  }
  for (let i = shapes.clusters.length - 1; i >= 0; i--) {
    const c = shapes.clusters[i]
    if (
      !within(c.x, c.y, c.radius + CLUSTER_STROKE) ||
      hits.some((h) => h.kind === 'cluster' && h.feature === c.feature)
    )
      continue
    hits.push({ kind: 'cluster', feature: c.feature, at: c.feature.geometry.coordinates as [number, number] })
  }
  return hits
}

/** Discs of one colour with a white ring outside them: the rings in one path, then the discs. */
function discs(
  ctx: CanvasRenderingContext2D,
  view: View,
  coords: Float64Array,
  radius: number,
  stroke: number,
  color: string,
) {
  ctx.fillStyle = '#ffffff'
  if (!circles(ctx, view, coords, radius + stroke)) return
  ctx.fill()
  ctx.fillStyle = color
  circles(ctx, view, coords, radius)
  ctx.fill()
}

/** White discs in a ring of `color` (the ring as wide as `stroke`, drawn outside them). */
function rings(
  ctx: CanvasRenderingContext2D,
  view: View,
  coords: Float64Array,
  radius: number,
  stroke: number,
  color: string,
) {
  ctx.fillStyle = color
  if (!circles(ctx, view, coords, radius + stroke)) return
  ctx.fill()
  ctx.fillStyle = '#ffffff'
  circles(ctx, view, coords, radius)
  ctx.fill()
}

/** A new path of the circles (Mercator centres) on screen; whether there is any. */
function circles(ctx: CanvasRenderingContext2D, view: View, coords: Float64Array, radius: number) {
  ctx.beginPath()
  let any = false
  const { x: ox, y: oy, world, width, height } = view
  for (let i = 0; i < coords.length; i += 2) {
    const x = ox + coords[i] * world
    const y = oy + coords[i + 1] * world
    if (x < -radius || x > width + radius || y < -radius || y > height + radius) continue
    ctx.moveTo(x + radius, y)
    ctx.arc(x, y, radius, 0, 2 * Math.PI)
    any = true
  }
  return any
}

/** Places' Mercator x and y after each other. */
function mercatorOf(places: readonly (readonly [number, number])[]) {
  const coords = new Float64Array(places.length * 2)
  places.forEach(([lon, lat], i) => {
    coords.set(mercator(lon, lat), 2 * i)
  })
  return coords
}

/** The dashboard's devices and markers on a 2D canvas over the map. */
export type CanvasDevices = {
  /** The cluster worker's features of the view. */
  setDevices(features: readonly Feature<Point>[]): void
  /** The ticked marker layers and their points. */
  setMarkers(markers: MarkerSet): void
  /** What is under a pixel of the map, the topmost first. */
  hitsAt(point: { x: number; y: number }): CanvasHit[]
  /** Takes the canvas away. */
  remove(): void
}

/**
 * The dashboard's clusters, single devices and markers, drawn on a 2D canvas over the map's
 * WebGL canvas (canvasLayer) in the map's own frames, and found under the mouse here too: the map
 * itself has no layer of them, so an answer of the cluster worker is not copied to MapLibre's
 * worker, tiled and uploaded again (docs/benchmarks.md, session 10).
 */
export function drawCanvasDevices(map: MapLibre, show: (p: LatLon) => [number, number]): CanvasDevices {
  let shapes: DeviceShapes = { clusters: [], points: [] }
  let markers: DrawnMarkers[] = []
  const sprites = new Map<string, HTMLCanvasElement>()
  let spriteRatio = 0
  let last: { view: View; zoom: number } | null = null
  const layer = canvasLayer(map, { className: 'map-data-canvas', under: false }, (ctx, view, zoom, ratio) => {
    if (ratio !== spriteRatio) {
      sprites.clear()
      spriteRatio = ratio
    }
    last = { view, zoom }
    paintDevices(ctx, shapes, markers, view, zoom, (text) => countSprite(sprites, text, ratio), ratio)
  })
  return {
    setDevices(features) {
      shapes = deviceShapes(features)
      layer.redraw()
    },
    setMarkers(next) {
      markers = markerShapes(next, show)
      layer.redraw()
    },
    hitsAt(point) {
      return last ? hitsAt(shapes, markers, last.view, last.zoom, point.x, point.y) : []
    },
    remove: layer.remove,
  }
}

/** Room round a count for its edge (px). */
const COUNT_PAD = 2
/** About half the width of one of a count's digits at 12 px (px). */
const COUNT_DIGIT = 3.6

/**
 * A cluster's count in white (textSprite), with a faint dark edge that keeps it legible over the
 * red rescue markers drawn under it.
 */
function countSprite(sprites: Map<string, HTMLCanvasElement>, text: string, ratio: number) {
  let sprite = sprites.get(text)
  if (sprite) return sprite
  const measure = document.createElement('canvas').getContext('2d')
  if (measure) measure.font = `12px ${LOCAL_FONTS}`
  const width = measure?.measureText(text).width ?? 7 * text.length
  sprite = textSprite(
    text,
    width,
    { font: LOCAL_FONTS, size: 12, fill: '#ffffff', outline: 'rgba(0, 0, 0, 0.35)', outlineWidth: 2.5 },
    ratio,
    COUNT_PAD,
  )
  sprites.set(text, sprite)
  return sprite
}
