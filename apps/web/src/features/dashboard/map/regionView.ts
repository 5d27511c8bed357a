import type { LatLon } from '../../../components/MapView/datum'
import type { RegionOption } from '../../../components/RegionPicker/regionOptions'

/**
 * The spec's zooms count 256-pixel tiles (the Chinese web maps'); MapLibre's count 512-pixel
 * ones, so the same view is one level less.
 */
export const toMapZoom = (specZoom: number) => specZoom - 1

/**
 * Where the whole country opens (GCJ-02) and the spec's zoom for it (5): centred a little south
 * and east of the middle of the land, where the devices are, so Guangdong and Hainan are in view.
 */
export const COUNTRY_VIEW = { center: { lon: 108, lat: 31 }, zoom: toMapZoom(5) } as const

/** The spec's zoom per level (section 9): province 8, city 11, district 12; Hong Kong and Macao 14. */
export function specZoomFor(code: string | undefined): number {
  if (!code) return 5
  if (code.startsWith('81') || code.startsWith('82')) return 14
  if (code.endsWith('0000')) return 8
  if (code.endsWith('00')) return 11
  return 12
}

/** The map's zoom for a region (the spec's, in MapLibre's levels). */
export const zoomFor = (code: string | undefined) => toMapZoom(specZoomFor(code))

/**
 * The regions a selector lists below `node`: a single child that has children of its own is
 * skipped (the municipalities' one city-level node), so Beijing's second selector lists its
 * districts, as the statistics' regional distribution does.
 */
export function childrenOf(node: RegionOption | undefined): RegionOption[] {
  let children = node?.children ?? []
  while (children.length === 1 && children[0].children?.length) children = children[0].children
  return children
}

/** The three selectors' option lists and chosen values for a path [province, city, district]. */
export function selectorLevels(tree: readonly RegionOption[], path: readonly string[]) {
  const province = tree.find((o) => o.value === path[0])
  const cities = childrenOf(province)
  const city = cities.find((o) => o.value === path[1])
  const districts = childrenOf(city)
  return { provinces: tree, cities, districts, province, city }
}

/** The code the map and statistics filter by: the deepest chosen, undefined for the whole country. */
export function regionCode(path: readonly string[]): string | undefined {
  return path.length ? path[path.length - 1] : undefined
}

/** A region's name for matching a basemap city: without the administrative suffix. */
function shortName(name: string) {
  return name.replace(/(特别行政区|自治州|自治县|地区|市|盟|州|县|区)$/, '')
}

/** What the offline basemap knows of places: province label points by code, city points by name. */
export type PlaceIndex = {
  provinces: Map<string, [number, number]>
  cities: { name: string; at: [number, number] }[]
}

/**
 * Where to centre a region: its province's label point, its city's point from the basemap, else
 * the middle of the devices shown in it (districts: the basemap has no districts), else null.
 */
export function regionCentre(
  code: string | undefined,
  name: string | undefined,
  places: PlaceIndex | null,
  points: readonly [number, number][],
): LatLon | null {
  if (!code) return COUNTRY_VIEW.center
  const province = places?.provinces.get(code)
  if (province) return { lon: province[0], lat: province[1] }
  if (places && name && code.endsWith('00')) {
    const short = shortName(name)
    const city = places.cities.find((c) => c.name === name || c.name === short || name.startsWith(c.name))
    if (city) return { lon: city.at[0], lat: city.at[1] }
  }
  return middleOf(points)
}

/** The median point of a set (robust to a stray device far away), or null when empty. */
export function middleOf(points: readonly [number, number][]): LatLon | null {
  if (points.length === 0) return null
  const median = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]
  }
  return { lon: median(points.map((p) => p[0])), lat: median(points.map((p) => p[1])) }
}
