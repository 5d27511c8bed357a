import 'maplibre-gl/dist/maplibre-gl.css'
import { Map as MapLibre, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import { type CanvasBasemap, drawCanvasBasemap, type Obstacle } from './canvasBasemap'
import { type ChinaBasemap, loadChinaBasemap } from './chinaBasemap'
import { type LatLon, toDisplay } from './datum'
import { LOCAL_FONTS, mapStyle } from './mapStyle'
import { tileService } from './mapTiles'

setWorkerUrl(workerUrl)

/** The configured raster tiles (none: the offline basemap alone). */
export const tiles = tileService()
/** The datum the map draws in: points (GCJ-02) are shifted to it for display. */
export const datum = tiles?.datum ?? 'gcj02'

/**
 * A console map in `container`: the style, zoom and scale controls, no rotation, and the offline
 * basemap filled in once its chunk has loaded (`onBasemap` then gets it). Throws where WebGL is
 * missing; callers show their fallback.
 */
export function createMap(
  container: HTMLElement,
  view: { center: LatLon; zoom: number },
  onBasemap?: (basemap: ChinaBasemap) => void,
): MapLibre {
  const map = new MapLibre({
    container,
    style: mapStyle(tiles),
    center: toDisplay(view.center, datum),
    zoom: view.zoom,
    minZoom: 2,
    maxZoom: 18,
    localIdeographFontFamily: LOCAL_FONTS,
    attributionControl: { compact: true },
    dragRotate: false,
    pitchWithRotate: false,
    // Flat, north up: the land and borders under the map are drawn for exactly that view.
    touchPitch: false,
    maxPitch: 0,
    // Labels appear at once instead of fading in: a fade is several more frames to draw, and
    // without a GPU each one is slow.
    fadeDuration: 0,
  })
  map.addControl(new NavigationControl({ showCompass: false }), 'top-right')
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left')
  map.touchZoomRotate.disableRotation()
  // The basemap chunk loads while the style does, and is drawn as soon as it is in.
  const basemapLoaded = loadChinaBasemap()
  let removed = false
  void basemapLoaded.then((basemap) => {
    if (removed) return
    const drawn = drawCanvasBasemap(map, basemap)
    basemaps.set(map, drawn)
    const waiting = pendingObstacles.get(map)
    pendingObstacles.delete(map)
    if (waiting) drawn.setObstacles(waiting)
    onBasemap?.(basemap)
  })
  map.on('remove', () => {
    removed = true
    basemaps.get(map)?.remove()
  })
  return map
}

const basemaps = new WeakMap<MapLibre, CanvasBasemap>()
const pendingObstacles = new WeakMap<MapLibre, readonly Obstacle[]>()

/** What the basemap's names of `map` keep clear of (kept until its basemap is drawn). */
export function setBasemapObstacles(map: MapLibre, obstacles: readonly Obstacle[]) {
  const drawn = basemaps.get(map)
  if (drawn) drawn.setObstacles(obstacles)
  else pendingObstacles.set(map, obstacles)
}

const MARKER_SVG =
  '<svg width="26" height="34" viewBox="0 0 26 34" aria-hidden="true"><path d="M13 0C5.8 0 0 5.6 0 12.6 0 22 13 34 13 34S26 22 26 12.6C26 5.6 20.2 0 13 0Z" fill="currentColor"/><circle cx="13" cy="12.5" r="5" fill="#fff"/></svg>'

/** The console's pin, in `color`, for a MapLibre Marker (anchor 'bottom'). */
export function markerElement(color: string, title: string | undefined) {
  const el = document.createElement('div')
  el.className = 'map-marker'
  el.style.color = color
  el.innerHTML = MARKER_SVG
  if (title) el.title = title
  return el
}
