import type { MapAddress, MapSuggestion } from '@aed/contracts/map'

/** Place search and reverse geocoding. Coordinates in and out are GCJ-02. */
export interface MapProvider {
  readonly name: string
  /** Places whose name matches the keyword, best first; `region` narrows a vendor search to a city. */
  suggestion(keyword: string, opts?: { region?: string; limit?: number }): Promise<MapSuggestion[]>
  /** The address at a point; throws MapUnavailableError when this provider cannot resolve points. */
  reverse(lat: number, lon: number): Promise<MapAddress>
}

/** The provider cannot answer: not able to (offline reverse geocoding) or the vendor failed. */
export class MapUnavailableError extends Error {
  constructor(
    message: string,
    /** True when no configuration could help (offline reverse): the console should let the user pick a region. */
    readonly offline = false,
  ) {
    super(message)
  }
}

/** Extra places the offline map searches before regions, e.g. the addresses of registered devices. */
export type PlaceSource = (keyword: string, limit: number) => Promise<MapSuggestion[]>
