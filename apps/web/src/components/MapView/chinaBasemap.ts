import type { Feature, FeatureCollection, MultiPolygon, Point } from 'geojson'

type Ring = number[]
type Encoded = {
  provinces: { code: string; name: string; polygons: Ring[][] }[]
  outline: Ring[][]
  capitals: [string, number, number][]
  cities: [string, number, number][]
}

/** Beijing, Tianjin, Shanghai, Chongqing, Hong Kong and Macao: named by their city labels only. */
const CITY_LEVEL = new Set(['110000', '120000', '310000', '500000', '810000', '820000'])

/** A ring of whole thousandths of a degree, each point a step from the one before. */
function decodeRing(flat: Ring): [number, number][] {
  const ring: [number, number][] = []
  let x = 0
  let y = 0
  for (let i = 0; i < flat.length; i += 2) {
    x += flat[i]
    y += flat[i + 1]
    ring.push([x / 1000, y / 1000])
  }
  return ring
}

const multiPolygon = (polygons: Ring[][]): MultiPolygon => ({
  type: 'MultiPolygon',
  coordinates: polygons.map((rings) => rings.map(decodeRing)),
})

const point = (name: string, coordinates: [number, number], rank: number): Feature<Point> => ({
  type: 'Feature',
  properties: { name, rank },
  geometry: { type: 'Point', coordinates },
})

/** Where a province's name goes: the centroid of its largest outer ring. */
export function labelPoint(shape: MultiPolygon): [number, number] {
  let best: [number, number] = [0, 0]
  let bestArea = 0
  for (const [outer] of shape.coordinates) {
    let area = 0
    let cx = 0
    let cy = 0
    for (let i = 0; i < outer.length - 1; i++) {
      const [x0, y0] = outer[i]
      const [x1, y1] = outer[i + 1]
      const cross = x0 * y1 - x1 * y0
      area += cross
      cx += (x0 + x1) * cross
      cy += (y0 + y1) * cross
    }
    if (Math.abs(area) > bestArea) {
      bestArea = Math.abs(area)
      best = [cx / (3 * area), cy / (3 * area)]
    }
  }
  return best
}

export type ChinaBasemap = {
  provinces: FeatureCollection<MultiPolygon>
  outline: FeatureCollection<MultiPolygon>
  /** Province names at their shapes' centroids. */
  provinceLabels: FeatureCollection<Point>
  /** Prefecture-level cities: rank 1 the province capitals, rank 2 the others. */
  cities: FeatureCollection<Point>
}

/** The offline basemap (scripts/china-basemap.mjs), loaded as its own chunk when a map first shows. */
export async function loadChinaBasemap(): Promise<ChinaBasemap> {
  const data = (await import('./basemap/china.json')).default as unknown as Encoded
  const capitals = data.capitals.map(([, lon, lat]) => [lon, lat])
  const isCapital = (lon: number, lat: number) =>
    capitals.some(([x, y]) => Math.abs(x - lon) < 0.1 && Math.abs(y - lat) < 0.1)
  const provinces: Feature<MultiPolygon>[] = data.provinces.map((p) => ({
    type: 'Feature',
    properties: { code: p.code, name: p.name },
    geometry: multiPolygon(p.polygons),
  }))
  return {
    provinces: { type: 'FeatureCollection', features: provinces },
    outline: {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: multiPolygon(data.outline) }],
    },
    provinceLabels: {
      type: 'FeatureCollection',
      // Municipalities and the SARs are named once, by their city label.
      features: provinces
        .filter((p) => !CITY_LEVEL.has(String(p.properties?.code)))
        .map((p) => point(String(p.properties?.name), labelPoint(p.geometry), 0)),
    },
    cities: {
      type: 'FeatureCollection',
      features: data.cities.map(([name, lon, lat]) => point(name, [lon, lat], isCapital(lon, lat) ? 1 : 2)),
    },
  }
}
