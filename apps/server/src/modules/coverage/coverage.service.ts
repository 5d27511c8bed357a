import { type Lang, translate } from '@aed/contracts'
import {
  COVERAGE_DEFAULT_DAYS,
  COVERAGE_MAX_DAYS,
  COVERAGE_POINTS_MAX,
  type CoverageQuery,
} from '@aed/contracts/coverage'
import { regionPrefix } from '@aed/contracts/regions'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import { formatDate } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { exportXlsx } from '../../providers/storage/xlsx.ts'
import { coverageColumns, presentCoverage } from './coverage.presenter.ts'
import * as repo from './coverage.repository.ts'

/** Calls one export may hold; a larger period must be narrowed. */
export const EXPORT_LIMIT = 100_000

const DAY_MS = 86_400_000
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** The period of a query: end today and start 30 days before the end when not given; at most 366 days. */
export function periodOf(q: Pick<CoverageQuery, 'start_date' | 'end_date'>, now: Date) {
  const end = q.end_date ?? formatDate(now)
  const start = q.start_date ?? dateOf(dayNumber(end) - COVERAGE_DEFAULT_DAYS)
  if (start > end) throw invalid('DATE_ORDER')
  if (dayNumber(end) - dayNumber(start) + 1 > COVERAGE_MAX_DAYS)
    throw invalid('COVERAGE_RANGE_TOO_LONG', { days: COVERAGE_MAX_DAYS })
  return { start, end }
}

/** The coverage of the scope's calls in a period and region, or with `export_xls` the spreadsheet of them. */
export async function coverage(ctx: AppContext, auth: AuthContext, q: CoverageQuery, lang: Lang) {
  const period = periodOf(q, ctx.clock.now())
  const filter = { ...period, prefix: q.address_code ? regionPrefix(q.address_code) : null }
  if (!q.export_xls) {
    const groups = await repo.coverageGroups(ctx.db, auth, filter)
    const points = await repo.uncoveredPoints(ctx.db, auth, filter, COVERAGE_POINTS_MAX)
    return presentCoverage(period, q.address_code, groups, points)
  }
  const rows = await repo.coverageCalls(ctx.db, auth, filter, EXPORT_LIMIT + 1)
  if (rows.length > EXPORT_LIMIT) throw invalid('EXPORT_TOO_LARGE')
  const name = translate('COVERAGE_FILE', lang, { start: period.start, end: period.end })
  const file_url = await exportXlsx(ctx, name, translate('COVERAGE_SHEET', lang), coverageColumns(lang), rows)
  return { file_url, count: rows.length }
}
