import { FAULT_CODES, parseDeviceMessage } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import { distanceM, toGcj02 } from '../../modules/engine/reducer.ts'
import {
  createDeviceModel,
  currentEpisodes,
  type Envelope,
  type Episode,
  LIVE_RATES,
  type ModelOptions,
  type Outgoing,
  randomEpisodes,
  scaledRates,
  seededRng,
  shanghaiDate,
} from './model.ts'

const HOUR = 3600_000
const DAY = 24 * HOUR
const start = Date.parse('2026-11-01T00:00:00.000Z')
const installation = { lat: 30.2741, lon: 120.1551 }
const profile = {
  sn: 'M10241001',
  model: 'D100',
  fwVersion: 'V2.0.1',
  installation,
  padsExpire: '2027-06-30',
  batteryExpire: '2028-01-31',
}

function model(episodes: Episode[] = [], over: Partial<ModelOptions> = {}) {
  return createDeviceModel(profile, {
    start,
    boot: 3,
    seed: 42,
    heartbeatS: 4 * 3600,
    reportIntervalS: 4 * 3600,
    battery: 90,
    drainPerDay: 1,
    episodes,
    selftestHour: 3,
    ...over,
  })
}
const messages = (out: Outgoing[]) => out.flatMap((o) => (o.kind === 'message' ? [o.message] : []))
const ofType = (out: Outgoing[], type: string) => messages(out).filter((m) => m.type === type)

describe('device behaviour model', () => {
  it('is deterministic: the same seed and episodes give the same messages', () => {
    const eps: Episode[] = [{ kind: 'rescue', at: start + 30 * HOUR, shocks: 2 }]
    const a = model(eps).advance(start + 3 * DAY)
    const b = model(eps).advance(start + 3 * DAY)
    expect(a).toEqual(b)
    expect(model(eps, { seed: 43 }).advance(start + 3 * DAY)).not.toEqual(a)
  })

  it('yields valid protocol messages in the device order, each at most once', () => {
    const m = model([
      { kind: 'fault', from: start + DAY, to: start + 2 * DAY, codes: ['E03'] },
      { kind: 'away', from: start + 50 * HOUR, to: start + 60 * HOUR, distanceKm: 5, bearingDeg: 90 },
      { kind: 'rescue', at: start + 70 * HOUR, shocks: 1 },
    ])
    const first = m.advance(start + 2 * DAY)
    const rest = m.advance(start + 4 * DAY)
    expect(m.advance(start + 4 * DAY)).toEqual([])
    const all = messages([...first, ...rest])
    for (const msg of all) expect(parseDeviceMessage(msg).ok).toBe(true)
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length)
    for (let i = 1; i < all.length; i++) {
      expect(all[i].ts).toBeGreaterThanOrEqual(all[i - 1].ts)
      expect(all[i].seq).toBe(all[i - 1].seq + 1)
    }
    // Both calls produced something, each in its own stretch of time.
    expect(first.length).toBeGreaterThan(0)
    expect(rest.length).toBeGreaterThan(0)
    expect(first.filter((o) => o.at > start + 2 * DAY)).toEqual([])
    expect(rest.filter((o) => o.at <= start + 2 * DAY)).toEqual([])
  })

  it('says hello, reports on boot, beats with a draining battery and tests itself daily at its hour', () => {
    const out = model().advance(start + 3 * DAY - 1)
    const all = messages(out)
    expect(all.slice(0, 3).map((x) => x.type)).toEqual(['hello', 'location', 'selftest'])
    expect(all[0].data).toEqual({ model: 'D100', fw_version: 'V2.0.1', report_interval_s: 14400 })
    const beats = ofType(out, 'heartbeat')
    expect(beats.length).toBeGreaterThanOrEqual(17)
    expect(beats.length).toBeLessThanOrEqual(19)
    const levels = beats.map((b) => b.data.battery as number)
    expect(levels[0]).toBeLessThanOrEqual(90)
    expect(levels.at(-1)).toBeLessThan(levels[0])
    for (let i = 1; i < levels.length; i++) expect(levels[i]).toBeLessThanOrEqual(levels[i - 1])
    const standby = ofType(out, 'selftest').filter((s) => s.data.report_type === 1)
    expect(standby).toHaveLength(3)
    for (const s of standby) {
      // 03:00 Asia/Shanghai is 19:00 UTC, give or take 20 minutes.
      const minutes = new Date(s.ts).getUTCHours() * 60 + new Date(s.ts).getUTCMinutes()
      expect(Math.abs(minutes - 19 * 60)).toBeLessThanOrEqual(20)
      expect(s.data).toMatchObject({
        result: 'pass',
        fault_codes: [],
        electrode_sheet_expire: '2027-06-30',
        battery_expire: '2028-01-31',
      })
    }
  })

  it('tests itself weekly when told to', () => {
    const out = model([], { selftestEveryDays: 7, bootReport: false }).advance(start + 21 * DAY)
    expect(messages(out)[0].type).toBe('hello')
    expect(messages(out)[1].type).toBe('heartbeat')
    expect(ofType(out, 'selftest')).toHaveLength(3)
  })

  it('fails its self-tests with the fault codes during a fault, and passes the inspection after repair', () => {
    const out = model([
      { kind: 'fault', from: start + 12 * HOUR, to: start + 3 * DAY + 5 * HOUR, codes: ['E02', 'E05'] },
    ]).advance(start + 5 * DAY)
    const tests = ofType(out, 'selftest')
    const failed = tests.filter((t) => t.data.result === 'fail')
    expect(failed.length).toBe(3)
    for (const f of failed) {
      expect(f.data.fault_codes).toEqual(['E02', 'E05'])
      expect(Object.keys(FAULT_CODES)).toEqual(expect.arrayContaining(f.data.fault_codes as string[]))
    }
    const inspection = tests.find((t) => t.data.report_type === -1)
    expect(inspection?.data.result).toBe('pass')
    expect(inspection!.ts).toBe(start + 3 * DAY + 5 * HOUR + 60_000)
  })

  it('sends nothing while silent and boots again afterwards', () => {
    const from = start + DAY
    const to = start + 2 * DAY
    const out = model([{ kind: 'silent', from, to }]).advance(start + 3 * DAY)
    const all = messages(out)
    expect(all.filter((m) => m.ts >= from && m.ts < to)).toEqual([])
    const wake = all.find((m) => m.ts >= to) as Envelope
    expect(wake).toMatchObject({ type: 'hello', boot: 4, seq: 1, ts: to })
    expect(new Set(all.filter((m) => m.ts > to).map((m) => m.boot))).toEqual(new Set([4]))
    // Forever silent: what it sent before, nothing after it starts, commands unanswered.
    const gone = model([{ kind: 'silent', from, to: null }])
    const said = messages(gone.advance(start + 5 * DAY))
    expect(said.length).toBeGreaterThan(0)
    expect(said.filter((m) => m.ts >= from)).toEqual([])
    expect(gone.command(start + 5 * DAY, { cmd_id: 'c1', name: 'selftest' })).toEqual([])
  })

  it('reports two WGS-84 GPS fixes far from its site when carried away, and one at home on return', () => {
    const out = model([
      { kind: 'away', from: start + 10 * HOUR, to: start + 20 * HOUR, distanceKm: 8, bearingDeg: 45 },
    ]).advance(start + DAY)
    const fixes = ofType(out, 'location')
    expect(fixes).toHaveLength(4)
    const km = (m: Envelope) => {
      expect(m.data).toMatchObject({ positioning_type: 'gps' })
      expect(m.data.accuracy_m as number).toBeLessThanOrEqual(100)
      // What the engine does: WGS-84 to GCJ-02, then the distance to the installation.
      return distanceM(installation, toGcj02(m.data.lat as number, m.data.lon as number)) / 1000
    }
    const [boot, away1, away2, home] = fixes.map(km)
    expect(boot).toBeLessThan(0.05)
    expect(away1).toBeGreaterThan(7.9)
    expect(away1).toBeLessThan(8.1)
    expect(away2).toBeGreaterThan(7.9)
    expect(fixes[2].ts - fixes[1].ts).toBeLessThanOrEqual(15 * 60_000)
    expect(home).toBeLessThan(0.05)
  })

  it('goes through a rescue step by step, then uploads the ECG and names it in a file message', () => {
    const at = start + 5 * HOUR
    const m = model([{ kind: 'rescue', at, shocks: 2 }])
    const out = m.advance(start + 6 * HOUR)
    const steps = ofType(out, 'usage')
    expect(steps.map((s) => s.data.event_desc)).toEqual([
      'power_on',
      'pads_on_patient',
      'analysis',
      'shock_advised',
      'shock_delivered',
      'cpr',
      'analysis',
      'shock_advised',
      'shock_delivered',
      'cpr',
      'power_off',
    ])
    const id = steps[0].data.rescue_event_id
    expect(steps.filter((s) => s.data.rescue_event_id !== id || s.data.event_time !== s.ts)).toEqual([])
    expect(steps[0].ts).toBe(at)
    const upload = out.find((o) => o.kind === 'upload')
    expect(upload).toMatchObject({ kind: 'upload', rescueEventId: id })
    expect(upload!.at).toBeGreaterThan(steps.at(-1)!.ts)
    expect((upload as { body: Buffer }).body.length).toBeGreaterThan(10_000)
    const file = m.fileMessage(upload!.at, id as string, 'ecg-abc')
    expect(file).toMatchObject({
      type: 'file',
      data: { rescue_event_id: id, kind: 'ecg', file_id: 'ecg-abc' },
    })
    expect(parseDeviceMessage(file).ok).toBe(true)
  })

  it('is used on a patient when told during the run (a responder brought it): the same steps as a rescue episode', () => {
    const at = start + 5 * HOUR
    const told = model()
    told.advance(start + 4 * HOUR)
    told.rescue(at, 1)
    const steps = ofType(told.advance(start + 6 * HOUR), 'usage')
    const planned = ofType(model([{ kind: 'rescue', at, shocks: 1 }]).advance(start + 6 * HOUR), 'usage')
    expect(steps.map((s) => [s.ts, s.data.event_desc])).toEqual(planned.map((s) => [s.ts, s.data.event_desc]))
    expect(steps[0]).toMatchObject({ ts: at, data: { event_desc: 'power_on' } })
    for (const s of steps) expect(parseDeviceMessage(s).ok).toBe(true)
    // Silent then: nothing is sent.
    const silent = model([{ kind: 'silent', from: start + HOUR, to: null }])
    silent.rescue(at, 1)
    expect(ofType(silent.advance(start + 6 * HOUR), 'usage')).toEqual([])
  })
  it('reports the pads it was given from then on', () => {
    const out = model([{ kind: 'pads', at: start, expire: '2026-11-10' }]).advance(start + 2 * DAY)
    const selftests = ofType(out, 'selftest')
    expect(selftests.length).toBeGreaterThan(0)
    expect(new Set(selftests.map((s) => s.data.electrode_sheet_expire))).toEqual(new Set(['2026-11-10']))
  })

  it('carries out commands: a self-test or a fix, then the ack; unknown ones fail', () => {
    const m = model()
    m.advance(start + HOUR)
    const t = start + 2 * HOUR
    const st = m.command(t, { cmd_id: 'c1', name: 'selftest', args: {} })
    expect(st.map((x) => x.type)).toEqual(['selftest', 'ack'])
    expect(st[0].data).toMatchObject({ report_type: 2, result: 'pass' })
    expect(st[1].data).toEqual({ cmd_id: 'c1', ok: true })
    const loc = m.command(t, { cmd_id: 'c2', name: 'locate' })
    expect(loc.map((x) => x.type)).toEqual(['location', 'ack'])
    expect(m.command(t, { cmd_id: 'c3', name: 'unlock' })[0].data).toMatchObject({ cmd_id: 'c3', ok: false })
    for (const x of [...st, ...loc]) expect(parseDeviceMessage(x).ok).toBe(true)
  })

  it('draws random episodes by their chances, inside the run', () => {
    const end = start + 5 * HOUR
    const rng = seededRng(7)
    const all = Array.from({ length: 2000 }, () => randomEpisodes(rng, start, end, LIVE_RATES, true)).flat()
    const count = (k: Episode['kind']) => all.filter((e) => e.kind === k).length
    expect(count('fault')).toBeGreaterThan(40)
    expect(count('fault')).toBeLessThan(130)
    expect(count('rescue')).toBeGreaterThan(5)
    for (const e of all) {
      const t = 'from' in e ? e.from : e.at
      expect(t).toBeGreaterThanOrEqual(start)
      expect(t).toBeLessThan(end)
    }
    expect(randomEpisodes(seededRng(1), start, end, LIVE_RATES, true)).toEqual(
      randomEpisodes(seededRng(1), start, end, LIVE_RATES, true),
    )
    expect(shanghaiDate(Date.parse('2026-11-01T17:00:00Z'))).toBe('2026-11-02')
    expect(scaledRates(10)).toMatchObject({ fault: 0.4, silent: 0.3 })
    expect(scaledRates(100).fault).toBe(1)
  })
})

describe('currentEpisodes', () => {
  // The profile above, elsewhere and without consumable dates.
  const noDates = { padsExpire: null, batteryExpire: null }
  const base = {
    ...profile,
    ...noDates,
    sn: 'A6400000001',
    fwVersion: 'V1',
    installation: { lat: 30.27, lon: 120.13 },
  }
  const start = Date.parse('2026-11-22T00:00:00Z')
  /** A device at the installation reporting hourly, living through `episodes`. */
  const hourly = (episodes: Episode[]) =>
    createDeviceModel(base, {
      start,
      boot: 1,
      seed: 9,
      heartbeatS: 3600,
      reportIntervalS: 3600,
      battery: 90,
      drainPerDay: 0.2,
      episodes,
    })
  it('goes on from the status the console shows: a fault keeps failing, an offset stays away, offline stays silent', () => {
    const kinds = (status: number) =>
      currentEpisodes({ ...base, status }, seededRng(3), start).map((e) => e.kind)
    expect(kinds(0)).toEqual([])
    expect(kinds(1)).toEqual([])
    expect(kinds(2)).toEqual(['fault'])
    expect(kinds(3)).toEqual(['away'])
    expect(kinds(4)).toEqual(['silent'])
    const [fault] = currentEpisodes({ ...base, status: 2 }, seededRng(3), start)
    expect(fault.kind === 'fault' && fault.from === start && fault.to! > start).toBe(true)
  })

  it('a faulty device fails its first self-test instead of healing', () => {
    const episodes = currentEpisodes({ ...base, status: 2 }, seededRng(5), start)
    const m = hourly(episodes)
    const first = m
      .advance(start + 30 * 3600_000)
      .find((o) => o.kind === 'message' && o.message.type === 'selftest')
    expect(first?.kind === 'message' && first.message.data.result).toBe('fail')
  })
  it('an offline device says nothing until its silence ends, then boots', () => {
    const episodes = currentEpisodes({ ...base, status: 4 }, seededRng(5), start)
    const silentUntil = episodes[0].kind === 'silent' ? (episodes[0].to as number) : 0
    const m = hourly(episodes)
    expect(m.advance(silentUntil - 1)).toEqual([])
    const after = m.advance(silentUntil + 3600_000)
    expect(after.some((o) => o.kind === 'message' && o.message.type === 'hello')).toBe(true)
  })
})
