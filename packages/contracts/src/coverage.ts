import { z } from 'zod'
import { get } from './endpoint.ts'
import { count, exportAnswer, exportXls, optionalDate, regionFilter } from './fields.ts'

// 覆盖分析 (coverage, issue 26): for a period and region, how many calls had a ready AED near
// them when they came in and how soon responders answered and arrived, and where the calls
// without cover were, so an organisation sees where its next AED should hang.

/** A ready AED within this many metres of a call when it came in covers the call. */
export const COVERAGE_RADIUS_M = 500
/** The period when none is given: the last 30 days up to today. */
export const COVERAGE_DEFAULT_DAYS = 30
/** The longest period one request may cover, in days (both ends counted). */
export const COVERAGE_MAX_DAYS = 366
/** The most uncovered calls the map receives (newest first). */
export const COVERAGE_POINTS_MAX = 2000

export const coverageQuery = z
  .object({
    /** YYYY-MM-DD in China time, inclusive; default 30 days before end_date. */
    start_date: optionalDate(),
    /** YYYY-MM-DD, inclusive; default today. */
    end_date: optionalDate(),
    address_code: regionFilter,
    /** true: answer `data.file_url` of an .xlsx of the period's calls, one row each. */
    export_xls: exportXls,
  })
  .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, { message: 'DATE_ORDER' })
export type CoverageQuery = z.output<typeof coverageQuery>

/** A share of the known calls, 0 to 1; null when there is none to divide by. */
const share = z.number().min(0).max(1).nullable()

/** The calls of a period and what answered them. */
export const coverageTotalsSchema = z.object({
  calls: count,
  /** A ready AED was within 500 m when the call came in. */
  covered: count,
  /** None was. */
  uncovered: count,
  /** Recorded before the call kept its nearby AEDs: neither, shown apart. */
  unknown: count,
  /** Known calls with at least one responder who accepted. */
  with_accept: count,
  /** Known calls with at least one responder who arrived. */
  with_arrival: count,
})

/** One district of the breakdown; `code` null holds the calls whose district is not known. */
export const coverageDistrictSchema = z.object({
  code: z.string().nullable(),
  /** The district's name below the region asked for (浙江省杭州市西湖区 with no region, 西湖区 in 杭州市). */
  name: z.string().nullable(),
  calls: count,
  covered: count,
  uncovered: count,
  unknown: count,
  covered_share: share,
})
export type CoverageDistrict = z.infer<typeof coverageDistrictSchema>

/** An uncovered call on the map, as a plain array: [id, lon, lat, call_time, location]. */
export const coveragePointSchema = z.tuple([
  z.number().int(),
  z.number(),
  z.number(),
  /** 'YYYY-MM-DD HH:mm:ss' in China time. */
  z.string(),
  z.string(),
])
export type CoveragePoint = z.infer<typeof coveragePointSchema>

export const coverageSchema = z.object({
  /** The period the figures are of (the defaults filled in). */
  start_date: z.string(),
  end_date: z.string(),
  totals: coverageTotalsSchema,
  /** Of the known calls (calls − unknown). */
  shares: z.object({ covered: share, with_accept: share, with_arrival: share }),
  /** Medians over the known calls that had one, in seconds from the call; null when none had. */
  median_seconds: z.object({ first_accept: z.number().nullable(), first_arrival: z.number().nullable() }),
  /** Most calls first. */
  districts: z.array(coverageDistrictSchema),
  /** The uncovered calls, newest first, at most COVERAGE_POINTS_MAX (totals.uncovered counts them all). */
  points: z.array(coveragePointSchema),
})
export type Coverage = z.infer<typeof coverageSchema>

/** The coverage page's one call: the figures, or with export_xls the spreadsheet of the calls. */
export const coverageApi = {
  summary: get('/api/v1/aid-event/coverage/', {
    summary:
      'Coverage of the scope’s calls in a period (start_date, end_date, default the last 30 days) and region: shares covered by a ready AED within 500 m and answered by responders, median minutes to the first accept and arrival, districts, the uncovered calls’ points; export_xls=true answers data.file_url',
    query: coverageQuery,
    response: z.union([coverageSchema, exportAnswer]),
  }),
}
