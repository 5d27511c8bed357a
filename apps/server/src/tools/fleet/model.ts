import { FAULT_CODES } from '@aed/contracts/device-protocol'
import gcoord from 'gcoord'

// The behaviour of one AED as a pure, seeded model: given where it is, what will happen to it
// (episodes: a fault, a silent spell, being carried away, a rescue, new pads, a new battery) and
// a seed, it yields the messages it sends up to a moment, in the protocol's envelope. No clock,
// no I/O: the simulator moves it in (scaled) real time and sends over HTTPS or MQTT; the demo
// history moves it through three weeks and feeds the engine in-process. Same inputs, same
// messages.
import { type Rng, seededRng } from '../../lib/random.ts'

export { type Rng, seededRng }

const HOUR = 3600_000
const DAY = 24 * HOUR

/** The protocol envelope (docs/device-protocol.md). */
export type Envelope = {
  v: 1
  id: string
  seq: number
  boot: number
  ts: number
  type: string
  data: Record<string, unknown>
}

/** What the device does next: send a message, or upload a rescue file (then send a `file` message). */
export type Outgoing =
  | { kind: 'message'; at: number; message: Envelope }
  | { kind: 'upload'; at: number; rescueEventId: string; body: Buffer }

/** Something that happens to a device; times are Unix ms of the model's clock, `to: null` lasts. */
export type Episode =
  /** Self-tests fail with these codes. */
  | { kind: 'fault'; from: number; to: number | null; codes: string[] }
  /** Sends nothing (no power, no signal); boots again at the end. */
  | { kind: 'silent'; from: number; to: number | null }
  /** Carried this far away: two GPS fixes there at the start, one back home at the end. */
  | { kind: 'away'; from: number; to: number | null; distanceKm: number; bearingDeg: number }
  /** Used on a patient: the usage steps, then the ECG upload. */
  | { kind: 'rescue'; at: number; shocks: number }
  /** From then on the self-tests report these pads (new pads, or pads about to expire). */
  | { kind: 'pads'; at: number; expire: string }
  /** A fresh battery. */
  | { kind: 'battery_swap'; at: number }

/** What the model knows of the device. */
export type DeviceProfile = {
  sn: string
  model: string
  fwVersion: string
  /** Where it is installed (GCJ-02, as the registry stores it); null for factory stock. */
  installation: { lat: number; lon: number } | null
  padsExpire: string | null
  batteryExpire: string | null
}

export type ModelOptions = {
  /** The model's start (Unix ms): `hello` then. */
  start: number
  /** Boot number of the first boot; each return from a silent spell boots again. */
  boot: number
  seed: number
  /** How often a heartbeat goes out, in model seconds. */
  heartbeatS: number
  /** What `hello` declares as `report_interval_s` (60 s to a week). */
  reportIntervalS: number
  /** Battery at the start, percent. */
  battery: number
  /** Percent lost per model day. */
  drainPerDay: number
  episodes: Episode[]
  /** The daily self-test's hour, Asia/Shanghai (0-24); drawn from the seed when absent. */
  selftestHour?: number
  /** Days between automatic self-tests (1: daily, 7: weekly, as some models do); default 1. */
  selftestEveryDays?: number
  /** With the first `hello`, a position fix and a power-on self-test (default true; a return from a silent spell always sends them). */
  bootReport?: boolean
}

/** A command as the device receives it. */
export type Command = { cmd_id: string; name: string; args?: Record<string, unknown> }

type Item =
  | { at: number; what: 'hello' | 'heartbeat' | 'selftest' | 'home' | 'wake' | 'inspection' }
  | { at: number; what: 'away'; lat: number; lon: number }
  | { at: number; what: 'usage'; rescueEventId: string; desc: string; para?: unknown }
  | { at: number; what: 'upload'; rescueEventId: string; seconds: number }
  | { at: number; what: 'battery_swap' }

/** The rescue steps and their seconds after power-on (a shock, CPR, then another analysis...). */
function rescueSteps(shocks: number): { s: number; desc: string; para?: unknown }[] {
  const steps: { s: number; desc: string; para?: unknown }[] = [
    { s: 0, desc: 'power_on' },
    { s: 35, desc: 'pads_on_patient' },
  ]
  let s = 45
  for (let i = 0; i < Math.max(1, shocks); i++) {
    steps.push({ s, desc: 'analysis' })
    if (i < shocks) {
      steps.push({ s: s + 10, desc: 'shock_advised' })
      steps.push({
        s: s + 18,
        desc: 'shock_delivered',
        para: { energy_j: 150 + 50 * Math.min(i, 1), n: i + 1 },
      })
    }
    steps.push({ s: s + 20, desc: 'cpr', para: { duration_s: 120 } })
    s += 140
  }
  steps.push({ s: s + 300, desc: 'power_off' })
  return steps
}

/** A point `km` away from (lat, lon) toward `bearingDeg` (good enough under 100 km). */
export function displaced(lat: number, lon: number, km: number, bearingDeg: number) {
  const b = (bearingDeg * Math.PI) / 180
  const dLat = (km * Math.cos(b)) / 111.32
  const dLon = (km * Math.sin(b)) / (111.32 * Math.cos((lat * Math.PI) / 180))
  return { lat: lat + dLat, lon: lon + dLon }
}

/** GCJ-02 (the registry's datum) to WGS-84 (what a GNSS receiver reports). */
export function toWgs84(lat: number, lon: number) {
  const [x, y] = gcoord.transform([lon, lat], gcoord.GCJ02, gcoord.WGS84) as [number, number]
  return { lat: Number(y.toFixed(6)), lon: Number(x.toFixed(6)) }
}

/** A small synthetic ECG recording: 250 Hz, 16-bit samples, `seconds` long. */
export function syntheticEcg(seconds: number, rng: Rng): Buffer {
  const rate = 250
  const n = Math.round(seconds * rate)
  const buf = Buffer.alloc(n * 2)
  const beat = rate * rng.between(0.3, 1.2)
  for (let i = 0; i < n; i++) {
    const p = (i % beat) / beat
    const qrs = Math.exp(-(((p - 0.2) / 0.015) ** 2)) * 1200
    const tw = Math.exp(-(((p - 0.45) / 0.05) ** 2)) * 250
    const noise = (rng.next() - 0.5) * 60
    buf.writeInt16LE(Math.round(qrs + tw + noise), i * 2)
  }
  return buf
}

/**
 * What a model is going to send, in time order: `schedule` puts an item (its time rounded to the
 * millisecond) after every item due at the same time or earlier; `runDue` hands every item due by
 * `to` to `handle`, in order (items scheduled while handling one are taken in their turn), and
 * answers what it made of them.
 */
export function createAgenda<T extends { at: number }>() {
  const items: T[] = []
  return {
    schedule(item: T) {
      item.at = Math.round(item.at)
      let i = items.length
      while (i > 0 && items[i - 1].at > item.at) i--
      items.splice(i, 0, item)
    },
    runDue<R>(to: number, handle: (item: T) => R[]): R[] {
      const out: R[] = []
      while (items.length > 0 && items[0].at <= to) out.push(...handle(items.shift() as T))
      return out
    },
  }
}

export type DeviceModel = ReturnType<typeof createDeviceModel>

/** One AED's behaviour: `advance(to)` answers what it sends up to `to`, in order. */
export function createDeviceModel(profile: DeviceProfile, opts: ModelOptions) {
  const rng = seededRng(opts.seed)
  let boot = opts.boot
  let seq = 0
  let heartbeatMs = opts.heartbeatS * 1000
  let batteryAt = { t: opts.start, level: opts.battery }
  let position = profile.installation
  let rescues = 0
  const hour = opts.selftestHour ?? rng.between(1, 5)
  const episodes = [...opts.episodes]
  const { schedule, runDue } = createAgenda<Item>()

  const silentAt = (t: number) =>
    episodes.some((e) => e.kind === 'silent' && e.from <= t && (e.to === null || t < e.to))
  const faultAt = (t: number) => {
    const e = episodes.find((x) => x.kind === 'fault' && x.from <= t && (x.to === null || t < x.to))
    return e && e.kind === 'fault' ? e.codes : null
  }
  const padsAt = (t: number) => {
    let pads = profile.padsExpire
    let since = -Infinity
    for (const e of episodes)
      if (e.kind === 'pads' && e.at <= t && e.at >= since) [pads, since] = [e.expire, e.at]
    return pads
  }
  const battery = (t: number) =>
    Math.max(0, Math.min(100, Math.round(batteryAt.level - (opts.drainPerDay * (t - batteryAt.t)) / DAY)))

  /** The next daily self-test after `t`: the device's hour (Asia/Shanghai), ±20 minutes. */
  const nextSelftest = (t: number) => {
    const dayStart = Math.floor((t + 8 * HOUR) / DAY) * DAY - 8 * HOUR
    let at = dayStart + hour * HOUR + rng.between(-20, 20) * 60_000
    if (at <= t) at += DAY
    return at
  }

  /** A use on a patient: its usage steps, then the ECG upload. */
  function scheduleRescue(e: Extract<Episode, { kind: 'rescue' }>) {
    const id = `R${boot}${String(e.at).slice(-9)}${String(++rescues)}`
    const steps = rescueSteps(e.shocks)
    for (const s of steps) {
      schedule({ at: e.at + s.s * 1000, what: 'usage', rescueEventId: id, desc: s.desc, para: s.para })
    }
    const last = steps[steps.length - 1].s
    schedule({
      at: e.at + (last + 45) * 1000,
      what: 'upload',
      rescueEventId: id,
      seconds: Math.min(last, 60),
    })
  }

  schedule({ at: opts.start, what: 'hello' })
  schedule({ at: opts.start + Math.round(rng.between(0.05, 1) * heartbeatMs), what: 'heartbeat' })
  schedule({
    at: nextSelftest(opts.start + rng.int(0, (opts.selftestEveryDays ?? 1) - 1) * DAY),
    what: 'selftest',
  })
  for (const e of episodes) {
    if (e.kind === 'silent' && e.to !== null) schedule({ at: e.to, what: 'wake' })
    if (e.kind === 'battery_swap') schedule({ at: e.at, what: 'battery_swap' })
    // Whoever repaired it checks it at once (a user inspection), as do those who change the pads.
    if (e.kind === 'fault' && e.to !== null) schedule({ at: e.to + 60_000, what: 'inspection' })
    if (e.kind === 'pads' && e.at > opts.start) schedule({ at: e.at + 60_000, what: 'inspection' })
    if (e.kind === 'away' && profile.installation) {
      const there = displaced(profile.installation.lat, profile.installation.lon, e.distanceKm, e.bearingDeg)
      schedule({ at: e.from, what: 'away', ...there })
      schedule({ at: e.from + rng.int(3, 15) * 60_000, what: 'away', ...there })
      if (e.to !== null) schedule({ at: e.to, what: 'home' })
    }
    if (e.kind === 'rescue') scheduleRescue(e)
  }

  const message = (at: number, type: string, data: Record<string, unknown>): Outgoing => {
    seq++
    return { kind: 'message', at, message: { v: 1, id: `${boot}-${seq}`, seq, boot, ts: at, type, data } }
  }
  const fix = (at: number, lat: number, lon: number, noiseM: number): Outgoing => {
    const jitter = displaced(lat, lon, (rng.next() * noiseM) / 1000, rng.between(0, 360))
    return message(at, 'location', {
      ...toWgs84(jitter.lat, jitter.lon),
      positioning_type: 'gps',
      accuracy_m: rng.int(3, 25),
      altitude: rng.int(5, 60),
    })
  }
  const selftest = (at: number, reportType: number): Outgoing => {
    const codes = faultAt(at)
    const pads = padsAt(at)
    return message(at, 'selftest', {
      report_type: reportType,
      result: codes ? 'fail' : 'pass',
      fault_codes: codes ?? [],
      battery: battery(at),
      ...(pads ? { electrode_sheet_expire: pads } : {}),
      ...(profile.batteryExpire ? { battery_expire: profile.batteryExpire } : {}),
      pads_connected: !codes?.includes('E01'),
    })
  }
  const hello = (at: number, report = true): Outgoing[] => {
    const out = [
      message(at, 'hello', {
        model: profile.model,
        fw_version: profile.fwVersion,
        report_interval_s: opts.reportIntervalS,
      }),
    ]
    if (!report) return out
    if (position) out.push(fix(at + 1000, position.lat, position.lon, 10))
    out.push(selftest(at + 2000, 0))
    return out
  }

  function handle(item: Item): Outgoing[] {
    switch (item.what) {
      case 'heartbeat':
        schedule({ at: item.at + heartbeatMs * rng.between(0.97, 1.03), what: 'heartbeat' })
        if (silentAt(item.at)) return []
        return [message(item.at, 'heartbeat', { battery: battery(item.at), rssi: rng.int(-105, -60) })]
      case 'selftest':
        schedule({
          at: nextSelftest(item.at + ((opts.selftestEveryDays ?? 1) - 1) * DAY + HOUR),
          what: 'selftest',
        })
        return silentAt(item.at) ? [] : [selftest(item.at, 1)]
      case 'inspection':
        return silentAt(item.at) ? [] : [selftest(item.at, -1)]
      case 'hello':
        // A device silent from the start says nothing until it wakes (it boots then).
        return silentAt(item.at) ? [] : hello(item.at, opts.bootReport ?? true)
      case 'wake':
        if (silentAt(item.at)) return []
        boot++
        seq = 0
        return hello(item.at)
      case 'battery_swap':
        batteryAt = { t: item.at, level: 100 }
        return []
      case 'away':
        position = { lat: item.lat, lon: item.lon }
        return silentAt(item.at) ? [] : [fix(item.at, item.lat, item.lon, 30)]
      case 'home':
        position = profile.installation
        return silentAt(item.at) || !position ? [] : [fix(item.at, position.lat, position.lon, 10)]
      case 'usage':
        if (silentAt(item.at)) return []
        return [
          message(item.at, 'usage', {
            rescue_event_id: item.rescueEventId,
            event_time: item.at,
            event_desc: item.desc,
            ...(item.para === undefined ? {} : { event_para: item.para }),
          }),
        ]
      case 'upload':
        if (silentAt(item.at)) return []
        return [
          {
            kind: 'upload',
            at: item.at,
            rescueEventId: item.rescueEventId,
            body: syntheticEcg(item.seconds, rng),
          },
        ]
    }
  }

  return {
    sn: profile.sn,
    profile,
    /** Everything the device sends after the previous call and up to `to` (inclusive), in order. */
    advance: (to: number): Outgoing[] => runDue(to, handle),
    /** Whether the device is silent (sends and hears nothing) at `t`. */
    silentAt,
    /**
     * Uses the device on a patient from `at` on (a responder brought it to a call): the usage
     * steps and the ECG upload, as a rescue episode has them. Nothing is sent while it is silent.
     */
    rescue(at: number, shocks: number) {
      const e = { kind: 'rescue' as const, at, shocks }
      episodes.push(e)
      scheduleRescue(e)
    },
    /** The `file` message after an upload answered `fileId`. */
    fileMessage(at: number, rescueEventId: string, fileId: string): Envelope {
      const m = message(at, 'file', { rescue_event_id: rescueEventId, kind: 'ecg', file_id: fileId })
      return (m as Extract<Outgoing, { kind: 'message' }>).message
    },
    /** Carries out a command: what it sends back (the result, then the `ack`); nothing while silent. */
    command(at: number, cmd: Command): Envelope[] {
      if (silentAt(at)) return []
      const out: Outgoing[] = []
      let ok = true
      let error: string | undefined
      if (cmd.name === 'selftest') out.push(selftest(at, 2))
      else if (cmd.name === 'locate') {
        if (position) out.push(fix(at, position.lat, position.lon, 10))
        else [ok, error] = [false, 'no fix']
      } else if (cmd.name === 'set_interval') {
        const s = Number(cmd.args?.report_interval_s ?? cmd.args?.interval_s)
        if (Number.isInteger(s) && s >= 60) heartbeatMs = s * 1000
        else [ok, error] = [false, 'bad interval']
      } else [ok, error] = [false, `unsupported: ${cmd.name}`]
      out.push(message(at, 'ack', { cmd_id: cmd.cmd_id, ok, ...(error ? { error } : {}) }))
      return out.map((o) => (o as Extract<Outgoing, { kind: 'message' }>).message)
    },
  }
}

/** Chances, per device and per run, that each kind of episode happens somewhere in the run. */
export type EpisodeRates = {
  fault: number
  silent: number
  away: number
  rescue: number
  /** Pads that expire soon (or have expired): the self-tests report them from the start. */
  padsExpiring: number
}

export const LIVE_RATES: EpisodeRates = {
  fault: 0.04,
  silent: 0.03,
  away: 0.02,
  rescue: 0.01,
  padsExpiring: 0.04,
}

/** The rates times `factor` (capped at certainty), for livelier demonstrations. */
export function scaledRates(factor: number, rates = LIVE_RATES): EpisodeRates {
  const f = (p: number) => Math.min(1, p * factor)
  return {
    fault: f(rates.fault),
    silent: f(rates.silent),
    away: f(rates.away),
    rescue: f(rates.rescue),
    padsExpiring: f(rates.padsExpiring),
  }
}

const FAULTS = Object.keys(FAULT_CODES)

/** A few fault codes, as a failing self-test reports them. */
export function faultCodes(rng: Rng): string[] {
  const first = rng.pick(FAULTS)
  if (!rng.chance(0.2)) return [first]
  const second = rng.pick(FAULTS)
  return second === first ? [first] : [first, second]
}

/** `YYYY-MM-DD` of a moment, Asia/Shanghai. */
export function shanghaiDate(t: number) {
  return new Date(t + 8 * HOUR).toISOString().slice(0, 10)
}

/** Random episodes within [start, end): each kind by its chance, at a random moment, of a random length. */
export function randomEpisodes(
  rng: Rng,
  start: number,
  end: number,
  rates: EpisodeRates,
  hasInstallation: boolean,
) {
  const span = end - start
  const at = (from = 0.05, to = 0.9) => start + span * rng.between(from, to)
  const episodes: Episode[] = []
  if (rng.chance(rates.fault)) {
    const from = at()
    episodes.push({
      kind: 'fault',
      from,
      to: rng.chance(0.5) ? null : from + span * rng.between(0.05, 0.3),
      codes: faultCodes(rng),
    })
  }
  if (rng.chance(rates.silent)) {
    // Early enough that a run of ten minutes or more sees the server's offline sweep mark it.
    const from = at(0.05, 0.4)
    episodes.push({ kind: 'silent', from, to: rng.chance(0.6) ? null : from + span * rng.between(0.3, 0.5) })
  }
  if (hasInstallation && rng.chance(rates.away)) {
    const from = at(0.05, 0.7)
    episodes.push({
      kind: 'away',
      from,
      to: rng.chance(0.5) ? null : from + span * rng.between(0.1, 0.25),
      distanceKm: rng.between(2, 25),
      bearingDeg: rng.between(0, 360),
    })
  }
  if (rng.chance(rates.rescue)) episodes.push({ kind: 'rescue', at: at(0.05, 0.8), shocks: rng.int(0, 3) })
  if (rng.chance(rates.padsExpiring)) {
    // Expiring within the reminder window, or already expired.
    episodes.push({ kind: 'pads', at: start, expire: shanghaiDate(start + rng.int(-20, 25) * DAY) })
  }
  return episodes
}

/**
 * Where a device stands when the simulation starts, as episodes: a faulty one keeps failing its
 * self-tests for a while (then is repaired), one away from its installation stays away, an offline one
 * stays silent. A simulator run then goes on from the network the console shows instead of
 * healing every device with its first messages.
 */
export function currentEpisodes(dev: DeviceProfile & { status: number }, rng: Rng, start: number): Episode[] {
  const hours = (min: number, max: number) => start + Math.round(rng.between(min, max) * HOUR)
  if (dev.status === 2) return [{ kind: 'fault', from: start, to: hours(6, 48), codes: faultCodes(rng) }]
  if (dev.status === 3 && dev.installation)
    return [
      {
        kind: 'away',
        from: start,
        to: hours(12, 72),
        distanceKm: rng.between(2, 8),
        bearingDeg: rng.int(0, 359),
      },
    ]
  if (dev.status === 4) return [{ kind: 'silent', from: start, to: hours(2, 24) }]
  return []
}
