import type { Map as MapLibre } from 'maplibre-gl'
import { useEffect, useRef } from 'react'
import { type CanvasLayer, canvasLayer, mercator, type View } from '../../../components/MapView/canvasLayer'
import { datum } from '../../../components/MapView/createMap'
import { toDisplay } from '../../../components/MapView/datum'
import { KIND_HEX, type MapLine, PointKind } from './mapPoints'

const NONE: readonly MapLine[] = []
const COLOR = KIND_HEX[PointKind.RESPONDER]

/** One way: a white casing under a solid line once accepted, a thin dashed one while alerted. */
function paintLine(ctx: CanvasRenderingContext2D, view: View, line: MapLine) {
  const screen = line.path.map((p) => {
    const [x, y] = mercator(...toDisplay(p, datum))
    return [view.x + x * view.world, view.y + y * view.world] as const
  })
  const trace = () => {
    ctx.beginPath()
    const [[x0, y0], ...rest] = screen
    ctx.moveTo(x0, y0)
    for (const [x, y] of rest) ctx.lineTo(x, y)
  }
  ctx.lineJoin = 'round'
  ctx.lineCap = 'round'
  if (line.strong) {
    trace()
    ctx.setLineDash([])
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)'
    ctx.lineWidth = 6
    ctx.stroke()
  }
  trace()
  ctx.setLineDash(line.strong ? [] : [6, 5])
  ctx.strokeStyle = COLOR
  ctx.globalAlpha = line.strong ? 1 : 0.75
  ctx.lineWidth = line.strong ? 3 : 1.5
  ctx.stroke()
  ctx.globalAlpha = 1
}

/** Draws `lines` on a canvas over `map` (under its markers), the strong ones last, redrawn as they change. */
export function useMapLines(map: MapLibre | null, lines: readonly MapLine[] = NONE) {
  const latest = useRef(lines)
  latest.current = lines
  const layer = useRef<CanvasLayer | null>(null)

  useEffect(() => {
    if (!map) return
    const drawn = canvasLayer(map, { className: 'map-data-canvas', under: false }, (ctx, view) => {
      const ordered = [...latest.current].sort((a, b) => Number(a.strong) - Number(b.strong))
      for (const line of ordered) paintLine(ctx, view, line)
      return undefined
    })
    layer.current = drawn
    return () => {
      drawn.remove()
      layer.current = null
    }
  }, [map])

  // biome-ignore lint/correctness/useExhaustiveDependencies: new lines are read through `latest`; the change asks for a frame
  useEffect(() => layer.current?.redraw(), [lines])
}
