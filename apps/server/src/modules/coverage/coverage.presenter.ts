import { type Lang, type MessageKey, translate } from '@aed/contracts'
import type { CallOutcome } from '@aed/contracts/call'
import type { Coverage, CoverageDistrict } from '@aed/contracts/coverage'
import { regionFullName, regionPath } from '@aed/contracts/regions'
import { formatDateTime } from '../../lib/time.ts'
import type { XlsxColumn } from '../../providers/storage/xlsx.ts'
import type { CoverageCallRow, CoverageGroupRow, CoveragePointRow } from './coverage.repository.ts'

/** `part` of `whole`, or null when there is nothing to divide by. */
const shareOf = (part: number, whole: number) => (whole > 0 ? part / whole : null)

/** Whole seconds (a median of two may end in .5). */
const seconds = (v: number | null) => (v === null ? null : Math.round(v))

/**
 * A district's name below the region asked for: 西湖区 in 杭州市 (or in 西湖区 itself), 杭州市西湖区 in
 * 浙江省, the whole name with no region. Null for a code the region table does not know.
 */
export function districtName(code: string | null, region: string | undefined): string | null {
  const path = code ? regionPath(code) : null
  if (!path) return null
  const full = regionFullName(path[path.length - 1])!
  // The levels the region names already, leaving the district's own name at least.
  const said = Math.min(region ? (regionPath(region)?.length ?? 0) : 0, path.length - 1)
  const above = said > 0 ? regionFullName(path[said - 1]) : null
  return above && full.startsWith(above) ? full.slice(above.length) : full
}

function district(r: CoverageGroupRow, region: string | undefined): CoverageDistrict {
  return {
    code: r.code,
    name: districtName(r.code, region),
    calls: r.calls,
    covered: r.covered,
    uncovered: r.uncovered,
    unknown: r.unknown,
    covered_share: shareOf(r.covered, r.calls - r.unknown),
  }
}

const point = (p: CoveragePointRow): Coverage['points'][number] => [
  p.id,
  p.lon,
  p.lat,
  formatDateTime(p.call_time),
  p.location,
]

const EMPTY: CoverageGroupRow = {
  whole: 1,
  code: null,
  calls: 0,
  covered: 0,
  uncovered: 0,
  unknown: 0,
  with_accept: 0,
  with_arrival: 0,
  median_accept: null,
  median_arrival: null,
}

/** The page's figures from the grouped rows (the whole first) and the uncovered calls. */
export function presentCoverage(
  period: { start: string; end: string },
  region: string | undefined,
  groups: CoverageGroupRow[],
  points: CoveragePointRow[],
): Coverage {
  const whole = groups.find((g) => g.whole === 1) ?? EMPTY
  const known = whole.calls - whole.unknown
  return {
    start_date: period.start,
    end_date: period.end,
    totals: {
      calls: whole.calls,
      covered: whole.covered,
      uncovered: whole.uncovered,
      unknown: whole.unknown,
      with_accept: whole.with_accept,
      with_arrival: whole.with_arrival,
    },
    shares: {
      covered: shareOf(whole.covered, known),
      with_accept: shareOf(whole.with_accept, known),
      with_arrival: shareOf(whole.with_arrival, known),
    },
    median_seconds: {
      first_accept: seconds(whole.median_accept),
      first_arrival: seconds(whole.median_arrival),
    },
    districts: groups.filter((g) => g.whole === 0).map((g) => district(g, region)),
    points: points.map(point),
  }
}

const OUTCOME_KEYS: Record<CallOutcome, MessageKey> = {
  aed_used: 'CALL_OUTCOME_AED_USED',
  no_aed_needed: 'CALL_OUTCOME_NO_AED_NEEDED',
  cancelled: 'CALL_OUTCOME_CANCELLED',
}
function coverKey(ready: number | null): MessageKey {
  if (ready === null) return 'COVERAGE_UNKNOWN'
  return ready > 0 ? 'COVERAGE_COVERED' : 'COVERAGE_UNCOVERED'
}

/** The spreadsheet's columns in the caller's language: one call a row. */
export function coverageColumns(lang: Lang): XlsxColumn<CoverageCallRow>[] {
  const t = (key: MessageKey) => translate(key, lang)
  return [
    { header: t('COVERAGE_COL_ID'), width: 10, value: (r) => r.id },
    { header: t('COVERAGE_COL_CALL_TIME'), width: 20, value: (r) => formatDateTime(r.call_time) },
    { header: t('COVERAGE_COL_LOCATION'), width: 40, value: (r) => r.location },
    {
      header: t('COVERAGE_COL_REGION'),
      width: 24,
      value: (r) => (r.address_code ? regionFullName(r.address_code) : null),
    },
    { header: t('COVERAGE_COL_AGENCY'), width: 24, value: (r) => r.agency_name },
    { header: t('COVERAGE_COL_READY_AEDS'), width: 16, value: (r) => r.ready_aeds_500m },
    { header: t('COVERAGE_COL_COVER'), width: 12, value: (r) => t(coverKey(r.ready_aeds_500m)) },
    { header: t('COVERAGE_COL_FIRST_ACCEPT'), width: 18, value: (r) => seconds(r.to_accept) },
    { header: t('COVERAGE_COL_FIRST_ARRIVAL'), width: 18, value: (r) => seconds(r.to_arrival) },
    {
      header: t('COVERAGE_COL_OUTCOME'),
      width: 14,
      value: (r) => (r.outcome ? t(OUTCOME_KEYS[r.outcome]) : null),
    },
  ]
}
