import type { FeatureCollection, MultiPolygon } from 'geojson'
import type { Map as MapLibre } from 'maplibre-gl'
import { canvasLayer, mercator, onScreen, textSprite, type View } from './canvasLayer'
import type { ChinaBasemap } from './chinaBasemap'
import { LOCAL_FONTS } from './mapStyle'

/** Rings in Web Mercator units (0-1 across the world), with each ring's bounds for culling. */
export type MercatorShapes = {
  /** x, y pairs of every ring, one after the other. */
  coords: Float64Array
  /** Where each ring starts in `coords` (in points); one more entry closes the last ring. */
  starts: Uint32Array
  /** minX, minY, maxX, maxY of each ring. */
  bounds: Float64Array
}

/** Every ring of `shapes` in Mercator units, packed for drawing each frame without allocating. */
export function toMercator(shapes: FeatureCollection<MultiPolygon>): MercatorShapes {
  const rings = shapes.features.flatMap((f) => f.geometry.coordinates.flat())
  const points = rings.reduce((n, r) => n + r.length, 0)
  const coords = new Float64Array(points * 2)
  const starts = new Uint32Array(rings.length + 1)
  const bounds = new Float64Array(rings.length * 4)
  let at = 0
  rings.forEach((ring, i) => {
    starts[i] = at
    let minX = Number.POSITIVE_INFINITY
    let minY = Number.POSITIVE_INFINITY
    let maxX = Number.NEGATIVE_INFINITY
    let maxY = Number.NEGATIVE_INFINITY
    for (const [lon, lat] of ring) {
      const [x, y] = mercator(lon, lat)
      coords[at * 2] = x
      coords[at * 2 + 1] = y
      at++
      minX = Math.min(minX, x)
      minY = Math.min(minY, y)
      maxX = Math.max(maxX, x)
      maxY = Math.max(maxY, y)
    }
    bounds.set([minX, minY, maxX, maxY], i * 4)
  })
  starts[rings.length] = at
  return { coords, starts, bounds }
}

type PathSink = Pick<CanvasRenderingContext2D, 'moveTo' | 'lineTo' | 'closePath'>

/**
 * Adds the rings of `shapes` that reach the view to `path`, in screen pixels. Rings wholly off
 * screen are left out, and points less than half a pixel from the last one drawn are skipped:
 * at country zoom the 16,000 border points fall on a few hundred pixels.
 */
export function tracePath(path: PathSink, shapes: MercatorShapes, view: View, margin = 4): void {
  const { coords, starts, bounds } = shapes
  const { x: ox, y: oy, world } = view
  for (let r = 0; r < starts.length - 1; r++) {
    const b = r * 4
    if (
      ox + bounds[b] * world > view.width + margin ||
      ox + bounds[b + 2] * world < -margin ||
      oy + bounds[b + 1] * world > view.height + margin ||
      oy + bounds[b + 3] * world < -margin
    )
      continue
    let lastX = ox + coords[starts[r] * 2] * world
    let lastY = oy + coords[starts[r] * 2 + 1] * world
    path.moveTo(lastX, lastY)
    const end = starts[r + 1]
    for (let p = starts[r] + 1; p < end; p++) {
      const x = ox + coords[p * 2] * world
      const y = oy + coords[p * 2 + 1] * world
      if (p < end - 1 && Math.abs(x - lastX) < 0.5 && Math.abs(y - lastY) < 0.5) continue
      path.lineTo(x, y)
      lastX = x
      lastY = y
    }
    path.closePath()
  }
}

/** A name to draw: where (CSS pixels), how big, and above what it is drawn. */
export type Label = {
  text: string
  x: number
  y: number
  width: number
  size: number
  /** The text's top at y (a city's name under its dot), or its middle (a province's). */
  baseline: 'top' | 'middle'
}

/**
 * The labels that fit, in the order given (the first wins): each keeps a box of its text and 2
 * px around it, as MapLibre's `text-padding`, and a label whose box meets a kept one, or one of
 * the `blocked` boxes (x0, y0, x1, y1 after each other), is left out.
 */
export function placeLabels(labels: Label[], padding = 2, blocked: readonly number[] = []): Label[] {
  const kept: Label[] = []
  const boxes: number[] = [...blocked]
  for (const label of labels) {
    const x0 = label.x - label.width / 2 - padding
    const x1 = label.x + label.width / 2 + padding
    const y0 = (label.baseline === 'top' ? label.y : label.y - label.size / 2) - padding
    const y1 = y0 + label.size + 2 * padding
    let free = true
    for (let b = 0; b < boxes.length && free; b += 4) {
      free = x0 >= boxes[b + 2] || x1 <= boxes[b] || y0 >= boxes[b + 3] || y1 <= boxes[b + 1]
    }
    if (!free) continue
    boxes.push(x0, y0, x1, y1)
    kept.push(label)
  }
  return kept
}

/** Something the map draws over the basemap that names keep clear of: a place and a radius (px). */
export type Obstacle = { lon: number; lat: number; radius: number }

/** The canvas basemap of one map. */
export type CanvasBasemap = {
  /** Names keep clear of these from the next frame on (the dashboard's clusters). */
  setObstacles(obstacles: readonly Obstacle[]): void
  /** Takes the canvas away. */
  remove(): void
}

/** A width that grows linearly from `at3` at zoom 3 to `at10` at zoom 10, held beyond. */
const widthAt = (zoom: number, at3: number, at10: number) =>
  at3 + ((at10 - at3) * (Math.min(10, Math.max(3, zoom)) - 3)) / 7

/** How long a frame may spend making new names' sprites (ms). */
const SPRITE_BUDGET_MS = 6

/** Room around a name's sprite for its halo. */
const HALO = 3

/** A named point in Mercator units. */
type Place = { name: string; x: number; y: number; rank: number }

const places = (points: ChinaBasemap['cities']): Place[] =>
  points.features.map((f) => {
    const [x, y] = mercator(f.geometry.coordinates[0], f.geometry.coordinates[1])
    return { name: String(f.properties?.name), x, y, rank: Number(f.properties?.rank) }
  })

/**
 * The offline basemap, drawn on a 2D canvas under the map's WebGL canvas and redrawn whenever the
 * view moves (canvasLayer): the land, province and national borders, city dots, and province and
 * city names (provinces below zoom 6, capitals from zoom 4, every city from 5.5).
 */
export function drawCanvasBasemap(map: MapLibre, basemap: ChinaBasemap): CanvasBasemap {
  const provinces = toMercator(basemap.provinces)
  const outline = toMercator(basemap.outline)
  const cities = places(basemap.cities).sort((a, b) => a.rank - b.rank)
  const provinceNames = places(basemap.provinceLabels)
  /** Obstacles in Mercator units, with their radius in pixels. */
  let obstacles: { x: number; y: number; radius: number }[] = []
  const names = nameSprites()

  const layer = canvasLayer(
    map,
    { className: 'map-basemap-canvas', under: true },
    (ctx, view, zoom, ratio) => {
      ctx.lineJoin = 'round'
      ctx.beginPath()
      tracePath(ctx, provinces, view)
      ctx.fillStyle = '#f7f6f2'
      ctx.fill()
      ctx.strokeStyle = '#c5bdae'
      ctx.lineWidth = widthAt(zoom, 0.6, 1.6)
      ctx.stroke()

      ctx.beginPath()
      tracePath(ctx, outline, view)
      ctx.strokeStyle = '#9c8f7d'
      ctx.lineWidth = widthAt(zoom, 1.2, 2.5)
      ctx.stroke()

      // Cities first, then provinces, as MapLibre placed the top layer's names first.
      const dots: { x: number; y: number; rank: number }[] = []
      const candidates: Label[] = []
      if (zoom >= 4) {
        for (const city of cities) {
          if (city.rank !== 1 && zoom < 5.5) continue
          const p = onScreen(view, city, 80)
          if (!p) continue
          const size = city.rank === 1 ? 13 : 12
          dots.push({ ...p, rank: city.rank })
          candidates.push({
            text: city.name,
            x: p.x,
            y: p.y + 0.9 * size,
            width: names.measure(ctx, city.name, size),
            size,
            baseline: 'top',
          })
        }
      }
      if (zoom < 6) {
        for (const province of provinceNames) {
          const p = onScreen(view, province, 80)
          if (p)
            candidates.push({
              text: province.name,
              ...p,
              width: names.measure(ctx, province.name, 13),
              size: 13,
              baseline: 'middle',
            })
        }
      }

      ctx.fillStyle = '#ffffff'
      ctx.strokeStyle = '#6b6257'
      ctx.lineWidth = 1
      for (const dot of dots) {
        ctx.beginPath()
        ctx.arc(dot.x, dot.y, dot.rank === 1 ? 3.5 : 2.5, 0, 2 * Math.PI)
        ctx.fill()
        ctx.stroke()
      }

      const blocked: number[] = []
      for (const o of obstacles) {
        const p = onScreen(view, o, o.radius)
        if (p) blocked.push(p.x - o.radius, p.y - o.radius, p.x + o.radius, p.y + o.radius)
      }
      // New names' sprites are made within a budget per frame; those left wait for the next
      // frames (canvasLayer draws again). Wheeling past zoom 5.5 brings some 300 names at once,
      // and making them all in one frame took 60 ms here.
      const deadline = performance.now() + SPRITE_BUDGET_MS
      let complete = true
      for (const label of placeLabels(candidates, 2, blocked)) {
        const sprite = names.sprite(label, ratio, deadline)
        if (!sprite) {
          complete = false
          continue
        }
        const left = label.x - sprite.width / ratio / 2
        const top = label.baseline === 'top' ? label.y - HALO : label.y - sprite.height / ratio / 2
        ctx.drawImage(sprite, left, top, sprite.width / ratio, sprite.height / ratio)
      }
      return complete
    },
  )
  return {
    setObstacles(next) {
      obstacles = next.map((o) => {
        const [x, y] = mercator(o.lon, o.lat)
        return { x, y, radius: o.radius }
      })
      layer.redraw()
    },
    remove: layer.remove,
  }
}

/** Names' widths and sprites (textSprite, with a white halo), made once each. */
export function nameSprites() {
  const widths = new Map<string, number>()
  const sprites = new Map<string, HTMLCanvasElement>()
  return {
    measure(ctx: CanvasRenderingContext2D, text: string, size: number) {
      const key = `${size} ${text}`
      let width = widths.get(key)
      if (width === undefined) {
        ctx.font = `${size}px ${LOCAL_FONTS}`
        width = ctx.measureText(text).width
        widths.set(key, width)
      }
      return width
    },
    /** The label's sprite; null when it is not made yet and `deadline` (performance.now) has passed. */
    sprite(label: Label, ratio: number, deadline = Number.POSITIVE_INFINITY) {
      const key = `${label.baseline} ${label.size} ${ratio} ${label.text}`
      let sprite = sprites.get(key)
      if (sprite) return sprite
      if (performance.now() > deadline) return null
      const province = label.baseline === 'middle'
      sprite = textSprite(
        label.text,
        label.width,
        {
          font: LOCAL_FONTS,
          size: label.size,
          fill: province ? '#8a8170' : '#3f3a33',
          outline: '#ffffff',
          outlineWidth: province ? 2.4 : 2.8,
        },
        ratio,
        HALO,
      )
      sprites.set(key, sprite)
      return sprite
    },
  }
}
