import type { DeviceMessage } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import {
  type EngineInput,
  type EngineState,
  type Installation,
  initialState,
  type Rules,
  readinessOf,
  reduce,
  toGcj02,
  warningsFor,
} from './reducer.ts'

const T0 = new Date('2026-11-22T02:00:00Z')
const at = (min: number) => new Date(T0.getTime() + min * 60_000)
const today = '2026-11-22'
// An installation in Hangzhou (GCJ-02) and a WGS-84 fix right at it.
const installation: Installation = {
  lat: 30.2741,
  lon: 120.1307,
  location: '文三路100号',
  padsExpire: '2027-11-01',
  batteryExpire: '2027-11-01',
  hostExpire: '2030-01-01',
  safetyRadiusM: null,
}
const rules: Rules = { offsetKm: 1, padsReminderMonths: 1, batteryReminderMonths: 1 }
const ctx = { installation, rules, today }

let seq = 0
function msg<T extends DeviceMessage['type']>(type: T, data: Record<string, unknown>): DeviceMessage {
  return { v: 1, id: `m${++seq}`, seq, boot: 1, ts: T0.getTime(), type, data } as unknown as DeviceMessage
}
const input = (m: DeviceMessage, time = T0, stale = false): EngineInput => ({
  kind: 'message',
  message: m,
  time,
  stale,
})
/** A step of rescue `id` at minute `min`, received then. */
const step = (id: string, min: number, desc: string) =>
  input(msg('usage', { rescue_event_id: id, event_time: at(min).getTime(), event_desc: desc }), at(min))

/** A device that has passed a self-test (its readiness is known). */
const verified = (): EngineState => ({ ...initialState(), lastPassAt: new Date(T0.getTime() - 86400_000) })

/** Runs inputs in order from a state; answers the last output and every effect. */
function run(inputs: EngineInput[], from: EngineState = verified(), c: Parameters<typeof reduce>[2] = ctx) {
  let state = from
  const effects = []
  let last = reduce(state, { kind: 'recheck', time: T0 }, c)
  for (const i of inputs) {
    last = reduce(state, i, c)
    state = last.state
    effects.push(...last.effects)
  }
  return { ...last, all: effects }
}

const selftest = (result: 'pass' | 'fail', extra: Record<string, unknown> = {}) =>
  msg('selftest', { report_type: 1, result, fault_codes: [], ...extra })
const beat = (battery: number) => msg('heartbeat', { battery })
/** A WGS-84 fix `km` north of the installation. */
function fixNorth(km: number, extra: Record<string, unknown> = {}) {
  // Undo the GCJ-02 shift approximately: the shift near Hangzhou is what toGcj02 adds.
  const g = toGcj02(installation.lat, installation.lon)
  const lat = installation.lat - (g.lat - installation.lat) + km / 111.195
  const lon = installation.lon - (g.lon - installation.lon)
  return msg('location', { lat, lon, positioning_type: 'gps', accuracy_m: 10, ...extra })
}

describe('self-tests and faults', () => {
  it('a failed self-test is a detection record and opens a fault per code; a passed one closes them', () => {
    const failed = run([input(beat(90)), input(selftest('fail', { fault_codes: ['E02', 'E05'] }))])
    expect(failed.all.filter((e) => e.type === 'detection')).toHaveLength(1)
    expect(failed.state.open).toEqual([
      { kind: 'fault', code: 'E02' },
      { kind: 'fault', code: 'E05' },
    ])
    expect(failed.status).toBe(2)
    expect(failed.readiness).toBe('not_ready')
    expect(failed.reasons).toEqual(['fault'])
    const passed = reduce(failed.state, input(selftest('pass'), at(5)), ctx)
    expect(passed.effects.filter((e) => e.type === 'close').map((e) => 'code' in e && e.code)).toEqual([
      'E02',
      'E05',
    ])
    expect(passed.status).toBe(0)
    expect(passed.readiness).toBe('ready')
    expect(passed.state.lastPassAt).toEqual(at(5))
  })

  it('a failed self-test without codes opens the unspecified fault; a new code set replaces the old', () => {
    const a = run([input(selftest('fail'))])
    expect(a.state.open).toEqual([{ kind: 'fault', code: 'E00' }])
    const b = reduce(a.state, input(selftest('fail', { fault_codes: ['E07'] })), ctx)
    expect(b.effects.map((e) => e.type)).toEqual(['detection', 'close', 'open'])
    expect(b.state.open).toEqual([{ kind: 'fault', code: 'E07' }])
  })

  it('a self-test reporting new consumable dates moves the site and closes the expiry warning', () => {
    const near = { ...installation, padsExpire: '2026-12-10' }
    const warned = run([input(beat(80))], verified(), { ...ctx, installation: near })
    expect(warned.state.open).toEqual([{ kind: 'warning', code: 'pads_expiring' }])
    const fresh = reduce(warned.state, input(selftest('pass', { electrode_sheet_expire: '2028-06-01' })), {
      ...ctx,
      installation: near,
    })
    expect(fresh.effects).toContainEqual({
      type: 'installation_dates',
      padsExpire: '2028-06-01',
      batteryExpire: undefined,
    })
    expect(fresh.state.open).toEqual([])
  })

  it('an old (stale) self-test is recorded but changes nothing', () => {
    const ok = run([input(selftest('pass'))])
    const stale = reduce(ok.state, input(selftest('fail', { fault_codes: ['E01'] }), T0, true), ctx)
    expect(stale.effects.map((e) => e.type)).toEqual(['detection'])
    expect(stale.state.open).toEqual([])
  })
})

describe('consumables and battery', () => {
  it('warns within the reminder months, warns expired after the date, and not with reminders off', () => {
    const s = {
      ...installation,
      padsExpire: '2026-12-20',
      batteryExpire: '2026-11-21',
      hostExpire: '2026-11-01',
    }
    const w = warningsFor(s, 50, rules, today)
    expect([...w.keys()].sort()).toEqual(['battery_expired', 'host_expired', 'pads_expiring'])
    expect(w.get('pads_expiring')).toBe('电极片将于2026-12-20过期')
    expect([...warningsFor(s, 50, { ...rules, padsReminderMonths: 0 }, today).keys()]).not.toContain(
      'pads_expiring',
    )
    // Three months of reminder reach further.
    const far = { ...installation, padsExpire: '2027-02-15' }
    expect([...warningsFor(far, 50, rules, today).keys()]).toEqual([])
    expect([...warningsFor(far, 50, { ...rules, padsReminderMonths: 3 }, today).keys()]).toEqual([
      'pads_expiring',
    ])
  })

  it('battery: low at 9% and below, exhausted at 5% and below, each closing when charged', () => {
    expect([...warningsFor(null, 10, rules, today).keys()]).toEqual([])
    expect([...warningsFor(null, 9, rules, today).keys()]).toEqual(['battery_low'])
    expect([...warningsFor(null, 5, rules, today).keys()]).toEqual(['battery_exhausted'])
    const low = run([input(beat(4))])
    expect(low.status).toBe(1)
    expect(low.readiness).toBe('not_ready')
    expect(low.reasons).toEqual(['battery_exhausted'])
    const charged = reduce(low.state, input(beat(95), at(1)), ctx)
    expect(charged.effects).toContainEqual({
      type: 'close',
      kind: 'warning',
      code: 'battery_exhausted',
      time: at(1),
    })
    expect(charged.readiness).toBe('ready')
  })

  it('expired pads make the device not ready; expiring ones only warn', () => {
    const exp = run([input(beat(80))], verified(), {
      ...ctx,
      installation: { ...installation, padsExpire: '2026-11-01' },
    })
    expect([exp.status, exp.readiness, exp.reasons]).toEqual([1, 'not_ready', ['pads_expired']])
    const soon = run([input(beat(80))], verified(), {
      ...ctx,
      installation: { ...installation, padsExpire: '2026-12-01' },
    })
    expect([soon.status, soon.readiness]).toEqual([1, 'ready'])
  })

  it('"not returned" to its cabinet is a warning while the engine is told so; the device stays ready', () => {
    const out = run([input(beat(80))], verified(), { ...ctx, notReturned: 'CB001' })
    expect(out.state.open).toEqual([{ kind: 'warning', code: 'not_returned' }])
    expect(out.effects).toContainEqual(
      expect.objectContaining({ type: 'open', code: 'not_returned', content: 'AED未归还救护箱（CB001）' }),
    )
    expect([out.status, out.readiness]).toEqual([1, 'ready'])
    const back = reduce(out.state, { kind: 'recheck', time: at(5) }, ctx)
    expect(back.effects).toContainEqual({ type: 'close', kind: 'warning', code: 'not_returned', time: at(5) })
    expect(back.status).toBe(0)
  })

  it('a re-check opens date warnings for a device that never reported, readiness still unknown', () => {
    const r = reduce(
      initialState(),
      { kind: 'recheck', time: T0 },
      { ...ctx, installation: { ...installation, padsExpire: '2026-12-01' } },
    )
    expect(r.state.open).toEqual([{ kind: 'warning', code: 'pads_expiring' }])
    expect([r.readiness, r.reasons]).toEqual(['unknown', ['never_reported']])
  })
})

describe('position', () => {
  it('two GNSS fixes in a row beyond the threshold open an offset; one does not', () => {
    const one = run([input(beat(80)), input(fixNorth(3))])
    expect(one.state.open).toEqual([])
    expect(one.state.offsetStreak).toBe(1)
    const two = reduce(one.state, input(fixNorth(3), at(2)), ctx)
    const opened = two.effects.find((e) => e.type === 'open')
    expect(opened).toMatchObject({ kind: 'offset', time: at(2) })
    expect(opened && 'offset' in opened && opened.offset?.distanceM).toBeGreaterThan(2900)
    expect(opened && 'offset' in opened && opened.offset?.distanceM).toBeLessThan(3100)
    expect(two.status).toBe(3)
  })

  it('ignores LBS and Wi-Fi positions and imprecise fixes', () => {
    const r = run([
      input(fixNorth(5, { positioning_type: 'lbs' })),
      input(fixNorth(5, { positioning_type: 'wifi' })),
      input(fixNorth(5, { accuracy_m: 500 })),
      input(fixNorth(5, { accuracy_m: 500 })),
    ])
    expect(r.state.open).toEqual([])
    expect(r.state.offsetStreak).toBe(0)
  })

  it('a fix back in between does not close it (hysteresis); one well inside does', () => {
    const off = run([input(fixNorth(3)), input(fixNorth(3))])
    const edge = reduce(off.state, input(fixNorth(0.9)), ctx)
    expect(edge.state.open).toEqual([{ kind: 'offset', code: '' }])
    const home = reduce(edge.state, input(fixNorth(0.1), at(9)), ctx)
    expect(home.effects).toContainEqual({ type: 'close', kind: 'offset', code: '', time: at(9) })
  })

  it('the safety radius in metres wins over the organisation threshold; a switched-off check raises nothing', () => {
    const fenced = { ...ctx, installation: { ...installation, safetyRadiusM: 200 } }
    expect(run([input(fixNorth(0.5)), input(fixNorth(0.5))], initialState(), fenced).state.open).toEqual([
      { kind: 'offset', code: '' },
    ])
    const off = { ...ctx, rules: { ...rules, offsetKm: null } }
    expect(run([input(fixNorth(30)), input(fixNorth(30))], initialState(), off).state.open).toEqual([])
  })

  it('raises no offset while a rescue is under way', () => {
    const r = run([step('R1', 0, 'power_on'), input(fixNorth(3)), input(fixNorth(3))])
    expect(r.state.open).toEqual([])
    expect(r.readiness).toBe('not_ready')
    expect(r.reasons).toEqual(['in_use'])
  })
})

describe('connection', () => {
  it('a missed deadline opens offline: status 4 and readiness unknown; any message closes it', () => {
    const ok = run([input(beat(80))])
    const off = reduce(ok.state, { kind: 'deadline', time: at(200) }, ctx)
    expect(off.effects).toEqual([{ type: 'open', kind: 'offline', code: '', time: at(200), content: null }])
    expect([off.status, off.readiness, off.reasons]).toEqual([4, 'unknown', ['offline']])
    const back = reduce(off.state, input(msg('hello', { report_interval_s: 600 }), at(300)), ctx)
    expect(back.effects[0]).toEqual({ type: 'close', kind: 'offline', code: '', time: at(300) })
    expect(back.state.reportIntervalS).toBe(600)
    expect(back.status).toBe(0)
  })
})

describe('use', () => {
  it('the first step of a new rescue starts it, steps are logged, power off or an hour of quiet ends it', () => {
    const r = run([step('R1', 0, 'power_on'), step('R1', 1, 'shock_delivered')])
    expect(r.all.filter((e) => e.type === 'rescue_start')).toHaveLength(1)
    expect(r.all.filter((e) => e.type === 'usage')).toHaveLength(2)
    const off = reduce(r.state, step('R1', 9, 'power_off'), ctx)
    expect(off.effects.map((e) => e.type)).toEqual(['usage', 'rescue_end'])
    expect(off.state.rescue).toBeNull()
    const quiet = reduce(r.state, input(beat(80), at(70)), ctx)
    expect(quiet.effects[0]).toEqual({ type: 'rescue_end', rescueEventId: 'R1', time: at(1) })
    expect(quiet.readiness).toBe('ready')
  })

  it('a new rescue id ends the previous rescue and starts another', () => {
    const r = run([step('R1', 0, 'power_on'), step('R2', 5, 'power_on')])
    expect(r.all.map((e) => e.type)).toEqual(['rescue_start', 'usage', 'rescue_end', 'rescue_start', 'usage'])
    expect(r.state.rescue?.rescueEventId).toBe('R2')
  })
})

describe('status priority and readiness', () => {
  const base = { ...initialState(), reported: true }
  const withOpen = (...open: [string, string][]) =>
    reduce(
      { ...base, open: open.map(([kind, code]) => ({ kind, code }) as never) },
      { kind: 'recheck', time: T0 },
      ctx,
    )

  it('fault 2 over offset 3 over offline 4 over warning 1 over normal 0', () => {
    expect(
      withOpen(['warning', 'battery_low'], ['offline', ''], ['offset', ''], ['fault', 'E01']).status,
    ).toBe(2)
    expect(withOpen(['offline', ''], ['offset', '']).status).toBe(3)
    expect(withOpen(['warning', 'battery_low'], ['offline', '']).status).toBe(4)
    expect(
      reduce({ ...base, battery: 7 }, { kind: 'recheck', time: T0 }, { ...ctx, installation: null }).status,
    ).toBe(1)
    expect(withOpen().status).toBe(0)
  })

  it('offline makes readiness unknown and keeps the other reasons after it', () => {
    expect(
      readinessOf({
        ...base,
        open: [
          { kind: 'offline', code: '' },
          { kind: 'fault', code: 'E01' },
        ],
      }),
    ).toEqual({
      readiness: 'unknown',
      reasons: ['offline', 'fault'],
    })
    expect(readinessOf(initialState())).toEqual({ readiness: 'unknown', reasons: ['never_reported'] })
    // Reported, nothing wrong, but no self-test has passed yet: nobody knows it works.
    const hello = run([input(msg('hello', { report_interval_s: 3600 }))], initialState())
    expect([hello.readiness, hello.reasons]).toEqual(['unknown', ['never_verified']])
    const failed = run([input(selftest('fail', { fault_codes: ['E02'] }))], initialState())
    expect([failed.readiness, failed.reasons]).toEqual(['not_ready', ['fault']])
    const passed = run([input(selftest('pass'))], initialState())
    expect([passed.readiness, passed.reasons]).toEqual(['ready', []])
  })
})

describe('toGcj02 (WGS-84 to GCJ-02)', () => {
  // The reference algorithm (the Krasovsky 1940 ellipsoid, a = 6378245, e² = 0.00669342162296594323,
  // with the published transformlat/transformlng polynomials of x = lon - 105, y = lat - 35):
  //   dLat = transformlat(x, y) · 180 / (a(1 - e²) / ((1 - e² sin²φ)^1.5) · π)
  //   dLon = transformlng(x, y) · 180 / (a / √(1 - e² sin²φ) · cos φ · π)
  // GCJ-02 = WGS-84 + (dLon, dLat) inside China; a point outside China is left as it is.
  const close = (got: { lat: number; lon: number }, want: { lat: number; lon: number }) => {
    expect(Math.abs(got.lat - want.lat)).toBeLessThan(1e-6)
    expect(Math.abs(got.lon - want.lon)).toBeLessThan(1e-6)
  }

  it('matches the published pair of wandergis/coordtransform: WGS-84 (116.404, 39.915)', () => {
    // https://github.com/wandergis/coordtransform, test/app.js:
    // wgs84togcj02(116.404, 39.915) → [116.41024449916938, 39.91640428150164] (lon, lat).
    close(toGcj02(39.915, 116.404), { lat: 39.91640428150164, lon: 116.41024449916938 })
  })

  it('moves Tiananmen, WGS-84 (116.397128, 39.916527), by the reference algorithm’s shift', () => {
    // Computed for this test with the reference algorithm above (double precision, outside this
    // code base): (116.40337249402477, 39.91793074924595); about 533 m east and 156 m north.
    close(toGcj02(39.916527, 116.397128), { lat: 39.91793074924595, lon: 116.40337249402477 })
  })

  it('leaves a point outside China as it is (London)', () => {
    expect(toGcj02(51.5074, -0.1278)).toEqual({ lat: 51.5074, lon: -0.1278 })
  })
})
