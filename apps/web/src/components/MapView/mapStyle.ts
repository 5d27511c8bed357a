import type { LayerSpecification, StyleSpecification } from 'maplibre-gl'
import type { TileService } from './mapTiles'

/** Chinese names drawn with the browser's own fonts: the offline map has no glyph server. */
export const LOCAL_FONTS =
  "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'WenQuanYi Micro Hei', sans-serif"

/**
 * The map's style: the configured raster tiles, or nothing. The offline basemap of land, borders
 * and names is not in it: canvasBasemap.ts draws that under the map, where the tiles (if they
 * load) cover it.
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
    sources: raster,
    layers: rasterLayers,
  }
}
