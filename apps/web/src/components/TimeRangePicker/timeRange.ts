import dayjs, { type Dayjs } from 'dayjs'

/** Menu key of the custom range in every time-range dropdown. */
export const CUSTOM_TIME_KEY = '5'
export const DOTTED_DATE = 'YYYY.MM.DD'
/** Custom dates may lie up to 5 years before or after today. */
export const CUSTOM_RANGE_YEARS = 5

export type TimePreset = { key: string; label: string }
/** A preset key, or a custom pair of dotted dates. */
export type TimeRangeValue = string | [string, string]

/** The label of a value: the preset's, or 'start - end' for a custom pair. */
export function timeRangeLabel(value: TimeRangeValue | undefined, presets: readonly TimePreset[]): string {
  if (!value) return ''
  if (Array.isArray(value)) return `${value[0]} - ${value[1]}`
  return presets.find((p) => p.key === value)?.label ?? ''
}

/** Dates outside five years either side of today cannot be picked. */
export function outsideCustomRange(date: Dayjs, today: Dayjs = dayjs()): boolean {
  return (
    date.isBefore(today.subtract(CUSTOM_RANGE_YEARS, 'year'), 'day') ||
    date.isAfter(today.add(CUSTOM_RANGE_YEARS, 'year'), 'day')
  )
}

/** A dotted date (YYYY.MM.DD) as a dayjs date, or null. */
export function parseDotted(value: string | undefined): Dayjs | null {
  if (!value) return null
  const d = dayjs(value.replaceAll('.', '-'))
  return d.isValid() ? d : null
}
