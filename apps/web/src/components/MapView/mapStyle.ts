import type { LayerSpecification, SourceSpecification, StyleSpecification } from 'maplibre-gl'
import type { TileService } from './mapTiles'

/** Chinese names drawn with the browser's own fonts: the offline map has no glyph server. */
export const LOCAL_FONTS =
  "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'WenQuanYi Micro Hei', sans-serif"

/** The basemap's GeoJSON sources, filled once the basemap chunk has loaded. */
export const BASEMAP_SOURCES = [
  'china-provinces',
  'china-outline',
  'china-province-labels',
  'china-cities',
] as const

// No background layer: the sea is the map container's CSS background (#dfe9f2) through the
// transparent canvas. Without a GPU a full-canvas layer costs ~15 ms a frame, a fifth of a frame.
const offline: LayerSpecification[] = [
  {
    id: 'province-fill',
    type: 'fill',
    source: 'china-provinces',
    // No antialiased outline pass: province-line draws the borders anyway.
    paint: { 'fill-color': '#f7f6f2', 'fill-antialias': false },
  },
  {
    id: 'province-line',
    type: 'line',
    source: 'china-provinces',
    paint: { 'line-color': '#c5bdae', 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.6, 10, 1.6] },
  },
  {
    id: 'country-line',
    type: 'line',
    source: 'china-outline',
    paint: { 'line-color': '#9c8f7d', 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 1.2, 10, 2.5] },
  },
]

const labels: LayerSpecification[] = [
  {
    id: 'province-label',
    type: 'symbol',
    source: 'china-province-labels',
    maxzoom: 6,
    layout: { 'text-field': ['get', 'name'], 'text-size': 13, 'text-font': ['sans-serif'] },
    paint: { 'text-color': '#8a8170', 'text-halo-color': '#ffffff', 'text-halo-width': 1.2 },
  },
  {
    id: 'city-dot',
    type: 'circle',
    source: 'china-cities',
    filter: ['any', ['==', ['get', 'rank'], 1], ['>=', ['zoom'], 5.5]],
    minzoom: 4,
    paint: {
      'circle-radius': ['case', ['==', ['get', 'rank'], 1], 3.5, 2.5],
      'circle-color': '#ffffff',
      'circle-stroke-color': '#6b6257',
      'circle-stroke-width': 1,
    },
  },
  {
    id: 'city-label',
    type: 'symbol',
    source: 'china-cities',
    filter: ['any', ['==', ['get', 'rank'], 1], ['>=', ['zoom'], 5.5]],
    minzoom: 4,
    layout: {
      'text-field': ['get', 'name'],
      'text-size': ['case', ['==', ['get', 'rank'], 1], 13, 12],
      'text-font': ['sans-serif'],
      'text-offset': [0, 0.9],
      'text-anchor': 'top',
    },
    paint: { 'text-color': '#3f3a33', 'text-halo-color': '#ffffff', 'text-halo-width': 1.4 },
  },
]

/**
 * The map's style: the offline basemap of provinces, the national outline and city names, and
 * over it the configured raster tiles (where they load, they cover the offline layers).
 */
export function mapStyle(tiles: TileService | null): StyleSpecification {
  const raster: StyleSpecification['sources'] = tiles
    ? {
        tiles: {
          type: 'raster',
          tiles: tiles.tiles,
          tileSize: 256,
          scheme: tiles.scheme,
          maxzoom: tiles.maxzoom,
          attribution: tiles.attribution,
        },
        ...(tiles.labels
          ? { 'tile-labels': { type: 'raster', tiles: tiles.labels, tileSize: 256, maxzoom: tiles.maxzoom } }
          : {}),
      }
    : {}
  const rasterLayers: LayerSpecification[] = tiles
    ? [
        { id: 'tiles', type: 'raster', source: 'tiles' },
        ...(tiles.labels ? [{ id: 'tile-labels', type: 'raster', source: 'tile-labels' } as const] : []),
      ]
    : []
  return {
    version: 8,
    sources: {
      ...Object.fromEntries(
        BASEMAP_SOURCES.map((id): [string, SourceSpecification] => [
          id,
          { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
        ]),
      ),
      ...raster,
    },
    // With tiles, the offline names sit under them too: shown only where the tiles do not load.
    layers: tiles ? [...offline, ...labels, ...rasterLayers] : [...offline, ...labels],
  }
}
