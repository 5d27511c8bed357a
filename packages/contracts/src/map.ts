import { z } from 'zod'
import { get } from './endpoint.ts'
import { emptyAsUnset, requiredText, textFilter } from './fields.ts'

/** GET /api/v1/map/district/getchildren/: a province or city code; none for the provinces. */
export const districtChildrenQuery = z.object({
  id: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^\d{6}$/, 'REGION_CODE_UNKNOWN')
      .optional(),
  ),
})

/** One option of the cascading region picker. */
export const districtOptionSchema = z.object({
  /** 6-digit region code (GB/T 2260). */
  value: z.string(),
  label: z.string(),
  /** True when the region has no children to load. */
  is_leaf: z.boolean(),
})
export type DistrictOption = z.infer<typeof districtOptionSchema>

/** A point in GCJ-02, the datum of Chinese basemaps. */
export const latLonSchema = z.object({ lat: z.number(), lon: z.number() })
export type LatLon = z.infer<typeof latLonSchema>

export const suggestionQuery = z.object({
  keyword: requiredText('MAP_KEYWORD_REQUIRED', 50, 'FILTER_TOO_LONG'),
  /** Narrows a vendor search to a city (name or region code); the offline map ignores it. */
  region: textFilter,
})

/** One place suggestion. */
export const suggestionSchema = z.object({
  title: z.string(),
  address: z.string(),
  /** District code of the place, when known. */
  address_code: z.string().nullable(),
  /** Null for a whole region found by the offline map (it knows names, not coordinates). */
  location: latLonSchema.nullable(),
})
export type MapSuggestion = z.infer<typeof suggestionSchema>

const coordinate = (min: number, max: number) =>
  z.preprocess(
    emptyAsUnset,
    z.coerce
      .number({ message: 'MAP_COORDINATE_INVALID' })
      .min(min, 'MAP_COORDINATE_INVALID')
      .max(max, 'MAP_COORDINATE_INVALID'),
  )

export const addressQuery = z.object({ lat: coordinate(-90, 90), lon: coordinate(-180, 180) })

/** Reverse geocoding answer. */
export const mapAddressSchema = z.object({
  address: z.string(),
  address_code: z.string().nullable(),
  lon: z.number(),
  lat: z.number(),
})
export type MapAddress = z.infer<typeof mapAddressSchema>

/** Region tree, place suggestion and reverse geocoding. */
export const mapApi = {
  districtChildren: get('/api/v1/map/district/getchildren/', {
    summary: 'Children of a province or city code; the provinces when `id` is omitted',
    query: districtChildrenQuery,
    response: z.array(districtOptionSchema),
  }),
  suggestion: get('/api/v1/map/suggestion', {
    summary: 'Places matching a keyword (offline: regions by name)',
    query: suggestionQuery,
    response: z.array(suggestionSchema),
  }),
  address: get('/api/v1/map/address', {
    summary: 'The address at a point (GCJ-02); code 6 when the map in use cannot resolve points',
    query: addressQuery,
    response: mapAddressSchema,
  }),
}
