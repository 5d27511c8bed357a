import { TS_FUTURE_LIMIT_MS, TS_PAST_LIMIT_MS } from '@aed/contracts/device-protocol'

/**
 * What became of one message: applied (stored and applied, or stored for the retry job),
 * seen before (`duplicate`: the same id, or the same (boot, seq) and body under a new id),
 * `stale` (stored, older than the device's state: its records kept, nothing current changed),
 * or `seq_reused` (refused: its (boot, seq) was used by a message with another body).
 */
export type Outcome = 'applied' | 'duplicate' | 'stale' | 'seq_reused'

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

/**
 * Rescue cabinets: an AED that left its cabinet (the cabinet reported it absent while the door
 * was open, or it started a rescue) and is not back this long after the door closed raises the
 * AED's 'not_returned' warning until the cabinet reports it present again.
 */
export const AED_RETURN_MS = 2 * 3600_000
/**
 * A rescue of a bound AED came out of its cabinet's door event when the door was open within
 * this long of the rescue's start (either order: the cabinet's and the AED's messages travel
 * apart).
 */
export const DOOR_RESCUE_WINDOW_MS = 30 * 60_000
