import type { CallOutcome } from '@aed/contracts/call'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many } from '../../db/sql.ts'
import { betweenDates } from '../../lib/time.ts'
import { firstAnswersOfCall } from '../dispatch/dispatch-answers.port.ts'

/** The calls counted: dates in China time (inclusive), the region by its code's prefix. */
export type CoverageFilter = { start: string; end: string; prefix: string | null }

/** The figures of a district (`whole` 1: of every call, the district empty). */
export type CoverageGroupRow = {
  whole: number
  code: string | null
  calls: number
  covered: number
  uncovered: number
  unknown: number
  with_accept: number
  with_arrival: number
  median_accept: number | null
  median_arrival: number | null
}

export type CoveragePointRow = { id: number; lon: number; lat: number; call_time: Date; location: string }

/** A call of the export, with its cover and the seconds to its first accept and arrival. */
export type CoverageCallRow = {
  id: number
  call_time: Date
  location: string
  address_code: string | null
  agency_name: string
  ready_aeds_500m: number | null
  outcome: CallOutcome | null
  to_accept: number | null
  to_arrival: number | null
}

function where(scope: Scope, f: CoverageFilter): SQL {
  const parts = [pathInScope(scope, sql`c.index_link`), betweenDates(sql`c.call_time`, f.start, f.end)!]
  if (f.prefix) parts.push(sql`c.address_code LIKE ${`${f.prefix}%`}`)
  return sql.join(parts, sql` AND `)
}

/** Seconds from the call to a moment (none before the call: a caller's clock may run ahead). */
const secondsAfterCall = (moment: SQL) =>
  sql`CASE WHEN ${moment} IS NOT NULL THEN greatest(0, extract(epoch FROM ${moment} - c.call_time))::float8 END`

/** The calls with their cover and answer times: the one place both reads take them from. */
function answeredCalls(scope: Scope, f: CoverageFilter, columns: SQL, joins: SQL = sql``) {
  return sql`SELECT ${columns},
                    ${secondsAfterCall(sql`a.first_accept`)} AS to_accept,
                    ${secondsAfterCall(sql`a.first_arrival`)} AS to_arrival
             FROM call_events c ${joins}
             LEFT JOIN ${firstAnswersOfCall(sql`c.id`)} a ON true
             WHERE ${where(scope, f)}`
}

/**
 * The figures of every district and of the whole (one statement, GROUPING SETS): calls covered
 * (a ready AED within 500 m when they came in), uncovered, unknown (recorded before that was kept),
 * and of the known calls those with an accept and an arrival and the medians of their seconds.
 */
export function coverageGroups(db: DbOrTx, scope: Scope, f: CoverageFilter) {
  const known = sql`ready IS NOT NULL`
  return many<CoverageGroupRow>(
    db,
    sql`WITH calls AS (${answeredCalls(scope, f, sql`c.address_code, c.ready_aeds_500m AS ready`)})
        SELECT grouping(address_code) AS whole, address_code AS code,
               count(*) AS calls,
               count(*) FILTER (WHERE ready > 0) AS covered,
               count(*) FILTER (WHERE ready = 0) AS uncovered,
               count(*) FILTER (WHERE ready IS NULL) AS unknown,
               count(to_accept) FILTER (WHERE ${known}) AS with_accept,
               count(to_arrival) FILTER (WHERE ${known}) AS with_arrival,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY to_accept) FILTER (WHERE ${known}) AS median_accept,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY to_arrival) FILTER (WHERE ${known}) AS median_arrival
        FROM calls
        GROUP BY GROUPING SETS ((), (address_code))
        ORDER BY whole DESC, calls DESC, code`,
  )
}

/** The uncovered calls, newest first, at most `limit`. */
export function uncoveredPoints(db: DbOrTx, scope: Scope, f: CoverageFilter, limit: number) {
  return many<CoveragePointRow>(
    db,
    sql`SELECT c.id, c.lon, c.lat, c.call_time, c.location FROM call_events c
        WHERE ${where(scope, f)} AND c.ready_aeds_500m = 0
        ORDER BY c.call_time DESC, c.id DESC LIMIT ${limit}`,
  )
}

/** Every call of the period, newest first, at most `limit` (the export). */
export function coverageCalls(db: DbOrTx, scope: Scope, f: CoverageFilter, limit: number) {
  return many<CoverageCallRow>(
    db,
    sql`${answeredCalls(
      scope,
      f,
      sql`c.id, c.call_time, c.location, c.address_code, g.name AS agency_name, c.ready_aeds_500m, c.outcome`,
      sql`JOIN agencies g ON g.id = c.agency_id`,
    )}
        ORDER BY c.call_time DESC, c.id DESC LIMIT ${limit}`,
  )
}
