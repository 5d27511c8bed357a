// Writes src/components/MapView/basemap/china.json, the console's offline basemap: province
// polygons, the national outline (rings delta-encoded in thousandths of a degree) and the prefecture-level cities (name and centre), taken from the
// map data Apache ECharts 4 shipped (npm echarts@4.9.0, installed as `echarts-v4`), decoded from
// its compact string encoding and rounded to about 100 m. Run: node apps/web/scripts/china-basemap.mjs
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const read = (name) => JSON.parse(readFileSync(require.resolve(`echarts-v4/map/json/${name}`), 'utf8'))
const out = fileURLToPath(new URL('../src/components/MapView/basemap/china.json', import.meta.url))

const round = (v) => Math.round(v * 1000) / 1000
/** About 500 m: finer than the outlines' own accuracy at the zooms they are read at. */
const TOLERANCE = Number(process.env.TOLERANCE ?? 0.005)

/** ECharts' ring encoding: zigzag deltas in UTF-16 code units, offset 64, scale 1024. */
function decodeRing(text, [x0, y0], scale = 1024) {
  const ring = []
  let x = x0
  let y = y0
  for (let i = 0; i < text.length; i += 2) {
    let dx = text.charCodeAt(i) - 64
    let dy = text.charCodeAt(i + 1) - 64
    dx = (dx >> 1) ^ -(dx & 1)
    dy = (dy >> 1) ^ -(dy & 1)
    x += dx
    y += dy
    const point = [round(x / scale), round(y / scale)]
    const last = ring.at(-1)
    if (!last || last[0] !== point[0] || last[1] !== point[1]) ring.push(point)
  }
  const [first, last] = [ring[0], ring.at(-1)]
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push(first)
  return ring
}

/** Douglas-Peucker: drops points closer than `tolerance` degrees to the line of their neighbours. */
function simplify(ring, tolerance) {
  if (ring.length <= 4) return ring
  const keep = new Uint8Array(ring.length)
  keep[0] = keep[ring.length - 1] = 1
  const stack = [[0, ring.length - 1]]
  while (stack.length) {
    const [a, b] = stack.pop()
    const [ax, ay] = ring[a]
    const [bx, by] = ring[b]
    const dx = bx - ax
    const dy = by - ay
    const len = Math.hypot(dx, dy) || 1
    let far = -1
    let farDist = tolerance
    for (let i = a + 1; i < b; i++) {
      const d =
        dx === 0 && dy === 0
          ? Math.hypot(ring[i][0] - ax, ring[i][1] - ay)
          : Math.abs(dy * ring[i][0] - dx * ring[i][1] + bx * ay - by * ax) / len
      if (d > farDist) {
        far = i
        farDist = d
      }
    }
    if (far >= 0) {
      keep[far] = 1
      stack.push([a, far], [far, b])
    }
  }
  return ring.filter((_, i) => keep[i])
}

/** Every feature as a MultiPolygon of decoded rings (a ring of 3 points or fewer is dropped). */
function polygons(feature) {
  const { type, coordinates, encodeOffsets } = feature.geometry
  const list = type === 'Polygon' ? [coordinates] : coordinates
  const offsets = type === 'Polygon' ? [encodeOffsets] : encodeOffsets
  return list
    .map((rings, p) =>
      rings.map((r, i) => simplify(decodeRing(r, offsets[p][i]), TOLERANCE)).filter((r) => r.length > 3),
    )
    .filter((rings) => rings.length > 0)
}

/** A ring as whole thousandths of a degree: the first point, then the steps to each next one. */
function deltas(ring) {
  const flat = []
  let [px, py] = [0, 0]
  for (const [x, y] of ring) {
    const [ix, iy] = [Math.round(x * 1000), Math.round(y * 1000)]
    flat.push(ix - px, iy - py)
    ;[px, py] = [ix, iy]
  }
  return flat
}

const provinces = read('china.json').features.map((f) => ({
  code: f.id,
  name: f.properties.name,
  polygons: polygons(f).map((rings) => rings.map(deltas)),
}))
const outline = read('china-contour.json').features.flatMap((f) =>
  polygons(f).map((rings) => rings.map(deltas)),
)
const capitals = read('china.json').features.map((f) => [f.properties.name, ...f.properties.cp.map(round)])
const cities = read('china-cities.json').features.map((f) => [
  f.properties.name,
  ...f.properties.cp.map(round),
])

const data = {
  source:
    'Apache ECharts 4.9.0 map data (npm echarts@4.9.0: map/json/china.json, china-contour.json, china-cities.json)',
  /** Rings of each province's polygons, delta-encoded in thousandths of a degree (see deltas()). */
  provinces,
  /** Polygons of the national outline, encoded the same way. */
  outline,
  /** [name, lon, lat] of each province's capital. */
  capitals,
  /** [name, lon, lat] of each prefecture-level city. */
  cities,
}
writeFileSync(out, `${JSON.stringify(data)}\n`)
console.log(`wrote ${out}: ${provinces.length} provinces, ${cities.length} cities`)
