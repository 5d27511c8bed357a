import dayjs, { type Dayjs } from 'dayjs'
import { TIME_ZONE } from './datetime'

const ISO = 'YYYY-MM-DDTHH:mm:ss.SSSZ'

/** The span a time filter stands for, as ISO 8601 instants: what a list endpoint's start_time and end_time take. */
export type TimeWindow = { start_time?: string; end_time?: string }

/**
 * A time filter's span: a preset key of `presets` (milliseconds back from `now`), or a custom
 * pair of dotted dates (YYYY.MM.DD), whole days in the agencies' time zone. Nothing for anything else.
 */
export function timeWindow(
  value: string | string[] | undefined,
  presets: Readonly<Record<string, number>>,
  now: Dayjs = dayjs(),
): TimeWindow {
  if (Array.isArray(value)) {
    if (value.length !== 2) return {}
    const [start, end] = value.map((d) => dayjs.tz(d.replaceAll('.', '-'), TIME_ZONE))
    if (!start.isValid() || !end.isValid()) return {}
    return { start_time: start.startOf('day').format(ISO), end_time: end.endOf('day').format(ISO) }
  }
  const back = value ? presets[value] : undefined
  if (back === undefined) return {}
  return { start_time: now.subtract(back, 'ms').toISOString(), end_time: now.toISOString() }
}
