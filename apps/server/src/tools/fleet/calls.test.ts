import type { CallDetail } from '@aed/contracts/call'
import type { DevSms } from '@aed/contracts/dev-sms'
import type { AlertAction, ResponderAlert } from '@aed/contracts/dispatch'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { metres } from '../../modules/dispatch/dispatch.rules.ts'
import { toGcj02 } from '../../modules/engine/reducer.ts'
import type { CallForm, CallsApi, PlacedCall } from './call-api.ts'
import { CALL_NEAR_M, RESCUE_AFTER_S } from './call-model.ts'
import { createCalls } from './calls.ts'
import { displaced } from './model.ts'
import type { FleetControl } from './runner.ts'

// The calls and phones against a stand-in server on fake timers: a call placed, its one alert's
// SMS read back, the phone opening the link, accepting, walking from its holder's home by the
// AED and arriving, the AED switched on a minute later, the call linked and closed.

const T0 = Date.parse('2026-11-26T02:00:00.000Z')
const SPEED = 60
const AED = { lat: 30.2741, lon: 120.1551 }
const HOME = displaced(AED.lat, AED.lon, 0.4, 0)

type Alert = {
  id: number
  call: number
  state: ResponderAlert['state']
  positions: { lat: number; lon: number }[]
}

/** The server as the simulator sees it: each call gets one alert (role aed, AED M1) for responder 5. */
function fakeServer(fleet: { rescued: { sn: string; at: number }[]; real: (at: number) => number }) {
  const calls = new Map<number, CallForm & { status: number; outcome: string | null; placedAt: number }>()
  const alerts = new Map<string, Alert>()
  const sms: DevSms[] = [
    // Sent before the run: not a phone's.
    {
      id: 1,
      phone: '13900000000',
      kind: 'dispatch',
      content: `【AED云】… http://x/rescue/${'Z'.repeat(43)}`,
      key: 'dispatch:1',
      status: 'sent',
      create_time: '',
      sent_at: null,
    },
  ]
  const tokenOf = (id: number) => `T${String(id).padStart(42, '0')}`
  const alertOf = (token: string) => alerts.get(token)!
  const view = (a: Alert): ResponderAlert => {
    const c = calls.get(a.call)!
    return {
      state: a.state,
      role: 'aed',
      open: c.status === 1,
      responder_name: '急救员',
      call: { location: c.location, lat: c.lat, lon: c.lon, call_time: '', description: null },
      aed: {
        device_sn: 'M1',
        ...AED,
        location: null,
        location_desc: null,
        photo: null,
        cabinet_sn: null,
        unlocked: false,
      },
      distance: Math.round(metres(HOME, AED) + metres(AED, c)),
      eta_s: 0,
      answer_left_s: null,
      accepted: [...alerts.values()].filter((x) => x.call === a.call && x.state === 'accepted').length,
    }
  }
  const acts: { action: AlertAction; at: number }[] = []
  const closed: { id: number; outcome: string }[] = []
  const api: CallsApi = {
    via: 'console',
    async place(form): Promise<PlacedCall> {
      const id = calls.size + 1
      calls.set(id, { ...form, status: 1, outcome: null, placedAt: Date.now() })
      const alertId = 100 + id
      alerts.set(tokenOf(alertId), { id: alertId, call: id, state: 'alerted', positions: [] })
      sms.push({
        id: sms.length + 1,
        phone: '13912345678',
        kind: 'dispatch',
        content: `【AED云】急救呼叫：…查看并接受：http://localhost/rescue/${tokenOf(alertId)}`,
        key: `dispatch:${alertId}`,
        status: 'sent',
        create_time: '',
        sent_at: null,
      })
      return { id, externalId: null }
    },
    async close(call, form) {
      calls.get(call.id)!.status = 0
      closed.push({ id: call.id, outcome: form.outcome })
    },
    async detail(id) {
      const c = calls.get(id)!
      const mine = [...alerts.values()].filter((a) => a.call === id)
      const used = fleet.rescued.find((r) => Date.now() >= fleet.real(r.at))
      return {
        id,
        status: c.status,
        outcome: c.outcome,
        rescue: used ? { id: 1, device_id: 1, device_sn: used.sn, event_time: '', distance: 100 } : null,
        dispatch: {
          id,
          state: 'enough',
          phase: 0,
          radius: 500,
          accepted: 0,
          arrived: 0,
          aeds: [],
          alerts: mine.map((a) => ({
            id: a.id,
            responder_id: 5,
            role: 'aed',
            state: a.state,
            lat: null,
            lon: null,
          })),
        },
      } as unknown as CallDetail
    },
    async openCalls() {
      return [...calls.entries()].filter(([, c]) => c.status === 1).map(([id, c]) => ({ id, ...c }))
    },
    async sms(after, limit = 200) {
      return sms.filter((s) => s.id > after).slice(0, limit)
    },
    async homes() {
      return new Map([[5, HOME]])
    },
    async alert(token) {
      return view(alertOf(token))
    },
    async act(token, action, body) {
      const a = alertOf(token)
      acts.push({ action, at: Date.now() })
      if (action === 'location') a.positions.push(toGcj02(body!.lat, body!.lon))
      else a.state = ({ accept: 'accepted', decline: 'declined', arrived: 'arrived' } as const)[action]
      return view(a)
    },
    async integratorSites() {
      return []
    },
  }
  return { api, calls, alerts, acts, closed }
}

/** The fleet's clock at SPEED from T0 (fake timers), rescuing with `rescue`. */
function fakeFleet(rescue: FleetControl['rescue'] = () => false): FleetControl {
  return {
    simStart: T0,
    simEnd: T0 + 3600_000,
    speed: SPEED,
    simNow: () => T0 + (Date.now() - T0) * SPEED,
    real: (at) => T0 + (at - T0) / SPEED,
    rescue,
  }
}

describe('calls and the responders’ phones', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    vi.setSystemTime(T0)
  })
  afterEach(() => vi.useRealTimers())

  it('places calls near the AEDs; each phone opens its link, accepts, walks by the AED from home and arrives; the AED is used, the call linked and closed', async () => {
    const rescued: { sn: string; at: number }[] = []
    const fleet = fakeFleet((sn, at) => {
      rescued.push({ sn, at })
      return true
    })
    const server = fakeServer({ rescued, real: fleet.real })
    const lines: string[] = []
    const calls = createCalls(server.api, [{ sn: 'M1', ...AED, location: '浙江省杭州市西湖区湖滨路1号' }], {
      perHour: 6,
      responders: true,
      seed: 3,
      acceptShare: 1,
      rescueShare: 1,
      closeMin: 15,
      readEveryMs: 2000,
      log: (l) => lines.push(l),
    })
    await calls.ready()
    const companion = calls.companion(fleet)
    // The model hour passes in a real minute; then half an hour more for the last call to end.
    await vi.advanceTimersByTimeAsync(90_000)
    const stopping = companion.stop()
    await vi.advanceTimersByTimeAsync(30_000)
    await stopping

    const placed = [...server.calls.values()]
    expect(placed.length).toBeGreaterThan(0)
    for (const c of placed) {
      expect(metres(c, AED)).toBeLessThanOrEqual(CALL_NEAR_M + 1)
      expect(c.location).toBe('浙江省杭州市西湖区湖滨路1号附近')
      expect(c.phone).toMatch(/^1[3-9]\d{9}$/)
    }
    // The SMS sent before the run was nobody's: only the run's own alerts were answered.
    expect(calls.stats).toMatchObject({ placed: placed.length, alerts: placed.length, opened: placed.length })
    for (const a of server.alerts.values()) {
      expect(a.state).toBe('arrived')
      // From home (400 m north of the AED), by the AED, to the patient, a position every 15 s.
      expect(metres(a.positions[0], HOME)).toBeLessThan(5)
      expect(Math.min(...a.positions.map((p) => metres(p, AED)))).toBeLessThan(40)
      const call = server.calls.get(a.call)!
      expect(metres(a.positions.at(-1)!, call)).toBeLessThan(5)
      expect(a.positions.length).toBeGreaterThan(5)
    }
    expect(calls.stats).toMatchObject({
      accepted: placed.length,
      arrived: placed.length,
      declined: 0,
      errors: 0,
    })
    // The AED switched on a minute (model time) after its arrival, once a call.
    expect(rescued).toHaveLength(placed.length)
    const arrivals = server.acts.filter((x) => x.action === 'arrived').map((x) => x.at)
    expect(arrivals).toHaveLength(placed.length)
    for (const [i, r] of rescued.entries()) {
      expect(r.sn).toBe('M1')
      const arrivedModel = T0 + (arrivals[i] - T0) * SPEED
      expect(Math.abs(r.at - (arrivedModel + RESCUE_AFTER_S * 1000))).toBeLessThan(10_000)
    }
    // Closed by the simulated dispatcher once linked, AED used.
    expect(server.closed.map((c) => c.outcome)).toEqual(placed.map(() => 'aed_used'))
    expect(calls.stats).toMatchObject({
      closed: placed.length,
      linked: placed.length,
      rescues: placed.length,
    })
    expect(lines.some((l) => /^call #1 placed \(console\): .* m from M1 at /.test(l))).toBe(true)
    expect(lines.some((l) => /^call #1 closed after .* → aed_used$/.test(l))).toBe(true)
  })

  it('declines when it does not accept, and drives no phone without --responders', async () => {
    const fleet = fakeFleet()
    const site = [{ sn: 'M1', ...AED, location: '湖滨路' }]
    const options = {
      perHour: 6,
      seed: 3,
      acceptShare: 0,
      rescueShare: 1,
      closeMin: 0,
      readEveryMs: 2000,
      log: () => {},
    }
    for (const responders of [true, false]) {
      vi.setSystemTime(T0)
      const server = fakeServer({ rescued: [], real: fleet.real })
      const calls = createCalls(server.api, site, { ...options, responders })
      await calls.ready()
      const companion = calls.companion(fleet)
      await vi.advanceTimersByTimeAsync(90_000)
      const stopping = companion.stop()
      await vi.advanceTimersByTimeAsync(30_000)
      await stopping
      const n = server.calls.size
      expect(n).toBeGreaterThan(0)
      // --close-min 0: left open.
      expect(server.closed).toEqual([])
      if (responders) {
        expect([...server.alerts.values()].map((a) => a.state)).toEqual(Array(n).fill('declined'))
        expect(calls.stats).toMatchObject({ declined: n, accepted: 0, positions: 0 })
      } else {
        expect(server.acts).toEqual([])
        expect(calls.stats).toMatchObject({ placed: n, alerts: 0, opened: 0 })
      }
    }
  })

  it('answers the alerts of a call recorded by hand (no --calls), and leaves it open', async () => {
    const fleet = fakeFleet()
    const server = fakeServer({ rescued: [], real: fleet.real })
    const lines: string[] = []
    const calls = createCalls(server.api, [], {
      perHour: 0,
      responders: true,
      seed: 1,
      acceptShare: 1,
      rescueShare: 0,
      closeMin: 15,
      log: (l) => lines.push(l),
    })
    await calls.ready()
    const companion = calls.companion(fleet)
    // A dispatcher records a call in the console a little later.
    await vi.advanceTimersByTimeAsync(1000)
    await server.api.place({ phone: '13800001234', ...AED, location: '湖滨路', description: '' }, '')
    await vi.advanceTimersByTimeAsync(60_000)
    const stopping = companion.stop()
    await vi.advanceTimersByTimeAsync(30_000)
    await stopping
    expect([...server.alerts.values()].map((a) => a.state)).toEqual(['arrived'])
    expect(lines).toContain('call #1 (placed elsewhere): its alerts answered too')
    expect(server.closed).toEqual([])
    expect(calls.stats).toMatchObject({ placed: 0, alerts: 1, accepted: 1, arrived: 1, closed: 0 })
  })
})
