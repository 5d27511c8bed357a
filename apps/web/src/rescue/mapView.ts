import type { Point } from './geo'

// Web Mercator, as every raster tile service draws: world pixels at zoom 0 are 256 wide.
const TILE = 256
const EARTH_CIRCUMFERENCE_M = 40_075_016.686

/** A point's world pixels at zoom 0. */
function world(p: Point): [number, number] {
  const sin = Math.sin((p.lat * Math.PI) / 180)
  return [((p.lon + 180) / 360) * TILE, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * TILE]
}

/** What the schematic shows: a fractional zoom and the world pixel at the view's top left. */
export type View = { zoom: number; left: number; top: number; width: number; height: number }

/**
 * The view that fits every point with `pad` pixels to spare, at most zoom 18 (a street's width)
 * and no less than 12 (a district): one point alone is shown at 17, about 300 m across.
 */
export function fitView(points: Point[], width: number, height: number, pad: number): View {
  const xy = points.map(world)
  const xs = xy.map((p) => p[0])
  const ys = xy.map((p) => p[1])
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const fit = Math.min((width - 2 * pad) / (maxX - minX || 1e-9), (height - 2 * pad) / (maxY - minY || 1e-9))
  const zoom = Math.max(12, Math.min(points.length > 1 ? 18 : 17, Math.log2(fit)))
  const scale = 2 ** zoom
  return {
    zoom,
    left: ((minX + maxX) / 2) * scale - width / 2,
    top: ((minY + maxY) / 2) * scale - height / 2,
    width,
    height,
  }
}

/** Where a point falls in the view, in pixels from its top left. */
export function project(view: View, p: Point): [number, number] {
  const [x, y] = world(p)
  const scale = 2 ** view.zoom
  return [x * scale - view.left, y * scale - view.top]
}

/** Metres a pixel covers at the view's centre latitude. */
export function metresPerPixel(view: View, lat: number): number {
  return (EARTH_CIRCUMFERENCE_M * Math.cos((lat * Math.PI) / 180)) / (TILE * 2 ** view.zoom)
}

const NICE = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000]

/** The scale bar: the longest round length that fits in `maxPx`, and its width in pixels. */
export function scaleBar(view: View, lat: number, maxPx: number): { metres: number; px: number } {
  const perPx = metresPerPixel(view, lat)
  const metres = [...NICE].reverse().find((m) => m / perPx <= maxPx) ?? NICE[0]
  return { metres, px: metres / perPx }
}

/** A raster tile of the view: its URL and where it is drawn. */
export type TileImage = { href: string; x: number; y: number; size: number }

/** The tiles under the view from `{z}/{x}/{y}` URL templates (several hosts taken in turn; TMS flips y). */
export function tilesFor(view: View, urls: string[], scheme: 'xyz' | 'tms', maxzoom: number): TileImage[] {
  const z = Math.min(maxzoom, Math.round(view.zoom))
  const size = TILE * 2 ** (view.zoom - z)
  const count = 2 ** z
  const out: TileImage[] = []
  for (let tx = Math.floor(view.left / size); tx * size < view.left + view.width; tx++) {
    for (let ty = Math.floor(view.top / size); ty * size < view.top + view.height; ty++) {
      if (ty < 0 || ty >= count) continue
      const x = ((tx % count) + count) % count
      const y = scheme === 'tms' ? count - 1 - ty : ty
      const href = urls[(x + ty) % urls.length]
        .replace('{z}', String(z))
        .replace('{x}', String(x))
        .replace('{y}', String(y))
      out.push({ href, x: tx * size - view.left, y: ty * size - view.top, size })
    }
  }
  return out
}
