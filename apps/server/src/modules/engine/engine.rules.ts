import { TS_FUTURE_LIMIT_MS, TS_PAST_LIMIT_MS } from '@aed/contracts/device-protocol'

/** Report interval when the device declared none in `hello`. */
export const DEFAULT_REPORT_INTERVAL_S = 3600
/** Offline after this many missed reports plus the grace. */
export const MISSED_FACTOR = 3
export const DEADLINE_GRACE_MS = 5 * 60_000

/** When a device that reported at `at` is overdue. */
export function deadlineAfter(at: Date, reportIntervalS: number | null): Date {
  const interval = reportIntervalS ?? DEFAULT_REPORT_INTERVAL_S
  return new Date(at.getTime() + interval * 1000 * MISSED_FACTOR + DEADLINE_GRACE_MS)
}

/** The time a message happened: the device clock, unless it is far off (then the receive time, flagged). */
export function eventTimeOf(ts: number, receivedAt: Date): { time: Date; flagged: boolean } {
  const off = ts - receivedAt.getTime()
  if (off > TS_FUTURE_LIMIT_MS || -off > TS_PAST_LIMIT_MS) return { time: receivedAt, flagged: true }
  return { time: new Date(ts), flagged: false }
}
