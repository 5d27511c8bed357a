import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'

/** Organisations' time zone until each keeps its own: the spec's users are in China. */
export const TIME_ZONE = 'Asia/Shanghai'

const clockFormats = new Map<string, Intl.DateTimeFormat>()

/** A formatter of a moment's year, month, day, hour (0-23), minute and second in a zone, made once. */
export function clockFormat(zone: string): Intl.DateTimeFormat {
  let f = clockFormats.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
    clockFormats.set(zone, f)
  }
  return f
}

const fmt = clockFormat(TIME_ZONE)

/** 'YYYY-MM-DD HH:mm:ss' in the organisations' time zone, as the spec shows times. */
export function formatDateTime(d: Date): string {
  const p = Object.fromEntries(fmt.formatToParts(d).map((x) => [x.type, x.value]))
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`
}

/** 'YYYY-MM-DD' of a moment in the organisations' time zone. */
export function formatDate(d: Date): string {
  return formatDateTime(d).slice(0, 10)
}

/** SQL condition: the column falls on the dates start..end inclusive, in the organisations' time zone. */
export function betweenDates(column: AnyPgColumn | SQL, start?: string, end?: string): SQL | undefined {
  const parts: SQL[] = []
  if (start) parts.push(sql`${column} >= (${start}::date)::timestamp AT TIME ZONE ${TIME_ZONE}`)
  if (end) parts.push(sql`${column} < ((${end}::date + 1)::timestamp AT TIME ZONE ${TIME_ZONE})`)
  return parts.length ? sql.join(parts, sql` AND `) : undefined
}
