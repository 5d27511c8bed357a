import type { AlertRole } from '@aed/contracts/dispatch'
import { metres, type Point } from '../../modules/dispatch/dispatch.rules.ts'
import { displaced, type Rng } from './model.ts'

// Emergency calls and the responders' phones as a pure, seeded model: when calls come (at a
// rate, near the network's AEDs), and what an alerted phone does with its link: opens it after
// a while, accepts (about 70%, Heartrunner's share) or declines, then walks at about 2.3 m/s by
// the AED (role aed) to the patient, sharing its position every 15 s, and reports arriving. No
// clock, no I/O: model moments in, steps out; tools/fleet/calls.ts carries them out.

export type { Point }

const HOUR = 3600_000

/** Walking speed, metres a second (Heartrunner's median; DISPATCH_DEFAULTS.dispatch_speed_mps). */
export const WALK_MPS = 2.3
/** How often an accepted phone shares its position, model seconds (the alert page's cadence). */
export const LOCATION_EVERY_S = 15
/** The share of alerts accepted (Heartrunner). */
export const ACCEPT_SHARE = 0.7
/** How far from its AED a call may be, metres. */
export const CALL_NEAR_M = 300
/** Seconds after the AED reaches the patient that it is switched on (pads, analysis). */
export const RESCUE_AFTER_S = 60

/** Moments of calls in [from, to): a Poisson process of `perHour` calls an hour of model time. */
export function callTimes(rng: Rng, from: number, to: number, perHour: number): number[] {
  const out: number[] = []
  if (!(perHour > 0)) return out
  for (let t = from; ; ) {
    t += (-Math.log(1 - rng.next()) / perHour) * HOUR
    if (t >= to) return out
    out.push(Math.round(t))
  }
}

/** A point within `maxM` metres of `p`, uniform over the disc, to six decimals. */
export function pointNear(rng: Rng, p: Point, maxM: number): Point {
  const r = maxM * Math.sqrt(rng.next())
  const q = displaced(p.lat, p.lon, r / 1000, rng.between(0, 360))
  return { lat: Number(q.lat.toFixed(6)), lon: Number(q.lon.toFixed(6)) }
}

/** An AED of the network a call may come from near: where it is, and its place in words. */
export type CallSite = Point & { sn: string; location: string }

const WHAT_HAPPENED = [
  '路人突然倒地，呼之不应，无正常呼吸',
  '老人在公园晨练时晕倒，无意识',
  '男子打球时倒地抽搐，随后无反应',
  '顾客在商场内突然倒地，面色发紫',
  '家属发现患者胸痛后昏迷，呼吸微弱',
  '乘客在地铁站台晕倒，无脉搏',
] as const

/** A call near a site, as the 登记呼救 form and the open API take it (GCJ-02). */
export function callNear(rng: Rng, site: CallSite) {
  const at = pointNear(rng, site, CALL_NEAR_M)
  return {
    phone: `1${rng.pick(['35', '37', '38', '39', '58', '86', '88'])}${String(rng.int(0, 99_999_999)).padStart(8, '0')}`,
    ...at,
    location: `${site.location}附近`.slice(0, 200),
    description: `模拟呼救：${rng.pick(WHAT_HAPPENED)}`,
    /** Metres from the site. */
    fromSite: Math.round(metres(at, site)),
  }
}

/** What one alerted person will do: drawn when the SMS arrives, before the link is opened. */
export type PhonePlan = {
  /** Model seconds from the SMS to opening the link (10-40). */
  openS: number
  /** Model seconds reading the alert before answering (5-20). */
  readS: number
  accept: boolean
  /** This person's walking speed (2.3 m/s ± 15%). */
  speedMps: number
  /** Model seconds at the AED: finding it, opening the cabinet, taking it out (20-60). */
  pickupS: number
}

export function phonePlan(rng: Rng, acceptShare = ACCEPT_SHARE): PhonePlan {
  return {
    openS: rng.between(10, 40),
    readS: rng.between(5, 20),
    accept: rng.chance(acceptShare),
    speedMps: WALK_MPS * rng.between(0.85, 1.15),
    pickupS: rng.between(20, 60),
  }
}

/** A stop of a walk: the AED to fetch, or the patient. */
export type Stop = Point & { kind: 'aed' | 'patient' }

/** One stretch of a walk, its times in model seconds after setting off. */
export type Leg = { from: Point; to: Stop; metres: number; departS: number; arriveS: number }

/** A walk from a start by its stops, at a speed, pausing at an AED to take it. */
export type Walk = { start: Point; legs: Leg[]; totalS: number; metres: number }

export function walkOf(start: Point, stops: Stop[], speedMps: number, pickupS: number): Walk {
  const legs: Leg[] = []
  let from: Point = start
  let t = 0
  let total = 0
  for (const to of stops) {
    const m = metres(from, to)
    legs.push({ from, to, metres: m, departS: t, arriveS: t + m / speedMps })
    t += m / speedMps + (to.kind === 'aed' ? pickupS : 0)
    total += m
    from = to
  }
  const last = legs.at(-1)
  return { start, legs, totalS: last ? last.arriveS : 0, metres: total }
}

/** Where a walk is `s` seconds after setting off (at a stop while pausing there, at the end after it). */
export function positionAt(w: Walk, s: number): Point {
  let at: Point = w.start
  for (const leg of w.legs) {
    if (s < leg.departS) return at
    if (s < leg.arriveS) {
      const f = (s - leg.departS) / (leg.arriveS - leg.departS)
      return {
        lat: leg.from.lat + (leg.to.lat - leg.from.lat) * f,
        lon: leg.from.lon + (leg.to.lon - leg.from.lon) * f,
      }
    }
    at = { lat: leg.to.lat, lon: leg.to.lon }
  }
  return at
}

/** The alert as the phone reads it: the role, the patient, the AED to fetch, the way's length. */
export type AlertSeen = { role: AlertRole; call: Point; aed: Point | null; distance: number }

/** The stops of an alert: the AED first for role aed, then the patient. */
export function stopsOf(a: AlertSeen): Stop[] {
  const patient: Stop = { lat: a.call.lat, lon: a.call.lon, kind: 'patient' }
  return a.role === 'aed' && a.aed ? [{ lat: a.aed.lat, lon: a.aed.lon, kind: 'aed' }, patient] : [patient]
}

/**
 * Where a phone starts when its holder's place is not known: the alert's way length from the
 * patient (or, for role aed, what is left of it once the AED's way to the patient is taken off,
 * from the AED), in a random direction.
 */
export function startFor(rng: Rng, a: AlertSeen): Point {
  const bearing = rng.between(0, 360)
  if (a.role === 'aed' && a.aed) {
    const left = Math.max(0, a.distance - metres(a.aed, a.call))
    return displaced(a.aed.lat, a.aed.lon, left / 1000, bearing)
  }
  return displaced(a.call.lat, a.call.lon, a.distance / 1000, bearing)
}

/** What a phone does after opening its link, at model moments (Unix ms). */
export type PhoneStep =
  | { at: number; kind: 'answer'; accept: boolean }
  | { at: number; kind: 'location'; point: Point }
  | { at: number; kind: 'at_aed'; point: Point }
  | { at: number; kind: 'arrived'; point: Point }

/**
 * The steps after the link was opened at `openedAt`: the answer after reading; when accepting,
 * the position at setting off and every LOCATION_EVERY_S seconds, the AED taken (role aed), the
 * last position at the patient and the arrival. In time order.
 */
export function phoneSteps(plan: PhonePlan, openedAt: number, walk: Walk): PhoneStep[] {
  const answeredAt = openedAt + Math.round(plan.readS * 1000)
  const steps: PhoneStep[] = [{ at: answeredAt, kind: 'answer', accept: plan.accept }]
  if (!plan.accept) return steps
  const at = (s: number) => answeredAt + Math.round(s * 1000)
  for (let s = 0; s < walk.totalS; s += LOCATION_EVERY_S) {
    steps.push({ at: at(s), kind: 'location', point: positionAt(walk, s) })
  }
  for (const leg of walk.legs) {
    if (leg.to.kind === 'aed') steps.push({ at: at(leg.arriveS), kind: 'at_aed', point: leg.to })
  }
  const end = positionAt(walk, walk.totalS)
  steps.push({ at: at(walk.totalS), kind: 'location', point: end })
  steps.push({ at: at(walk.totalS), kind: 'arrived', point: end })
  // Stable: at one moment the order above stands (the last position before the arrival).
  return steps
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.at - b.s.at || a.i - b.i)
    .map((x) => x.s)
}

/** A duration in model seconds as people say it: 45 s, 3 min 20 s. */
export function took(seconds: number) {
  const s = Math.round(seconds)
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
}
