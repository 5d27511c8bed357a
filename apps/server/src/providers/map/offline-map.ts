import { searchRegions } from '@aed/contracts/regions'
import { type MapProvider, MapUnavailableError, type PlaceSource } from './map-provider.ts'

/**
 * The map with no vendor account: place search over China's administrative divisions (and any
 * `sources` given, such as known device addresses, listed first); no reverse geocoding.
 */
export function offlineMap(opts: { sources?: PlaceSource[] } = {}): MapProvider {
  const sources = opts.sources ?? []
  return {
    name: 'offline',
    async suggestion(keyword, o = {}) {
      const limit = o.limit ?? 10
      const found = (await Promise.all(sources.map((s) => s(keyword, limit)))).flat()
      const regions = searchRegions(keyword, limit).map((r) => ({
        title: r.name,
        address: r.full_name,
        address_code: r.code,
        location: null,
      }))
      return [...found, ...regions].slice(0, limit)
    },
    async reverse() {
      throw new MapUnavailableError('The offline map cannot resolve coordinates to an address', true)
    },
  }
}
