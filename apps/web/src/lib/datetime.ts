import dayjs from 'dayjs'
import timezone from 'dayjs/plugin/timezone'
import utc from 'dayjs/plugin/utc'

dayjs.extend(utc)
dayjs.extend(timezone)

/** The agencies' time zone: times are shown as the organisation sees them. */
export const TIME_ZONE = 'Asia/Shanghai'
export const DATE_FORMAT = 'YYYY-MM-DD'
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss'

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T/

function format(value: string | null | undefined, pattern: string): string {
  if (!value) return ''
  if (!ISO_INSTANT.test(value)) return value
  const d = dayjs(value)
  return d.isValid() ? d.tz(TIME_ZONE).format(pattern) : value
}

/** An ISO instant as `YYYY-MM-DD HH:mm:ss` in the agencies' time zone; other text as it is. */
export function formatDateTime(value: string | null | undefined): string {
  return format(value, DATE_TIME_FORMAT)
}

/** An ISO instant as `YYYY-MM-DD` in the agencies' time zone; other text as it is. */
export function formatDate(value: string | null | undefined): string {
  return format(value, DATE_FORMAT)
}

/** Today as the agencies see it, for date filters the server reads in that time zone. */
export function todayInZone() {
  return dayjs().tz(TIME_ZONE)
}
