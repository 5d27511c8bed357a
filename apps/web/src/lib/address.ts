/** Shortest overlap (in characters) between the end of a region name and the start of a detail address. */
const MIN_OVERLAP = 2

/** Region name and detail address as one text, saying any part the detail repeats only once. */
export function fullAddress(region: string | null | undefined, detail: string | null | undefined): string {
  if (!detail) return region ?? ''
  if (!region) return detail
  for (let i = 0; i <= region.length - MIN_OVERLAP; i++) {
    if (detail.startsWith(region.slice(i))) return region.slice(0, i) + detail
  }
  return `${region}${detail}`
}
