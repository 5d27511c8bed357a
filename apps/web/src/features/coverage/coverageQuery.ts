import type { QueryIn } from '@aed/contracts'
import { COVERAGE_DEFAULT_DAYS, type coverageApi } from '@aed/contracts/coverage'
import type { Dayjs } from 'dayjs'
import type { Filters } from '../../components/DataTable/listParams'
import type { TimePreset } from '../../components/TimeRangePicker/timeRange'
import { todayInZone } from '../../lib/datetime'

/** The period presets by menu key (5 is the custom range): the last 7, 30 and 90 days. */
export const COVERAGE_PRESET_DAYS: Record<string, number> = { '1': 7, '2': COVERAGE_DEFAULT_DAYS, '3': 90 }
export const DEFAULT_COVERAGE_PRESET = '2'

export function coveragePresets(label: (days: number) => string): TimePreset[] {
  return Object.entries(COVERAGE_PRESET_DAYS).map(([key, days]) => ({ key, label: label(days) }))
}

/** What the page asks for: always a period, the region when one is picked. */
export type CoverageQueryIn = QueryIn<typeof coverageApi.summary> & { start_date: string; end_date: string }

const DAY = 'YYYY-MM-DD'
const text = (v: Filters[string] | undefined) => (typeof v === 'string' && v ? v : undefined)

/** The figures' query from the URL filters: the period as start_date and end_date (default the last 30 days), the region. */
export function coverageQuery(filters: Filters, today: Dayjs = todayInZone()): CoverageQueryIn {
  const period = filters.period ?? DEFAULT_COVERAGE_PRESET
  let range: [string, string]
  if (Array.isArray(period) && period.length === 2) {
    range = [period[0].replaceAll('.', '-'), period[1].replaceAll('.', '-')]
  } else {
    const days = COVERAGE_PRESET_DAYS[String(period)] ?? COVERAGE_DEFAULT_DAYS
    range = [today.subtract(days, 'day').format(DAY), today.format(DAY)]
  }
  return { start_date: range[0], end_date: range[1], address_code: text(filters.address_code) }
}
