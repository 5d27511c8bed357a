import type { Map as MapLibre } from 'maplibre-gl'

/** Where Mercator (0, 0) lands on the screen, in CSS pixels, and the world's width in them. */
export type View = { x: number; y: number; world: number; width: number; height: number }

/** Web Mercator x and y in 0-1 (y down), as MapLibre projects. */
export function mercator(lon: number, lat: number): [number, number] {
  const sin = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180)
  return [(lon + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)]
}

/** MapLibre's world at zoom 0 is one 512 px tile wide. */
const TILE = 512

/** Where everything drawn is: the world copy nearest the view's centre is the one drawn. */
const [HOME_X] = mercator(105, 35)

/** A 2D canvas of a map: it redraws when the view or its content changes, and goes. */
export type CanvasLayer = {
  /** Draws again in this frame (the content changed). */
  redraw(): void
  /** Takes the canvas away and stops drawing. */
  remove(): void
}

/**
 * A 2D canvas the size of `map`, under its WebGL canvas (`under`) or just over it (and under its
 * markers and popups), that `paint` fills whenever the view moves: in MapLibre's own frame, on
 * 'render', so it never lags the map. The map has no rotation or pitch (createMap), so a view is
 * a scale and an offset. `paint` answers false when it left something for the next frame. Without
 * a GPU, SwiftShader's frames and the read-back of its canvas took up to 100 ms while panning
 * (docs/benchmarks.md, sessions 9 and 10); the browser's 2D canvas draws the same in a few.
 */
export function canvasLayer(
  map: MapLibre,
  options: { className: string; under: boolean },
  paint: (ctx: CanvasRenderingContext2D, view: View, zoom: number, ratio: number) => boolean | undefined,
): CanvasLayer {
  const canvas = document.createElement('canvas')
  canvas.className = options.className
  canvas.setAttribute('aria-hidden', 'true')
  const container = map.getCanvasContainer()
  container.insertBefore(canvas, options.under ? container.firstChild : map.getCanvas().nextSibling)
  const ctx = canvas.getContext('2d')
  if (!ctx) return { redraw: () => {}, remove: () => canvas.remove() }
  let drawn = ''
  // Read on 'resize' only: reading it in every frame would force a layout whenever MapLibre has
  // just moved a popup or a marker.
  let size = { width: map.getContainer().clientWidth, height: map.getContainer().clientHeight }

  const draw = () => {
    const { width, height } = size
    const zoom = map.getZoom()
    const world = TILE * 2 ** zoom
    const center = map.getCenter()
    // Mercator (0, 0) on screen: from the centre's own pixel, which keeps any padding in.
    const [cx, cy] = mercator(center.lng, center.lat)
    const at = map.project(center)
    const copy = Math.round(cx - HOME_X)
    const view: View = { x: at.x - (cx - copy) * world, y: at.y - cy * world, world, width, height }
    const ratio = window.devicePixelRatio || 1
    const key = `${view.x.toFixed(2)} ${view.y.toFixed(2)} ${world} ${width} ${height} ${ratio}`
    if (key === drawn) return
    drawn = key
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio)
      canvas.height = Math.round(height * ratio)
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    ctx.clearRect(0, 0, width, height)
    // `false`: the paint left something for later (within a budget per frame): draw again next frame.
    if (paint(ctx, view, zoom, ratio) === false) {
      drawn = ''
      map.triggerRepaint()
    }
  }
  const resize = () => {
    size = { width: map.getContainer().clientWidth, height: map.getContainer().clientHeight }
    draw()
  }
  map.on('render', draw)
  map.on('resize', resize)
  draw()
  return {
    redraw() {
      drawn = ''
      draw()
    },
    remove() {
      map.off('render', draw)
      map.off('resize', resize)
      canvas.remove()
    },
  }
}

/** A Mercator point's place on the screen, or null when it is further than `margin` px outside. */
export function onScreen(view: View, p: { x: number; y: number }, margin: number) {
  const x = view.x + p.x * view.world
  const y = view.y + p.y * view.world
  return x > -margin && x < view.width + margin && y > -margin && y < view.height + margin ? { x, y } : null
}

/** How a text sprite is drawn: its font, its size (px), its fill and its outline (colour and width). */
export type TextStyle = { font: string; size: number; fill: string; outline: string; outlineWidth: number }

/**
 * `text` drawn once, outline and all, into a small canvas at the screen's pixel ratio, for each
 * frame to copy (shaping and filling text anew every frame cost more than the rest of a frame).
 * `pad` px of room on each side for the outline; the text's top is `pad` px from the sprite's.
 */
export function textSprite(text: string, width: number, style: TextStyle, ratio: number, pad: number) {
  const sprite = document.createElement('canvas')
  sprite.width = Math.ceil((width + 2 * pad) * ratio)
  sprite.height = Math.ceil((style.size * 1.25 + 2 * pad) * ratio)
  const g = sprite.getContext('2d')
  if (g) {
    g.scale(ratio, ratio)
    g.font = `${style.size}px ${style.font}`
    g.textAlign = 'center'
    g.textBaseline = 'top'
    g.lineJoin = 'round'
    g.lineWidth = style.outlineWidth
    g.strokeStyle = style.outline
    g.strokeText(text, pad + width / 2, pad)
    g.fillStyle = style.fill
    g.fillText(text, pad + width / 2, pad)
  }
  return sprite
}
