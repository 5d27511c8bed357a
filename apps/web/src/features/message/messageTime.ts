import { MESSAGE_STALE_MS } from '@aed/contracts/message'
import dayjs from 'dayjs'
import { TIME_ZONE } from '../../lib/datetime'

/** A message time as an instant: ISO as it is, a plain `YYYY-MM-DD HH:mm:ss` in the agencies' zone. */
export function messageInstant(value: string): number {
  return (/^\d{4}-\d{2}-\d{2}T/.test(value) ? dayjs(value) : dayjs.tz(value, TIME_ZONE)).valueOf()
}

/** Older than 10 minutes: shown as stale in the message centre. */
export function isStale(value: string, now = Date.now()) {
  const at = messageInstant(value)
  return Number.isFinite(at) && now - at > MESSAGE_STALE_MS
}
