import { describe, expect, it } from 'vitest'
import { metres } from '../../modules/dispatch/dispatch.rules.ts'
import {
  ACCEPT_SHARE,
  CALL_NEAR_M,
  callNear,
  callTimes,
  LOCATION_EVERY_S,
  type PhonePlan,
  phonePlan,
  phoneSteps,
  pointNear,
  positionAt,
  startFor,
  stopsOf,
  took,
  WALK_MPS,
  walkOf,
} from './call-model.ts'
import { displaced, seededRng } from './model.ts'

const HOUR = 3600_000
const start = Date.parse('2026-11-01T02:00:00.000Z')
const patient = { lat: 30.2741, lon: 120.1551 }
/** A point `m` metres from the patient toward `bearing`. */
const from = (m: number, bearing: number) => displaced(patient.lat, patient.lon, m / 1000, bearing)

describe('calls', () => {
  it('come at the rate, in order, within the run', () => {
    const rng = seededRng(1)
    const times = callTimes(rng, start, start + 200 * HOUR, 30)
    // A Poisson process: 6000 expected, within four standard deviations (√6000 ≈ 77).
    expect(Math.abs(times.length - 6000)).toBeLessThan(310)
    expect(times.every((t, i) => i === 0 || t >= times[i - 1])).toBe(true)
    expect(times[0]).toBeGreaterThanOrEqual(start)
    expect(times.at(-1)!).toBeLessThan(start + 200 * HOUR)
    expect(callTimes(seededRng(1), start, start + HOUR, 0)).toEqual([])
    expect(callTimes(seededRng(2), start, start + HOUR, 30)).toEqual(
      callTimes(seededRng(2), start, start + HOUR, 30),
    )
  })

  it('are placed within 300 m of their AED, spread over the disc, as the form takes them', () => {
    const rng = seededRng(3)
    const site = { ...patient, sn: 'M10241001', location: '浙江省杭州市西湖区湖滨路1号' }
    const ds = Array.from({ length: 2000 }, () => metres(pointNear(rng, site, CALL_NEAR_M), site))
    expect(Math.max(...ds)).toBeLessThanOrEqual(CALL_NEAR_M + 1)
    // Uniform over the disc: a quarter of the points within half the radius.
    const inner = ds.filter((d) => d < CALL_NEAR_M / 2).length / ds.length
    expect(inner).toBeGreaterThan(0.2)
    expect(inner).toBeLessThan(0.3)
    const c = callNear(rng, site)
    expect(c.phone).toMatch(/^1[3-9]\d{9}$/)
    expect(c.location).toBe('浙江省杭州市西湖区湖滨路1号附近')
    expect(c.description).toMatch(/^模拟呼救：/)
    expect(c.fromSite).toBe(Math.round(metres(c, site)))
    expect(String(c.lat).split('.')[1].length).toBeLessThanOrEqual(6)
  })
})

describe('a responder’s phone', () => {
  it('opens its link after 10-40 s, answers 5-20 s later, accepts about 70% and walks about 2.3 m/s', () => {
    const rng = seededRng(4)
    const plans = Array.from({ length: 4000 }, () => phonePlan(rng))
    for (const p of plans) {
      expect(p.openS).toBeGreaterThanOrEqual(10)
      expect(p.openS).toBeLessThan(40)
      expect(p.readS).toBeGreaterThanOrEqual(5)
      expect(p.readS).toBeLessThan(20)
      expect(p.speedMps).toBeGreaterThanOrEqual(WALK_MPS * 0.85)
      expect(p.speedMps).toBeLessThan(WALK_MPS * 1.15)
    }
    const accepted = plans.filter((p) => p.accept).length / plans.length
    expect(Math.abs(accepted - ACCEPT_SHARE)).toBeLessThan(0.03)
    // Nobody accepts at a share of 0, everybody at 1.
    const never = seededRng(9)
    expect(Array.from({ length: 100 }, () => phonePlan(never, 0).accept)).not.toContain(true)
    expect(Array.from({ length: 100 }, () => phonePlan(never, 1).accept)).not.toContain(false)
    const mean = plans.reduce((s, p) => s + p.speedMps, 0) / plans.length
    expect(Math.abs(mean - WALK_MPS)).toBeLessThan(0.02)
  })

  it('goes by the AED for role aed, else straight to the patient', () => {
    const aed = from(200, 90)
    expect(stopsOf({ role: 'aed', call: patient, aed, distance: 700 }).map((s) => s.kind)).toEqual([
      'aed',
      'patient',
    ])
    expect(stopsOf({ role: 'patient', call: patient, aed: null, distance: 400 })).toEqual([
      { ...patient, kind: 'patient' },
    ])
    // An aed alert without its AED (no longer ready): straight there.
    expect(stopsOf({ role: 'aed', call: patient, aed: null, distance: 400 })).toHaveLength(1)
  })

  it('starts, when its place is unknown, as far away as the alert says', () => {
    const rng = seededRng(5)
    const aed = from(200, 90)
    for (let i = 0; i < 20; i++) {
      const s = startFor(rng, { role: 'patient', call: patient, aed: null, distance: 450 })
      expect(metres(s, patient)).toBeCloseTo(450, -1)
      const viaAed = startFor(rng, { role: 'aed', call: patient, aed, distance: 700 })
      // 700 m by the AED: 500 m to it, 200 m from it to the patient.
      expect(metres(viaAed, aed)).toBeCloseTo(700 - metres(aed, patient), -1)
    }
  })

  it('walks its legs at its speed, pausing at the AED, and is where the clock says', () => {
    const aed = { ...from(300, 0), kind: 'aed' as const }
    const home = from(700, 0)
    const w = walkOf(home, [aed, { ...patient, kind: 'patient' }], 2, 30)
    expect(w.legs).toHaveLength(2)
    expect(w.metres).toBeCloseTo(700, -1)
    expect(w.legs[0].arriveS).toBeCloseTo(200, 0)
    expect(w.legs[1].departS).toBeCloseTo(230, 0)
    expect(w.totalS).toBeCloseTo(380, 0)
    expect(positionAt(w, 0)).toEqual(home)
    expect(metres(positionAt(w, 100), aed)).toBeCloseTo(200, -1)
    // At the AED while taking it out.
    expect(metres(positionAt(w, 215), aed)).toBeLessThan(0.01)
    expect(metres(positionAt(w, 305), patient)).toBeCloseTo(150, -1)
    expect(positionAt(w, 10_000)).toEqual({ lat: patient.lat, lon: patient.lon })
  })

  const plan = (over: Partial<PhonePlan> = {}): PhonePlan => ({
    openS: 20,
    readS: 10,
    accept: true,
    speedMps: 2.3,
    pickupS: 30,
    ...over,
  })

  it('declining: one answer and nothing more', () => {
    const w = walkOf(from(500, 0), [{ ...patient, kind: 'patient' }], 2.3, 30)
    expect(phoneSteps(plan({ accept: false }), start, w)).toEqual([
      { at: start + 10_000, kind: 'answer', accept: false },
    ])
  })

  it('accepting: the answer, a position every 15 s from setting off, the AED taken, the last position and arriving', () => {
    const aed = { ...from(300, 0), kind: 'aed' as const }
    const w = walkOf(from(700, 0), [aed, { ...patient, kind: 'patient' }], 2, 30)
    const steps = phoneSteps(plan(), start, w)
    const answered = start + 10_000
    expect(steps[0]).toEqual({ at: answered, kind: 'answer', accept: true })
    for (let i = 1; i < steps.length; i++) expect(steps[i].at).toBeGreaterThanOrEqual(steps[i - 1].at)
    const located = steps.filter((s) => s.kind === 'location')
    expect(located[0].at).toBe(answered)
    for (let i = 1; i < located.length - 1; i++)
      expect(located[i].at - located[i - 1].at).toBe(LOCATION_EVERY_S * 1000)
    // 380 s of walking: positions at 0, 15, ..., 375 s and at the end.
    expect(located).toHaveLength(Math.ceil(380 / LOCATION_EVERY_S) + 1)
    // (displaced() counts 111.32 km a degree, metres() the mean sphere: within a second.)
    const atAed = steps.find((s) => s.kind === 'at_aed')!
    expect(Math.abs(atAed.at - (answered + 200_000))).toBeLessThan(1000)
    const [last, arrived] = steps.slice(-2)
    expect(last.kind).toBe('location')
    expect(arrived.kind).toBe('arrived')
    expect(last.at).toBe(arrived.at)
    expect(Math.abs(arrived.at - (answered + 380_000))).toBeLessThan(1000)
    if (arrived.kind === 'arrived') expect(metres(arrived.point, patient)).toBeLessThan(0.01)
  })

  it('says durations as people do', () => {
    expect(took(45.4)).toBe('45 s')
    expect(took(60)).toBe('1 min')
    expect(took(200)).toBe('3 min 20 s')
  })
})
