import {
  type DeviceMessage,
  faultDescription,
  type Readiness,
  type ReadinessReason,
  UNSPECIFIED_FAULT,
  type WarningCode,
} from '@aed/contracts/device-protocol'
import { statusOfConditions } from '@aed/contracts/device-rules'
import gcoord from 'gcoord'
import type { DeviceEventKind } from '../../db/schema.ts'
import { BATTERY_EXHAUSTED, BATTERY_LOW, changesNothing, type QuietFacts } from './engine.rules.ts'

// The engine's pure part: conditions in, conditions and transitions out. No clock, no database:
// the processor (engine.service.ts) reads the state, calls `reduce`, and effects.ts writes what
// it answers.

/** An open condition: one open device event. */
export type Condition = { kind: DeviceEventKind; code: string }

/** What the engine keeps of a device between messages. */
export type EngineState = {
  open: Condition[]
  /** Has the device ever reported? Until then its readiness is unknown. */
  reported: boolean
  lastBoot: number
  lastSeq: number
  battery: number | null
  lastPassAt: Date | null
  /** The rescue under way: the device's id of it and its last step. */
  rescue: { rescueEventId: string; lastAt: Date } | null
  offsetStreak: number
  reportIntervalS: number | null
}

/** The installation the device is installed at (null: not registered), as the rules need it. */
export type Installation = {
  lat: number
  lon: number
  location: string
  padsExpire: string
  batteryExpire: string
  hostExpire: string
  /** Metres; overrides the organisation's threshold when set. */
  safetyRadiusM: number | null
}

/** The organisation's system settings the rules read. */
export type Rules = {
  /** Location-offset threshold in km; null: off (unless the installation has a safety radius). */
  offsetKm: number | null
  /** Months before expiry to warn; 0 none. */
  padsReminderMonths: number
  batteryReminderMonths: number
}

/** What happened to the device: a message, a missed deadline, or a re-check (day changed, settings or installation edited). */
export type EngineInput =
  | {
      kind: 'message'
      message: DeviceMessage
      time: Date
      stale: boolean
      /**
       * A `usage` step of a rescue that is not the one under way (it ended, or the step arrived
       * out of order): it is filed in that rescue's history (`late_usage`); the state's rescue stays.
       */
      lateUsage?: boolean
    }
  | { kind: 'deadline'; time: Date }
  | { kind: 'recheck'; time: Date }

export type Effect =
  | {
      type: 'open'
      kind: DeviceEventKind
      code: string
      time: Date
      content: string | null
      reportType?: number
      offset?: { lat: number; lon: number; distanceM: number }
    }
  | { type: 'close'; kind: DeviceEventKind; code: string; time: Date }
  | {
      type: 'detection'
      reportType: number
      passed: boolean
      faultCodes: string[]
      battery: number | null
      time: Date
    }
  | { type: 'rescue_start'; rescueEventId: string; time: Date }
  | { type: 'rescue_end'; rescueEventId: string; time: Date }
  | { type: 'usage'; rescueEventId: string; desc: string; para: unknown; time: Date }
  /** A step of a rescue that is not the one under way: filed in that rescue (made, ended, if new). */
  | { type: 'late_usage'; rescueEventId: string; desc: string; para: unknown; time: Date }
  /** The device reported new consumable dates: the installation takes them. */
  | { type: 'installation_dates'; padsExpire?: string; batteryExpire?: string }
  | { type: 'device_facts'; fwVersion?: string }
  | { type: 'ack'; cmdId: string; ok: boolean; error: string | null; time: Date }
  | { type: 'file'; rescueEventId: string; fileId: string }

export type EngineOutput = {
  state: EngineState
  effects: Effect[]
  /** The raw status 0-4 from the open conditions (disable_abnormal_display applies on reading). */
  status: 0 | 1 | 2 | 3 | 4
  readiness: Readiness
  reasons: ReadinessReason[]
  /**
   * The message changed nothing but the device's clock, by the one rule (engine.rules.ts,
   * changesNothing) asked with the state before it: such a message answers no effect but its
   * self-test's record, and the quiet batch writes the same without the engine.
   */
  quiet: boolean
}

/** GNSS fixes less precise than this are not evidence of a move. */
export const MAX_FIX_ACCURACY_M = 100
/** Two fixes in a row beyond the threshold open an offset. */
export const OFFSET_FIXES = 2
/** An offset closes once a fix is back within this share of the threshold (hysteresis). */
export const OFFSET_CLEAR_RATIO = 0.8
/** A rescue with no step for this long has ended. */
export const RESCUE_QUIET_MS = 3600_000
export { BATTERY_EXHAUSTED, BATTERY_LOW } from './engine.rules.ts'

const POWER_OFF = /power[_ ]?off|关机/i

/** The state of a device that never reported. */
export function initialState(): EngineState {
  return {
    open: [],
    reported: false,
    lastBoot: 0,
    lastSeq: -1,
    battery: null,
    lastPassAt: null,
    rescue: null,
    offsetStreak: 0,
    reportIntervalS: null,
  }
}

/** Great-circle distance in metres. */
export function distanceM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const R = 6371008.8
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLon = (b.lon - a.lon) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** A WGS-84 fix as GCJ-02, the datum installations are stored in. */
export function toGcj02(lat: number, lon: number): { lat: number; lon: number } {
  const [x, y] = gcoord.transform([lon, lat], gcoord.WGS84, gcoord.GCJ02) as [number, number]
  return { lat: y, lon: x }
}

/** The offset threshold in metres for an installation under the rules; null: the check is off. */
export function offsetThresholdM(installation: Installation | null, rules: Rules): number | null {
  if (!installation) return null
  if (installation.safetyRadiusM && installation.safetyRadiusM > 0) return installation.safetyRadiusM
  return rules.offsetKm === null ? null : rules.offsetKm * 1000
}

function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number)
  const t = new Date(Date.UTC(y, m - 1 + months, 1))
  const last = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate()
  t.setUTCDate(Math.min(d, last))
  return t.toISOString().slice(0, 10)
}

/**
 * The warnings that hold now, with their content: consumables by date against today and the
 * reminder months, the host by date, the battery by level.
 */
export function warningsFor(
  installation: Installation | null,
  battery: number | null,
  rules: Rules,
  today: string,
  /** The serial of the cabinet the AED was not returned to (its raised door event), or null. */
  notReturned: string | null = null,
): Map<WarningCode, string> {
  const w = new Map<WarningCode, string>()
  if (installation) {
    const consumable = (
      date: string,
      months: number,
      expired: WarningCode,
      expiring: WarningCode,
      name: string,
    ) => {
      if (date < today) w.set(expired, `${name}已于${date}过期`)
      else if (months > 0 && date <= addMonths(today, months)) w.set(expiring, `${name}将于${date}过期`)
    }
    consumable(installation.padsExpire, rules.padsReminderMonths, 'pads_expired', 'pads_expiring', '电极片')
    consumable(
      installation.batteryExpire,
      rules.batteryReminderMonths,
      'battery_expired',
      'battery_expiring',
      '电池',
    )
    if (installation.hostExpire < today) w.set('host_expired', `设备已于${installation.hostExpire}过期`)
  }
  if (battery !== null) {
    if (battery <= BATTERY_EXHAUSTED) w.set('battery_exhausted', `电量耗尽（${battery}%）`)
    else if (battery <= BATTERY_LOW) w.set('battery_low', `电量低（${battery}%）`)
  }
  if (notReturned) w.set('not_returned', `AED未归还救护箱（${notReturned}）`)
  return w
}

/**
 * Readiness and its reasons from the open conditions, the rescue, whether the device reported,
 * and whether a self-test ever passed (unknown until one has: `never_verified`).
 */
export function readinessOf(state: EngineState): { readiness: Readiness; reasons: ReadinessReason[] } {
  if (!state.reported) return { readiness: 'unknown', reasons: ['never_reported'] }
  const has = (kind: DeviceEventKind, code?: string) =>
    state.open.some((c) => c.kind === kind && (code === undefined || c.code === code))
  const reasons: ReadinessReason[] = []
  if (has('fault')) reasons.push('fault')
  if (has('warning', 'pads_expired')) reasons.push('pads_expired')
  if (has('warning', 'battery_expired')) reasons.push('battery_expired')
  if (has('warning', 'battery_exhausted')) reasons.push('battery_exhausted')
  if (state.rescue) reasons.push('in_use')
  if (has('offline')) return { readiness: 'unknown', reasons: ['offline', ...reasons] }
  if (reasons.length) return { readiness: 'not_ready', reasons }
  // Nothing against it, but nothing for it either until a self-test has passed.
  if (!state.lastPassAt) return { readiness: 'unknown', reasons: ['never_verified'] }
  return { readiness: 'ready', reasons }
}

/** What the "changes nothing" rule reads of a device, from its state and its installation. */
export function quietFactsOf(
  state: EngineState,
  installation: Installation | null,
): Omit<QuietFacts, 'stale' | 'waiting' | 'deleted'> {
  return {
    reported: state.reported,
    verified: state.lastPassAt !== null,
    offline: state.open.some((c) => c.kind === 'offline'),
    rescue: state.rescue !== null,
    faultOpen: state.open.some((c) => c.kind === 'fault'),
    battery: state.battery,
    installation: installation && {
      padsExpire: installation.padsExpire,
      batteryExpire: installation.batteryExpire,
    },
  }
}

type Ctx = {
  installation: Installation | null
  rules: Rules
  today: string
  /** The cabinet the AED was not returned to (see warningsFor); null or absent: none. */
  notReturned?: string | null
}

/**
 * Applies one input to a device's state. `today` is the date in the organisations' time zone;
 * every time in the answer comes from the input, so the same input gives the same answer.
 */
export function reduce(prev: EngineState, input: EngineInput, ctx: Ctx): EngineOutput {
  const effects: Effect[] = []
  const state: EngineState = { ...prev, open: [...prev.open] }
  const isOpen = (kind: DeviceEventKind, code = '') =>
    state.open.some((c) => c.kind === kind && c.code === code)
  const open = (e: Omit<Extract<Effect, { type: 'open' }>, 'type'>) => {
    if (isOpen(e.kind, e.code)) return
    state.open.push({ kind: e.kind, code: e.code })
    effects.push({ type: 'open', ...e })
  }
  const close = (kind: DeviceEventKind, code: string, time: Date) => {
    if (!isOpen(kind, code)) return
    state.open = state.open.filter((c) => !(c.kind === kind && c.code === code))
    effects.push({ type: 'close', kind, code, time })
  }
  const endRescue = (time: Date) => {
    if (!state.rescue) return
    effects.push({ type: 'rescue_end', rescueEventId: state.rescue.rescueEventId, time })
    state.rescue = null
  }
  let installation = ctx.installation

  // A rescue with no step for an hour is over, whatever arrives next.
  if (state.rescue && input.time.getTime() - state.rescue.lastAt.getTime() >= RESCUE_QUIET_MS) {
    endRescue(new Date(state.rescue.lastAt.getTime()))
  }

  if (input.kind === 'deadline') {
    open({ kind: 'offline', code: '', time: input.time, content: null })
  } else if (input.kind === 'message') {
    const { message: m, time, stale } = input
    state.reported = true
    // Any message proves the device is alive, even one that arrives out of order.
    close('offline', '', time)
    if (!stale) {
      state.lastBoot = m.boot
      state.lastSeq = m.seq
    }
    switch (m.type) {
      case 'hello':
        if (!stale) {
          if (m.data.report_interval_s) state.reportIntervalS = m.data.report_interval_s
          if (m.data.fw_version) effects.push({ type: 'device_facts', fwVersion: m.data.fw_version })
        }
        break
      case 'heartbeat':
        if (!stale) state.battery = m.data.battery
        break
      case 'selftest': {
        const d = m.data
        const passed = d.result === 'pass'
        const codes = passed ? [] : d.fault_codes.length ? [...new Set(d.fault_codes)] : [UNSPECIFIED_FAULT]
        effects.push({
          type: 'detection',
          reportType: d.report_type,
          passed,
          faultCodes: codes,
          battery: d.battery ?? null,
          time,
        })
        if (stale) break
        if (d.battery !== undefined) state.battery = d.battery
        if (passed) state.lastPassAt = time
        for (const c of prev.open)
          if (c.kind === 'fault' && !codes.includes(c.code)) close('fault', c.code, time)
        for (const code of codes) {
          open({ kind: 'fault', code, time, content: faultDescription(code), reportType: d.report_type })
        }
        if (installation && (d.electrode_sheet_expire || d.battery_expire)) {
          const dates = {
            padsExpire:
              d.electrode_sheet_expire && d.electrode_sheet_expire !== installation.padsExpire
                ? d.electrode_sheet_expire
                : undefined,
            batteryExpire:
              d.battery_expire && d.battery_expire !== installation.batteryExpire
                ? d.battery_expire
                : undefined,
          }
          if (dates.padsExpire || dates.batteryExpire) {
            effects.push({ type: 'installation_dates', ...dates })
            installation = {
              ...installation,
              padsExpire: dates.padsExpire ?? installation.padsExpire,
              batteryExpire: dates.batteryExpire ?? installation.batteryExpire,
            }
          }
        }
        break
      }
      case 'location': {
        if (stale) break
        const threshold = offsetThresholdM(installation, ctx.rules)
        const d = m.data
        const precise =
          d.positioning_type === 'gps' && (d.accuracy_m === undefined || d.accuracy_m <= MAX_FIX_ACCURACY_M)
        if (!installation || threshold === null || !precise) break
        const fix = toGcj02(d.lat, d.lon)
        const dist = distanceM(installation, fix)
        if (state.rescue) {
          state.offsetStreak = 0
        } else if (dist > threshold) {
          state.offsetStreak = Math.min(state.offsetStreak + 1, 100)
          if (state.offsetStreak >= OFFSET_FIXES) {
            open({
              kind: 'offset',
              code: '',
              time,
              content: null,
              offset: { lat: fix.lat, lon: fix.lon, distanceM: Math.round(dist) },
            })
          }
        } else {
          state.offsetStreak = 0
          if (dist <= threshold * OFFSET_CLEAR_RATIO) close('offset', '', time)
        }
        break
      }
      case 'usage': {
        const d = m.data
        if (input.lateUsage) {
          effects.push({
            type: 'late_usage',
            rescueEventId: d.rescue_event_id,
            desc: d.event_desc,
            para: d.event_para,
            time: new Date(d.event_time),
          })
          break
        }
        const eventTime = new Date(d.event_time)
        const at = Number.isNaN(eventTime.getTime()) ? time : eventTime
        if (state.rescue?.rescueEventId !== d.rescue_event_id) {
          endRescue(at)
          effects.push({ type: 'rescue_start', rescueEventId: d.rescue_event_id, time: at })
          state.rescue = { rescueEventId: d.rescue_event_id, lastAt: time }
          // A device in use is supposed to move: a half-seen offset starts again afterwards.
          state.offsetStreak = 0
        }
        effects.push({
          type: 'usage',
          rescueEventId: d.rescue_event_id,
          desc: d.event_desc,
          para: d.event_para,
          time: at,
        })
        if (state.rescue) state.rescue = { ...state.rescue, lastAt: time }
        if (POWER_OFF.test(d.event_desc)) endRescue(at)
        break
      }
      case 'file':
        effects.push({ type: 'file', rescueEventId: m.data.rescue_event_id, fileId: m.data.file_id })
        break
      case 'ack':
        effects.push({ type: 'ack', cmdId: m.data.cmd_id, ok: m.data.ok, error: m.data.error ?? null, time })
        break
      default:
        // Cabinet messages from an AED: stored in the inbox, nothing to apply.
        break
    }
  }

  // Consumables and battery: open what holds, close what no longer does.
  const time = input.time
  if (state.reported || input.kind === 'recheck') {
    const want = warningsFor(installation, state.battery, ctx.rules, ctx.today, ctx.notReturned ?? null)
    for (const c of prev.open) {
      if (c.kind === 'warning' && !want.has(c.code as WarningCode)) close('warning', c.code, time)
    }
    for (const [code, content] of want) open({ kind: 'warning', code, time, content })
  }
  // A switched-off offset check or a removed installation leaves no offset open.
  if (input.kind === 'recheck' && offsetThresholdM(installation, ctx.rules) === null)
    close('offset', '', time)

  const { readiness, reasons } = readinessOf(state)
  const quiet =
    input.kind === 'message' &&
    changesNothing(input.message, { ...quietFactsOf(prev, ctx.installation), stale: input.stale })
  return {
    state,
    effects,
    status: statusOfConditions(state.open.map((c) => c.kind)),
    readiness,
    reasons,
    quiet,
  }
}
