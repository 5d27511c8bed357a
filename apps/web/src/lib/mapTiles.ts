/** The datum a layer's coordinates are in: GCJ-02 (AMap, Tencent, our data) or WGS-84 (Tianditu, OSM). */
export type Datum = 'gcj02' | 'wgs84'

/** A raster tile service drawn over the offline basemap. */
export type TileService = {
  tiles: string[]
  /** Road names and places on their own tiles (Tianditu). */
  labels?: string[]
  scheme: 'xyz' | 'tms'
  datum: Datum
  attribution: string
  maxzoom: number
}

type Env = { VITE_MAP_TILES?: string; VITE_MAP_TILES_KEY?: string; VITE_MAP_TILES_DATUM?: string }

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const tianditu = (layer: string, key: string) =>
  range(8).map(
    (n) =>
      `https://t${n}.tianditu.gov.cn/${layer}_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${layer}&STYLE=default&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk=${key}`,
  )

/** The services the console knows by name; any other value is taken as a URL template. */
function preset(name: string, key: string): TileService | null {
  switch (name) {
    case 'amap':
      return {
        tiles: [1, 2, 3, 4].map(
          (n) =>
            `https://webrd0${n}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}`,
        ),
        scheme: 'xyz',
        datum: 'gcj02',
        attribution: '© 高德地图',
        maxzoom: 18,
      }
    case 'tencent':
      return {
        tiles: range(4).map(
          (n) => `https://rt${n}.map.gtimg.com/tile?z={z}&x={x}&y={y}&styleid=1000&scene=0`,
        ),
        scheme: 'tms',
        datum: 'gcj02',
        attribution: '© 腾讯地图',
        maxzoom: 18,
      }
    case 'tianditu':
      return key
        ? {
            tiles: tianditu('vec', key),
            labels: tianditu('cva', key),
            scheme: 'xyz',
            datum: 'wgs84',
            attribution: '© 天地图',
            maxzoom: 18,
          }
        : null
    case 'osm':
      return {
        tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
        scheme: 'xyz',
        datum: 'wgs84',
        attribution: '© OpenStreetMap contributors',
        maxzoom: 19,
      }
    default:
      return null
  }
}

/**
 * The tile service of this build (VITE_MAP_TILES: amap, tencent, tianditu with VITE_MAP_TILES_KEY,
 * osm, or a URL template with {z}/{x}/{y} and VITE_MAP_TILES_DATUM), or null: the offline
 * basemap of provinces and cities alone.
 */
export function tileService(env: Env = import.meta.env as Env): TileService | null {
  const value = env.VITE_MAP_TILES?.trim() ?? ''
  if (!value) return null
  if (value.includes('{z}')) {
    return {
      tiles: [value],
      scheme: 'xyz',
      datum: env.VITE_MAP_TILES_DATUM === 'wgs84' ? 'wgs84' : 'gcj02',
      attribution: '',
      maxzoom: 18,
    }
  }
  return preset(value, env.VITE_MAP_TILES_KEY?.trim() ?? '')
}
