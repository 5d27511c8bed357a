import { type DeviceMessage, TS_FUTURE_LIMIT_MS, TS_PAST_LIMIT_MS } from '@aed/contracts/device-protocol'

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

/** Battery bands of the data dictionary: exhausted at 5% and below, low at 9% and below. */
export const BATTERY_EXHAUSTED = 5
export const BATTERY_LOW = 9

/** A battery level's band: -1 none known, 0 exhausted, 1 low, 2 fine (the warnings change between bands only). */
export function batteryBand(battery: number | null): -1 | 0 | 1 | 2 {
  if (battery === null) return -1
  return battery <= BATTERY_EXHAUSTED ? 0 : battery <= BATTERY_LOW ? 1 : 2
}

/** Consumable dates of a device with no installation: never older or newer than a reported one. */
const NO_INSTALLATION = { padsExpire: '9999-12-31', batteryExpire: '9999-12-31' }

/**
 * What the "changes nothing" rule reads of a device. A fact left out is not known to the one
 * asking; the rule then takes the quiet case (the quiet hint knows only the faults).
 */
export type QuietFacts = {
  /** The device has reported before (it has an engine state). */
  reported: boolean
  /** A self-test has passed before (its readiness is known). */
  verified: boolean
  offline: boolean
  /** A rescue is under way. */
  rescue: boolean
  faultOpen: boolean
  /** The message is not newer than the state (boot, seq). */
  stale: boolean
  /** An earlier message of the device is stored and still waits to be applied. */
  waiting: boolean
  deleted: boolean
  /** The battery level the device holds. */
  battery: number | null
  /** The consumable dates of its installation (null: not registered at one). */
  installation: { padsExpire: string; batteryExpire: string } | null
}

/**
 * "This message changes nothing" but the device's clock (last seen, deadline, order, signal),
 * its battery within its band, and for a passing self-test its record and last pass: a
 * heartbeat, or a passing self-test, of a device that reported before, is online, has no rescue
 * under way, is newer than its state with nothing earlier waiting, keeps its battery band, and
 * for a self-test has passed one before, has no fault open and brings no new consumable dates.
 *
 * The one statement of the rule: the quiet hint (quiet.ts, mayBeQuiet) asks it with what the
 * process knows, the reducer with the device's whole state (its answer's `quiet`), and the quiet
 * batch's SQL (engine_quiet_batch, migration 0017) mirrors it; quiet-rule.test.ts holds the
 * three together. Anything in doubt is not quiet: the engine applies it one by one.
 */
export function changesNothing(m: DeviceMessage, f: Partial<QuietFacts>): boolean {
  if (m.type !== 'heartbeat' && !(m.type === 'selftest' && m.data.result === 'pass')) return false
  if (f.reported === false || f.offline || f.rescue || f.stale || f.waiting || f.deleted) return false
  const battery = m.data.battery
  if (battery !== undefined && f.battery !== undefined && batteryBand(battery) !== batteryBand(f.battery)) {
    return false
  }
  if (m.type === 'heartbeat') return true
  if (f.verified === false || f.faultOpen) return false
  if (f.installation === undefined) return true
  const installation = f.installation ?? NO_INSTALLATION
  const pads = m.data.electrode_sheet_expire
  const batteryExpire = m.data.battery_expire
  return (
    (pads === undefined || pads === installation.padsExpire) &&
    (batteryExpire === undefined || batteryExpire === installation.batteryExpire)
  )
}
