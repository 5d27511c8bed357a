import type { CallDetail } from '@aed/contracts/call'
import type { DevSms } from '@aed/contracts/dev-sms'
import { DISPATCH_DEFAULTS, type ResponderAlert } from '@aed/contracts/dispatch'
import { maskPhone } from '@aed/contracts/mask'
import { ApiError, type CallsApi, type PlacedCall } from './call-api.ts'
import {
  type AlertSeen,
  type CallSite,
  callNear,
  callTimes,
  type PhonePlan,
  type PhoneStep,
  type Point,
  phonePlan,
  phoneSteps,
  RESCUE_AFTER_S,
  startFor,
  stopsOf,
  took,
  type Walk,
  walkOf,
} from './call-model.ts'
import { seededRng, toWgs84 } from './model.ts'
import type { Companion, FleetControl } from './runner.ts'

// Emergency calls and the responders' phones beside the simulated fleet, on its model clock:
// calls at a rate near the network's AEDs, recorded through the console's API (or the open
// API); the alert SMS read back from the development server's outbox (DEV_SMS_OUTBOX), and for
// each link a phone that opens it, answers, walks by its AED to the patient sharing its
// position, and reports arriving; an AED brought to the patient is switched on a minute later
// (its rescue links to the call); the dispatcher closes each call once its responders are there.
// The server keeps its own clock: its answer deadlines and phases run in real time.

export type CallsOptions = {
  /** Calls an hour of model time; 0 for none. */
  perHour: number
  /** Drive the alerted responders' phones (needs the server's DEV_SMS_OUTBOX). */
  responders: boolean
  seed: number
  /** Share of alerts accepted (0.7). */
  acceptShare: number
  /** Share of calls where the first AED brought to the patient is used on them (a rescue). */
  rescueShare: number
  /** Model minutes after a call that its dispatcher closes it (later while responders are on their way); 0: never. */
  closeMin: number
  /** Real milliseconds between reads of the SMS outbox (500), and at least between reads of a call (10 000). */
  pollMs?: number
  readEveryMs?: number
  log?: (line: string) => void
}

export type CallStats = ReturnType<typeof createCallStats>

export function createCallStats() {
  return {
    placed: 0,
    refused: 0,
    closed: 0,
    /** Alert SMS with a link, and the notices without one (stood down, call closed). */
    alerts: 0,
    notices: 0,
    opened: 0,
    accepted: 0,
    declined: 0,
    /** Phones stopped by the server: stood down before answering, or the call closed while walking. */
    ended: 0,
    arrived: 0,
    arrivedWithAed: 0,
    positions: 0,
    rescues: 0,
    notDriven: 0,
    linked: 0,
    errors: 0,
  }
}

/** A call the simulator follows: one it placed, or one it learned of from an alert (placed by someone else). */
type Followed = {
  id: number | null
  placed: PlacedCall | null
  /** Model moment it was placed (or first seen). */
  at: number
  point: Point
  /** Whether the first AED brought to the patient is used. */
  useAed: boolean
  rescue: { sn: string; at: number } | null
  linked: boolean
  closed: boolean
  detail: CallDetail | null
  /** Real ms of the last detail read, and the read under way (phones opening at once share it). */
  readAt: number
  reading: Promise<CallDetail> | null
  busy: boolean
  /** What the log said of its alerts: the first wave, and how many since. */
  logged: { first: boolean; alerts: number }
}

type Phone = {
  token: string
  alertId: number
  phone: string
  plan: PhonePlan
  rng: ReturnType<typeof seededRng>
  receivedAt: number
  openAt: number
  state: 'waiting' | 'walking' | 'done'
  steps: PhoneStep[]
  busy: boolean
  call: Followed | null
  role: ResponderAlert['role'] | null
  aedSn: string | null
  walk: Walk | null
  answeredAt: number
  /** Real ms of the last position shared. */
  locatedAt: number
}

/**
 * Real time a dispatch takes to widen to its last radius (the published defaults: 60 s a phase,
 * three radii): a call is not closed before it unless enough responders accepted.
 */
const SETTLE_MS = DISPATCH_DEFAULTS.dispatch_phase_s * DISPATCH_DEFAULTS.dispatch_radii_m.length * 1000

const keyOf = (p: Point) => `${p.lat.toFixed(6)},${p.lon.toFixed(6)}`
const LINK = /\/rescue\/([A-Za-z0-9_-]{43})/

/**
 * Sets up the calls and phones: `companion` starts them on the fleet's clock (runFleet calls it)
 * and answers how to stop; `stats` counts what happened; `ready` checks the server first.
 */
export function createCalls(api: CallsApi, sites: CallSite[], o: CallsOptions) {
  const log = o.log ?? ((line: string) => console.log(line))
  const stats = createCallStats()
  const rng = seededRng(o.seed * 7_919 + 17)
  const followed = new Map<string, Followed>()
  /** Calls placed elsewhere being looked up, by place. */
  const looking = new Map<string, Promise<Followed>>()
  const phones: Phone[] = []
  const inflight = new Set<Promise<unknown>>()
  let homes = new Map<number, Point>()
  let cursor = 0
  const pendingSince = new Map<number, number>()
  let errorsLogged = 0
  const fail = (what: string, e: unknown) => {
    stats.errors++
    if (errorsLogged++ < 20) log(`calls: ${what}: ${e instanceof Error ? e.message : e}`)
  }
  const track = <T>(p: Promise<T>) => {
    inflight.add(p)
    p.finally(() => inflight.delete(p)).catch(() => {})
    return p
  }
  const label = (c: Followed | null) => (c?.id ? `call #${c.id}` : 'call ?')

  /** Checks the server answers what the options need; then starts reading the outbox after its newest SMS. */
  async function ready() {
    if (!o.responders) return
    try {
      for (;;) {
        const rows = await api.sms(cursor, 500)
        if (rows.length === 0) break
        cursor = rows[rows.length - 1].id
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 404)
        throw new Error(
          '--responders: the server does not answer GET /api/v1/dev/sms; start it with DEV_SMS_OUTBOX=1 (and the local SMS provider)',
        )
      throw e
    }
    homes = await api.homes()
  }

  function companion(fleet: FleetControl): Companion {
    const boot = Math.floor(fleet.simStart / 1000)
    const due = callTimes(rng, fleet.simStart, fleet.simEnd, o.perHour).map((at, i) => {
      const site = rng.pick(sites)
      return {
        at,
        site,
        form: callNear(rng, site),
        useAed: rng.chance(o.rescueShare),
        externalId: `sim-${boot}-${i + 1}`,
      }
    })
    /** A call's detail is a heavy read: at most every 10 real seconds per call. */
    const readEveryMs = o.readEveryMs ?? 10_000
    /** A phone shares its position at most this often in real time (at high speeds 15 model seconds pass in a blink). */
    const locateEveryMs = 1000

    async function place(c: (typeof due)[number]) {
      const f: Followed = {
        id: null,
        placed: null,
        at: c.at,
        point: c.form,
        useAed: c.useAed,
        rescue: null,
        linked: false,
        closed: false,
        detail: null,
        readAt: 0,
        reading: null,
        busy: false,
        logged: { first: false, alerts: 0 },
      }
      // Known before the request: an alert may be read before the answer comes.
      followed.set(keyOf(c.form), f)
      const { fromSite, ...form } = c.form
      try {
        f.placed = await api.place(form, c.externalId)
        f.id = f.placed.id
        stats.placed++
        log(
          `call #${f.id} placed (${api.via}): ${form.lat}, ${form.lon}, ${fromSite} m from ${c.site.sn} at ${c.site.location}`,
        )
      } catch (e) {
        stats.refused++
        f.closed = true
        fail('placing a call', e)
      }
    }

    /** A call's detail, read once however many ask at the same time. */
    function read(f: Followed): Promise<CallDetail> {
      f.reading ??= api
        .detail(f.id!)
        .then((d) => {
          f.detail = d
          f.readAt = Date.now()
          return d
        })
        .finally(() => {
          f.reading = null
        })
      return f.reading
    }

    /**
     * Whether to read a call the run placed now: its first wave a few seconds after it came in,
     * then only while it may be closed or its rescue is to be linked (a detail is a heavy read).
     */
    function readDue(f: Followed, now: number) {
      if (!f.placed || f.closed || f.busy || Date.now() - f.readAt < readEveryMs) return false
      if (!f.logged.first) return Date.now() - fleet.real(f.at) >= readEveryMs / 2
      if (o.closeMin > 0 && now >= f.at + o.closeMin * 60_000) return true
      return f.rescue !== null && !f.linked && Date.now() >= fleet.real(f.rescue.at) + 10_000
    }

    /** Reads a call's detail; logs its dispatch, its linked rescue; closes it when its time came. */
    async function follow(f: Followed) {
      if (f.id === null) return
      f.busy = true
      try {
        const d = await read(f)
        const alerts = d.dispatch?.alerts ?? []
        if (alerts.length > f.logged.alerts || !f.logged.first) {
          const byAed = alerts.filter((a) => a.role === 'aed').length
          const radius = d.dispatch ? `, radius ${d.dispatch.radius} m` : ''
          log(
            alerts.length === 0
              ? `${label(f)}: nobody alerted yet${radius}`
              : `${label(f)}: ${alerts.length} responder${alerts.length === 1 ? '' : 's'} alerted (${byAed} by an AED)${radius}`,
          )
          f.logged = { first: true, alerts: alerts.length }
        }
        if (d.rescue && !f.linked) {
          f.linked = true
          stats.linked++
          log(
            `${label(f)}: rescue of ${d.rescue.device_sn} linked (${d.rescue.distance ?? '?'} m from the call)`,
          )
        }
        if (d.status !== 1) {
          f.closed = true
          log(`${label(f)}: closed by the server or someone else (${d.outcome ?? 'no outcome'})`)
          return
        }
        if (f.placed && o.closeMin > 0) await maybeClose(f, d)
      } catch (e) {
        fail(`reading ${label(f)}`, e)
      } finally {
        f.busy = false
      }
    }

    /**
     * The dispatcher hands over to the ambulance: once the call's time came (model time) and its
     * dispatch had its chance (real time: the server widens the radius phase by phase, on its
     * own clock), no responder still on the way or yet to answer, and its rescue linked.
     */
    async function maybeClose(f: Followed, d: CallDetail) {
      const now = fleet.simNow()
      const closeAt = f.at + o.closeMin * 60_000
      const realAge = Date.now() - fleet.real(f.at)
      if (now < closeAt) return
      if (d.dispatch?.state === 'running' && realAge < SETTLE_MS) return
      const waiting = (d.dispatch?.alerts ?? []).some((a) => a.state === 'accepted' || a.state === 'alerted')
      if (waiting && (now < closeAt + o.closeMin * 60_000 || realAge < 2 * SETTLE_MS)) return
      // A rescue under way links within the server's next link job (10 s).
      if (f.rescue && !f.linked && Date.now() < fleet.real(f.rescue.at) + 60_000) return
      const outcome = f.linked ? 'aed_used' : 'no_aed_needed'
      await api.close(f.placed!, { outcome, remark: '模拟：已交接给120' })
      f.closed = true
      stats.closed++
      log(`${label(f)} closed after ${took((now - f.at) / 1000)}: ${summary(d)} → ${outcome}`)
    }

    async function readSms() {
      const rows = await api.sms(cursor, 200)
      for (const r of rows) {
        // Not sent yet: the phone has not had it. Read again next time (not for ever).
        if (r.status === 'pending') {
          const since = pendingSince.get(r.id) ?? Date.now()
          pendingSince.set(r.id, since)
          if (Date.now() - since < 15_000) break
        }
        pendingSince.delete(r.id)
        cursor = r.id
        received(r)
      }
    }

    function received(sms: DevSms) {
      if (sms.kind !== 'dispatch') return
      const link = LINK.exec(sms.content)
      const alertId = Number(/^dispatch:(\d+)$/.exec(sms.key ?? '')?.[1])
      if (!link || !alertId) {
        stats.notices++
        return
      }
      stats.alerts++
      const pRng = seededRng(o.seed * 1_000_003 + alertId)
      const plan = phonePlan(pRng, o.acceptShare)
      const now = fleet.simNow()
      phones.push({
        token: link[1],
        alertId,
        phone: maskPhone(sms.phone) ?? sms.phone,
        plan,
        rng: pRng,
        receivedAt: now,
        openAt: now + Math.round(plan.openS * 1000),
        state: 'waiting',
        steps: [],
        busy: false,
        call: null,
        role: null,
        aedSn: null,
        walk: null,
        answeredAt: 0,
        locatedAt: 0,
      })
    }

    /** The call an alert is about: one followed, else an open call of the scope at that place. */
    async function callOf(a: ResponderAlert): Promise<Followed> {
      const key = keyOf(a.call)
      const known = followed.get(key)
      if (known) return known
      // Its other phones opening meanwhile wait for the same lookup.
      let finding = looking.get(key)
      if (!finding) {
        finding = api
          .openCalls()
          .then((open) => {
            const id = open.find((c) => keyOf(c) === key)?.id ?? null
            const f: Followed = {
              id,
              placed: null,
              at: fleet.simNow(),
              point: a.call,
              useAed: rng.chance(o.rescueShare),
              rescue: null,
              linked: false,
              closed: false,
              detail: null,
              readAt: 0,
              reading: null,
              busy: false,
              logged: { first: false, alerts: 0 },
            }
            followed.set(key, f)
            if (id) log(`${label(f)} (placed elsewhere): its alerts answered too`)
            return f
          })
          .finally(() => looking.delete(key))
        looking.set(key, finding)
      }
      return finding
    }

    /** Where the alerted person is: their shared position while fresh, else their home, else a guess by the way's length. */
    async function startOf(p: Phone, f: Followed, seen: AlertSeen): Promise<Point> {
      if (f.id !== null) {
        let d = f.detail
        if (!d?.dispatch?.alerts.some((a) => a.id === p.alertId)) d = await read(f)
        const mine = d.dispatch?.alerts.find((a) => a.id === p.alertId)
        if (mine?.lat != null && mine.lon != null) return { lat: mine.lat, lon: mine.lon }
        const home = mine ? homes.get(mine.responder_id) : undefined
        if (home) return home
      }
      return startFor(p.rng, seen)
    }

    async function open(p: Phone) {
      const a = await api.alert(p.token)
      stats.opened++
      const f = await callOf(a)
      p.call = f
      const who = `${label(f)}: ${p.phone}`
      if (!a.open || a.state === 'stood_down') {
        p.state = 'done'
        log(
          `${who} opened the link after ${took((fleet.simNow() - p.receivedAt) / 1000)}: ${a.open ? 'stood down already' : 'the call is closed'}`,
        )
        return
      }
      const seen: AlertSeen = {
        role: a.role,
        call: a.call,
        aed: a.aed ? { lat: a.aed.lat, lon: a.aed.lon } : null,
        distance: a.distance,
      }
      p.role = a.role
      p.aedSn = a.aed?.device_sn ?? null
      const start = await startOf(p, f, seen)
      p.walk = walkOf(start, stopsOf(seen), p.plan.speedMps, p.plan.pickupS)
      p.steps = phoneSteps(p.plan, fleet.simNow(), p.walk)
      p.state = 'walking'
    }

    /** After a refused action: the alert's state says whether the phone is done. */
    async function refused(p: Phone, e: unknown) {
      const a = await api.alert(p.token).catch(() => null)
      const who = `${label(p.call)}: ${p.phone}`
      if (!a?.open || a.state === 'stood_down' || a.state === 'declined') {
        p.state = 'done'
        stats.ended++
        log(
          `${who}: ${!a ? 'the link no longer answers' : !a.open ? 'the call was closed' : `${a.state.replace('_', ' ')}`}`,
        )
        return
      }
      fail(`${who}`, e)
    }

    async function step(p: Phone, s: PhoneStep) {
      const who = `${label(p.call)}: ${p.phone}`
      switch (s.kind) {
        case 'answer': {
          p.answeredAt = s.at
          const a = await api.act(p.token, s.accept ? 'accept' : 'decline')
          const after = took((s.at - p.receivedAt) / 1000)
          if (s.accept) {
            stats.accepted++
            const way = p.role === 'aed' && p.aedSn ? `by the AED ${p.aedSn}` : 'straight to the patient'
            log(
              `${who} accepted ${after} after the SMS: ${Math.round(p.walk!.metres)} m ${way}, about ${took(p.walk!.totalS)} on foot (${a.accepted} accepted)`,
            )
          } else {
            stats.declined++
            p.state = 'done'
            log(`${who} declined ${after} after the SMS`)
          }
          return
        }
        case 'location': {
          const w = toWgs84(s.point.lat, s.point.lon)
          p.locatedAt = Date.now()
          await api.act(p.token, 'location', { ...w, coord: 'wgs84', accuracy: p.rng.int(5, 30) })
          stats.positions++
          return
        }
        case 'at_aed':
          log(
            `${who} took the AED ${p.aedSn ?? ''} out, ${took((s.at - p.answeredAt) / 1000)} after accepting`,
          )
          return
        case 'arrived': {
          await api.act(p.token, 'arrived')
          p.state = 'done'
          stats.arrived++
          const withAed = p.role === 'aed' && p.aedSn
          if (withAed) stats.arrivedWithAed++
          log(
            `${who} arrived ${took((s.at - p.answeredAt) / 1000)} after accepting${withAed ? `, with the AED ${p.aedSn}` : ''}`,
          )
          const f = p.call
          if (withAed && f?.useAed && !f.rescue) {
            const at = s.at + RESCUE_AFTER_S * 1000
            const shocks = p.rng.int(0, 2)
            if (fleet.rescue(p.aedSn!, at, shocks)) {
              f.rescue = { sn: p.aedSn!, at }
              stats.rescues++
              log(
                `${label(f)}: ${p.aedSn} switched on beside the patient in ${RESCUE_AFTER_S} s (${shocks} shock${shocks === 1 ? '' : 's'})`,
              )
            } else {
              stats.notDriven++
              log(`${label(f)}: ${p.aedSn} is not driven by this run (--devices): no rescue reported`)
            }
          }
          return
        }
      }
    }

    async function drive(p: Phone) {
      p.busy = true
      try {
        if (p.state === 'waiting') {
          await open(p)
          return
        }
        const now = fleet.simNow()
        let due = 0
        while (due < p.steps.length && p.steps[due].at <= now) due++
        const taken = p.steps.splice(0, due)
        // Behind (a slow answer): only the newest position of a run of them is sent.
        const run = taken.filter((s, i) => s.kind !== 'location' || taken[i + 1]?.kind !== 'location')
        for (const [i, s] of run.entries()) {
          if (p.state !== 'walking') break
          // Not more than one position a real second; the one at the arrival always.
          const last = run[i + 1]?.kind === 'arrived'
          if (s.kind === 'location' && !last && Date.now() - p.locatedAt < locateEveryMs) continue
          try {
            await step(p, s)
          } catch (e) {
            await refused(p, e)
          }
        }
      } catch (e) {
        p.state = 'done'
        fail(`${label(p.call)}: ${p.phone}`, e)
      } finally {
        p.busy = false
      }
    }

    let next = 0
    let reading = false
    const tick = () => {
      const now = fleet.simNow()
      while (next < due.length && due[next].at <= now) track(place(due[next++]))
      for (const p of phones) {
        if (p.busy || p.state === 'done') continue
        if (p.state === 'waiting' ? p.openAt <= now : (p.steps[0]?.at ?? Infinity) <= now) track(drive(p))
      }
      for (let i = phones.length - 1; i >= 0; i--)
        if (phones[i].state === 'done' && !phones[i].busy) phones.splice(i, 1)
      for (const f of followed.values()) if (readDue(f, now)) track(follow(f))
    }
    const poll = async () => {
      if (reading || !o.responders) return
      reading = true
      try {
        await readSms()
      } catch (e) {
        fail('reading the SMS outbox', e)
      } finally {
        reading = false
      }
    }
    const ticker = setInterval(tick, 100)
    const poller = setInterval(() => void track(poll()), o.pollMs ?? 500)
    tick()
    return {
      async stop() {
        clearInterval(ticker)
        clearInterval(poller)
        const until = Date.now() + 20_000
        while (inflight.size > 0 && Date.now() < until) await Promise.race([...inflight, sleep(500)])
        // The last word on each call the run placed and did not close.
        const open = [...followed.values()].filter((f) => f.placed && !f.closed)
        for (const f of open) {
          try {
            f.detail = await api.detail(f.id!)
            if (f.detail.rescue && !f.linked) {
              f.linked = true
              stats.linked++
            }
          } catch {}
          if (f.detail) log(`${label(f)} still open: ${summary(f.detail)}`)
        }
      },
    }
  }

  return { ready, companion, stats }
}

/** What a call came to: its alerts by state and its linked rescue. */
function summary(d: CallDetail) {
  const alerts = d.dispatch?.alerts ?? []
  const n = (...states: string[]) => alerts.filter((a) => states.includes(a.state)).length
  const parts = [
    `${alerts.length} alerted`,
    `${n('accepted', 'arrived')} accepted`,
    `${n('declined')} declined`,
    `${n('expired')} unanswered`,
    `${n('arrived')} arrived`,
  ]
  const rescue = d.rescue ? `, rescue of ${d.rescue.device_sn} linked` : ''
  return `${parts.join(', ')}${rescue}`
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The lines the simulator prints at the end. */
export function callStatsLines(s: CallStats, via: string) {
  return [
    `  calls        ${s.placed} placed (${via}), ${s.refused} refused, ${s.closed} closed by the simulated dispatcher`,
    `  alerts       ${s.alerts} SMS with a link (${s.notices} notices without), ${s.opened} opened`,
    `  answers      ${s.accepted} accepted, ${s.declined} declined, ${s.ended} ended by the server (stood down, or the call closed)`,
    `  arrivals     ${s.arrived} arrived (${s.arrivedWithAed} with an AED), ${s.positions} positions shared`,
    `  rescues      ${s.rescues} AED${s.rescues === 1 ? '' : 's'} switched on beside the patient, ${s.linked} linked to their call${s.notDriven ? ` (${s.notDriven} AED${s.notDriven === 1 ? '' : 's'} brought were not driven by this run)` : ''}`,
    `  call errors  ${s.errors}`,
  ]
}
