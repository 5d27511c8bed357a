import { DEFAULT_EXPORT_DAYS } from '@aed/contracts/operation-log'
import type { Dayjs } from 'dayjs'
import type { Filters } from '../../components/DataTable/listParams'
import type { TimePreset } from '../../components/TimeRangePicker/timeRange'
import { todayInZone } from '../../lib/datetime'

/** Presets of the time filter: days back from today, by menu key (5 is the custom range). */
export const LOG_PRESET_DAYS: Record<string, number> = { '1': 7, '2': 30, '3': 90, '4': DEFAULT_EXPORT_DAYS }
export const DEFAULT_LOG_PRESET = '4'

export function logPresets(label: (days: number) => string): TimePreset[] {
  return Object.entries(LOG_PRESET_DAYS).map(([key, days]) => ({ key, label: label(days) }))
}

const DAY = 'YYYY-MM-DD'
const text = (v: Filters[string] | undefined) => (typeof v === 'string' && v ? v : undefined)

/** The list and export query: operator, content and the time filter as start_time / end_time (default last 180 days). */
export function logQuery(filters: Filters, today: Dayjs = todayInZone()) {
  const time = filters.time ?? DEFAULT_LOG_PRESET
  let range: [string, string]
  if (Array.isArray(time)) {
    range = [time[0], time[1]].map((d) => d.replaceAll('.', '-')) as [string, string]
  } else {
    const days = LOG_PRESET_DAYS[time] ?? DEFAULT_EXPORT_DAYS
    range = [today.subtract(days, 'day').format(DAY), today.format(DAY)]
  }
  return {
    operator: text(filters.operator),
    content: text(filters.content),
    start_time: range[0],
    end_time: range[1],
  }
}
