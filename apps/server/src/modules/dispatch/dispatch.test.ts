import { Code } from '@aed/contracts'
import { callApi } from '@aed/contracts/call'
import { responderAlertApi } from '@aed/contracts/dispatch'
import { responderApi } from '@aed/contracts/responder'
import { settingsApi } from '@aed/contracts/settings'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { cabinetLink, deviceLink, deviceTestFile } from '../../test/device-link.ts'
import { drainOutbox } from '../engine/outbox.ts'
import { dispatchTick } from './dispatch.jobs.ts'

// Dispatch on a clock the test moves, in a quiet place (Wuhan, away from the demo network):
// responders around a call, ready AEDs (one in a cabinet), and the alerts, answers, deadlines,
// phases and stand-downs that follow, as stored deadlines a tick sweeps.
const clock = new TestClock('2026-11-26T02:00:00.000Z') // 10:00 in China
const C = { lat: 30.5, lon: 114.3 }
/** A point `north` and `east` metres from C. */
const at = (north: number, east: number) => ({
  lat: C.lat + north / 111_195,
  lon: C.lon + east / (111_195 * Math.cos((C.lat * Math.PI) / 180)),
})

let n = 0
/** A responder of the branch living at a point (a professional with a valid certificate unless told). */
async function responder(point: { lat: number; lon: number }, over: Record<string, unknown> = {}) {
  const r = await env.t.api(responderApi.create, {
    token: env.admin,
    body: {
      account: {
        phone: `158${String(30_000_000 + ++n).padStart(8, '0')}`,
        name: `急救员${n}`,
        birth: '1990-01-01',
        gender: 1,
        ...point,
        location: '武汉',
      },
      aid_aptitude: 0,
      agency_id: env.branch.id,
      status: 0,
      ...over,
    },
  })
  if (r.code !== 0) throw new Error(`responder: ${r.msg}`)
  return r.data
}

/** An AED registered at a point and made ready by its own hello and passed self-test. */
async function readyAed(point: { lat: number; lon: number }) {
  const d = await env.f.registeredDevice(env.admin, env.branch, { ...point, open_state: 2 })
  const link = await deviceLink(env.t, d.device_sn)
  await link.send(
    link.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 86_400 }),
    link.msg('selftest', { report_type: 0, result: 'pass' }),
  )
  return { ...link, deviceId: d.id }
}

// The outbox is driven by hand (`call()` drains it): no drain runs on its own after a commit, so
// on PostgreSQL a background drain never holds the dispatch row while the test reads it.
const env = deviceTestFile(clock, async ({ t }) => {
  t.ctx.drainOnCommit = false
  return {}
})

/** Records a call at a point and delivers its outbox (the dispatch starts there). */
async function call(point = C) {
  const r = await env.t.api(callApi.create, {
    token: env.admin,
    body: { phone: '13800001234', ...point, location: '武汉市江汉区解放大道' },
  })
  if (r.code !== 0) throw new Error(`call: ${r.msg}`)
  await drainOutbox(env.t.ctx)
  return r.data.id
}

type AlertRow = { id: number; responder_id: number; role: string; state: string; device_id: number | null }
const alerts = (callId: number) =>
  many<AlertRow>(
    env.t.db,
    sql`SELECT x.id, x.responder_id, x.role, x.state, x.device_id FROM dispatch_alerts x
        JOIN dispatches d ON d.id = x.dispatch_id WHERE d.call_id = ${callId} ORDER BY x.id`,
  )

/** The link token the alert's SMS carries. */
async function tokenOf(alertId: number) {
  const row = await one<{ content: string }>(
    env.t.db,
    sql`SELECT content FROM sms_outbox WHERE idempotency_key = ${`dispatch:${alertId}`}`,
  )
  return /\/rescue\/([A-Za-z0-9_-]{43})/.exec(row?.content ?? '')?.[1] ?? ''
}

const act = (token: string, action: 'accept' | 'decline' | 'arrived' | 'location', body: object = {}) =>
  env.t.api(responderAlertApi.act, { params: { token, action }, body: body as never })

describe('dispatching a call', () => {
  it('alerts the five nearest dispatchable responders at once, one of them by the nearby AED', async () => {
    const people = []
    for (const m of [60, 120, 180, 240, 300, 360, 420]) people.push(await responder(at(m, 0)))
    const paused = await responder(at(20, 0))
    await env.t.api(responderApi.setAvailability, {
      token: env.admin,
      params: { id: paused.id },
      body: { paused: true },
    })
    const expired = await responder(at(30, 0), {
      aid_aptitude: 1,
      certificate_num: 'WH-1',
      certificate_expire: '2026-01-01',
      certificate_img: '/files/c.png',
    })
    const far = await responder(at(1500, 0))
    const aed = await readyAed(at(150, 40))
    const id = await call()
    const sent = await alerts(id)
    expect(sent.map((a) => a.responder_id)).toEqual(people.slice(0, 5).map((p) => p.id))
    for (const skipped of [paused, expired, far])
      expect(sent.map((a) => a.responder_id)).not.toContain(skipped.id)
    expect(sent.map((a) => a.role)).toEqual(['patient', 'aed', 'patient', 'patient', 'patient'])
    expect(sent[1].device_id).toBe(aed.deviceId)
    const sms = await one<{ content: string; kind: string }>(
      env.t.db,
      sql`SELECT content, kind FROM sms_outbox WHERE idempotency_key = ${`dispatch:${sent[1].id}`}`,
    )
    expect(sms?.kind).toBe('dispatch')
    expect(sms?.content).toMatch(
      /^【AED云】急救呼叫：武汉市江汉区解放大道附近有人心脏骤停，请先取附近的AED再前往（约\d+分钟）。查看并接受：http:\/\/localhost:\d+\/rescue\/[A-Za-z0-9_-]{43}$/,
    )
    const detail = await env.t.api(callApi.detail, { token: env.admin, params: { id } })
    expect(detail.data.dispatch).toMatchObject({ state: 'running', phase: 0, radius: 500, accepted: 0 })
    expect(detail.data.dispatch?.alerts.map((a) => a.state)).toEqual([
      'alerted',
      'alerted',
      'alerted',
      'alerted',
      'alerted',
    ])
    expect(detail.data.timeline.filter((s) => s.kind === 'dispatch_alerted')).toHaveLength(5)
    // Every step is a call.dispatch webhook row (started, and five alerted).
    const hooks = await many<{ payload: { event: string } }>(
      env.t.db,
      sql`SELECT o.payload FROM outbox o JOIN dispatch_steps s ON o.dedupe_key = 'webhook:dispatch:' || s.id
          JOIN dispatches d ON d.id = s.dispatch_id WHERE d.call_id = ${id}`,
    )
    expect(hooks.map((h) => h.payload.event)).toEqual(Array(6).fill('call.dispatch'))
  })

  it('passes a decline at once, and an unanswered alert after 45 s, to the next nearest', async () => {
    const id = (await one<{ id: number }>(env.t.db, sql`SELECT max(id) AS id FROM call_events`))!.id
    const first = await alerts(id)
    const declined = await act(await tokenOf(first[0].id), 'decline')
    expect([declined.code, declined.data.state]).toEqual([0, 'declined'])
    expect((await alerts(id)).length).toBe(6)
    clock.advance(46_000)
    // Two ticks at once (two instances): each expired alert is replaced once.
    await Promise.all([dispatchTick(env.t.ctx, clock.now()), dispatchTick(env.t.ctx, clock.now())])
    const after = await alerts(id)
    expect(after.filter((a) => a.state === 'expired').length).toBe(5)
    // Seven dispatchable people within 500 m: the last one is alerted now, nobody twice.
    expect(after.length).toBe(7)
    expect(new Set(after.map((a) => a.responder_id)).size).toBe(7)
  })

  it('stands the others down once three accept, and unlocks the cabinet of an accepted AED', async () => {
    const id = await call(at(5000, 5000))
    expect(await alerts(id)).toEqual([])
    // A fresh call elsewhere: its own people, an AED in a cabinet.
    const base = at(5000, 5000)
    const point = (m: number) => ({ lat: base.lat + m / 111_195, lon: base.lon })
    const ps = []
    for (const m of [50, 100, 150, 200, 250]) ps.push(await responder(point(m)))
    const aed = await readyAed({ lat: base.lat + 120 / 111_195, lon: base.lon + 0.0003 })
    const cabinet = await cabinetLink(env.t, env.branch.id, { deviceId: aed.deviceId })
    const id2 = await call(base)
    const sent = await alerts(id2)
    expect(sent.length).toBe(5)
    const byAed = sent.find((a) => a.role === 'aed')!
    const tokens = await Promise.all(sent.map((a) => tokenOf(a.id)))
    const accept = await act(tokens[sent.indexOf(byAed)], 'accept')
    expect(accept.data).toMatchObject({
      state: 'accepted',
      role: 'aed',
      aed: { cabinet_sn: cabinet.sn, unlocked: true },
    })
    const commands = await many<{ name: string; creator_name: string }>(
      env.t.db,
      sql`SELECT name, creator_name FROM device_commands WHERE sender_kind = 'cabinet' AND sender_id = ${cabinet.id}`,
    )
    expect(commands).toEqual([{ name: 'unlock', creator_name: '派单系统' }])
    const others = sent.filter((a) => a !== byAed)
    await act(tokens[sent.indexOf(others[0])], 'accept')
    const third = await act(tokens[sent.indexOf(others[1])], 'accept')
    expect(third.data.accepted).toBe(3)
    const after = await alerts(id2)
    expect(
      after
        .filter((a) => a.state === 'stood_down')
        .map((a) => a.id)
        .sort(),
    ).toEqual(
      others
        .slice(2)
        .map((a) => a.id)
        .sort(),
    )
    const late = await act(tokens[sent.indexOf(others[2])], 'accept')
    expect(late.msg).toBe('已有足够急救人员响应，您无需前往')
    const arrived = await act(tokens[sent.indexOf(others[0])], 'arrived')
    expect(arrived.data.state).toBe('arrived')
    const detail = await env.t.api(callApi.detail, { token: env.admin, params: { id: id2 } })
    expect(detail.data.dispatch).toMatchObject({ state: 'enough', accepted: 3, arrived: 1 })
    const kinds = detail.data.timeline.map((s) => s.kind)
    for (const k of [
      'dispatch_accepted',
      'dispatch_unlocked',
      'dispatch_enough',
      'dispatch_stood_down',
      'dispatch_arrived',
    ])
      expect(kinds).toContain(k)
  })

  it('shows a link’s alert, refuses a wrong one, and ends every link when the call closes', async () => {
    const id = (await one<{ id: number }>(env.t.db, sql`SELECT max(id) AS id FROM call_events`))!.id
    const [a] = await alerts(id)
    const token = await tokenOf(a.id)
    const read = await env.t.api(responderAlertApi.alert, { params: { token } })
    expect(read.data).toMatchObject({ open: true, call: { location: '武汉市江汉区解放大道' } })
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    const bad = await env.t.api(responderAlertApi.alert, { params: { token: tampered } })
    expect([bad.code, bad.msg]).toEqual([Code.NOT_FOUND, '链接无效或已失效'])
    expect((await env.t.api(responderAlertApi.alert, { params: { token: 'short' } })).code).toBe(Code.INVALID)
    const located = await act(token, 'location', { lat: C.lat, lon: C.lon })
    expect(located.code).toBe(0)
    await env.t.api(callApi.close, { token: env.admin, params: { id }, body: { outcome: 'no_aed_needed' } })
    await dispatchTick(env.t.ctx, clock.now())
    expect((await env.t.api(responderAlertApi.alert, { params: { token } })).data.open).toBe(false)
    const after = await act(token, 'accept')
    expect(after.msg).toBe('该呼救已结束，无需再前往')
    // Closing stood down everyone still to answer or on the way; who arrived keeps it.
    const states = new Set((await alerts(id)).map((x) => x.state))
    expect(states.has('alerted') || states.has('accepted')).toBe(false)
    expect(states.has('arrived')).toBe(true)
  })

  it('widens the radius phase by phase while too few accept', async () => {
    const base = at(-20_000, 0)
    const person = await responder({ lat: base.lat + 1500 / 111_195, lon: base.lon })
    const id = await call(base)
    expect(await alerts(id)).toEqual([])
    clock.advance(61_000)
    await dispatchTick(env.t.ctx, clock.now())
    expect(await alerts(id)).toEqual([])
    clock.advance(61_000)
    await dispatchTick(env.t.ctx, clock.now())
    expect((await alerts(id)).map((a) => a.responder_id)).toEqual([person.id])
    const detail = await env.t.api(callApi.detail, { token: env.admin, params: { id } })
    expect(detail.data.dispatch).toMatchObject({ phase: 2, radius: 2000 })
  })

  it('replaces an AED that turns not ready by the next ready one', async () => {
    const base = at(-40_000, 0)
    const point = (north: number, east = 0) => ({
      lat: base.lat + north / 111_195,
      lon: base.lon + east / 96_000,
    })
    await responder(point(50))
    const person = await responder(point(300))
    const a1 = await readyAed(point(200, 20))
    const a2 = await readyAed(point(230, -30))
    const id = await call(base)
    const mine = (await alerts(id)).find((a) => a.responder_id === person.id)!
    expect(mine).toMatchObject({ role: 'aed', device_id: a1.deviceId })
    await a1.send(a1.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] }))
    await dispatchTick(env.t.ctx, clock.now())
    const after = (await alerts(id)).find((a) => a.id === mine.id)!
    expect(after).toMatchObject({ role: 'aed', device_id: a2.deviceId })
  })

  it('dispatches on a rescue no call explains when the organisation says so, and not otherwise', async () => {
    const base = at(-60_000, 0)
    const point = (north: number) => ({ lat: base.lat + north / 111_195, lon: base.lon })
    const person = await responder(point(80))
    const aed = await readyAed(point(0))
    const rescueOf = async (id: string) => {
      await aed.send(
        aed.msg('usage', { rescue_event_id: id, event_time: clock.now().getTime(), event_desc: 'power_on' }),
      )
      return (await one<{ id: number }>(
        env.t.db,
        sql`SELECT id FROM rescue_events WHERE rescue_event_id = ${id}`,
      ))!.id
    }
    const dispatched = (rescueId: number) =>
      many<{ responder_id: number }>(
        env.t.db,
        sql`SELECT x.responder_id FROM dispatch_alerts x JOIN dispatches d ON d.id = x.dispatch_id WHERE d.rescue_id = ${rescueId}`,
      )
    const off = await rescueOf('R-OFF')
    clock.advance(20_000)
    await dispatchTick(env.t.ctx, clock.now())
    expect(await dispatched(off)).toEqual([])
    await aed.send(
      aed.msg('usage', {
        rescue_event_id: 'R-OFF',
        event_time: clock.now().getTime(),
        event_desc: 'power_off',
      }),
    )
    const saved = await env.t.api(settingsApi.get, { token: env.admin })
    await env.t.api(settingsApi.save, { token: env.admin, body: { ...saved.data, dispatch_on_rescue: 1 } })
    const on = await rescueOf('R-ON')
    await dispatchTick(env.t.ctx, clock.now())
    expect(await dispatched(on)).toEqual([]) // within the grace for a call to explain it
    clock.advance(20_000)
    await dispatchTick(env.t.ctx, clock.now())
    expect((await dispatched(on)).map((a) => a.responder_id)).toEqual([person.id])
  })

  it('refuses a second accept from someone already on the way to another call', async () => {
    const base = at(-80_000, 0)
    const near = (m: number) => ({ lat: base.lat + m / 111_195, lon: base.lon })
    const person = await responder(near(100))
    const a = await call(base)
    const b = await call(near(200))
    const mine = async (id: number) => (await alerts(id)).find((x) => x.responder_id === person.id)
    const inA = (await mine(a))!
    const inB = (await mine(b))!
    expect((await act(await tokenOf(inA.id), 'accept')).data.state).toBe('accepted')
    const busy = await act(await tokenOf(inB.id), 'accept')
    expect(busy.msg).toBe('您已接受另一次呼救，请先完成该次救援')
    // Busy, the person is not alerted for a call after it.
    const c = await call(near(300))
    expect(await mine(c)).toBeUndefined()
  })
})
