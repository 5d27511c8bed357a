import type { CoveragePoint } from '@aed/contracts/coverage'
import { mercator, onScreen, type View } from '../../../components/MapView/canvasLayer'
import { datum } from '../../../components/MapView/createMap'
import { toDisplay } from '../../../components/MapView/datum'

/** An uncovered call placed in Web Mercator (0-1), for drawing and hit tests without projecting again. */
export type PlacedDot = { point: CoveragePoint; lngLat: [number, number]; x: number; y: number }

const RADIUS = 5
const HIT_PX = 10

/** The calls in Mercator, in the map's datum. */
export function placeDots(points: readonly CoveragePoint[]): PlacedDot[] {
  return points.map((point) => {
    const lngLat = toDisplay({ lon: point[1], lat: point[2] }, datum)
    const [x, y] = mercator(...lngLat)
    return { point, lngLat, x, y }
  })
}

/** Draws the dots on screen (red, white ring), the selected one larger. */
export function paintDots(
  ctx: CanvasRenderingContext2D,
  view: View,
  dots: readonly PlacedDot[],
  selected: number | null,
) {
  ctx.lineWidth = 1.5
  ctx.strokeStyle = '#fff'
  for (const d of dots) {
    const at = onScreen(view, d, RADIUS * 2)
    if (!at) continue
    const r = d.point[0] === selected ? RADIUS * 1.8 : RADIUS
    ctx.beginPath()
    ctx.arc(at.x, at.y, r, 0, 2 * Math.PI)
    ctx.fillStyle = d.point[0] === selected ? '#a8071a' : 'rgba(245, 34, 45, 0.85)'
    ctx.fill()
    ctx.stroke()
  }
}

/** The dot nearest a screen position within 10 px, or null (`project` places a dot on the screen). */
export function dotAt(
  project: (lngLat: [number, number]) => { x: number; y: number },
  dots: readonly PlacedDot[],
  x: number,
  y: number,
): PlacedDot | null {
  let best: PlacedDot | null = null
  let bestDistance = HIT_PX
  for (const d of dots) {
    const at = project(d.lngLat)
    const distance = Math.hypot(at.x - x, at.y - y)
    if (distance <= bestDistance) {
      best = d
      bestDistance = distance
    }
  }
  return best
}

/** The bounds of the dots, [[west, south], [east, north]] in the map's datum, or null for none. */
export function dotBounds(dots: readonly PlacedDot[]): [[number, number], [number, number]] | null {
  const points = dots.map((d) => d.lngLat)
  if (points.length === 0) return null
  const lons = points.map((p) => p[0])
  const lats = points.map((p) => p[1])
  return [
    [Math.min(...lons), Math.min(...lats)],
    [Math.max(...lons), Math.max(...lats)],
  ]
}
