import { MsgType, messageApi } from '@aed/contracts/message'
import {
  openAedSchema,
  openDoorAlarmSchema,
  openEventSchema,
  openRescueSchema,
  type WebhookPayload,
} from '@aed/contracts/open-api'
import { serviceConfigApi } from '@aed/contracts/service-config'
import { sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboxRecord } from '../../context.ts'
import { many, one } from '../../db/sql.ts'
import { housekeepingJob } from '../../jobs/housekeeping.ts'
import { TestClock } from '../../lib/clock.ts'
import { cabinetLink, deviceLink } from '../../test/device-link.ts'
import { type AgencyRow, factories } from '../../test/factories.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'
import { type Receiver, startReceiver } from '../../test/webhook-receiver.ts'
import { drainOutbox } from '../engine/outbox.ts'
import { webhookOutboxHandler } from './webhook.fanout.ts'
import {
  deliverDue,
  LEASE_MS,
  measureLag,
  RETRY_DELAYS_MS,
  startWebhookSender,
  webhookLag,
} from './webhook.sender.ts'

// Webhook delivery end to end: a device's report through the gateway, the outbox's fan-out into
// deliveries, the sender's signed POSTs to a real receiver on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE),
// its retries, leases and disabling, and the console's log, resend and test. Time moves on the
// test clock; the clock starts at the real time so the receiver's signature check accepts it.

const clock = new TestClock(new Date())
let t: TestApp
let rx: Receiver
let f: ReturnType<typeof factories>
let sys: string
let agent: AgencyRow

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } })
  t.ctx.clock = clock
  // The outbox is drained by hand (drainOutbox), so each test knows when deliveries exist.
  t.ctx.drainOnCommit = false
  f = factories(t)
  agent = await f.agency(await f.root())
  sys = await t.login(demo.superAdmin)
  rx = await startReceiver()
})
afterAll(async () => {
  await rx?.close()
  await t?.close()
})

let paths = 0
/** A configuration of an organisation with a push URL on the receiver (its own path); answers its id, secret and path. */
async function endpoint(agency: { id: number }, service: string[] = ['event_push', 'device_data_push']) {
  const path = `/hook/${++paths}`
  const r = await t.api(serviceConfigApi.create, {
    token: sys,
    body: { agency_id: agency.id, service, state: 1, push_url: rx.url(path) },
  })
  if (r.code !== 0) throw new Error(`config: ${r.code} ${r.msg}`)
  return { id: r.data.id, secret: r.data.push_secret as string, path }
}

/** Queues n test events on an endpoint (the console's test call); answers their delivery ids. */
async function queueTests(configId: number, n: number) {
  const ids: number[] = []
  for (let i = 0; i < n; i++) {
    const r = await t.api(serviceConfigApi.test, { token: sys, params: { id: configId } })
    if (r.code !== 0) throw new Error(`test: ${r.code} ${r.msg}`)
    ids.push(r.data.id)
  }
  return ids
}

const delivery = (id: number) =>
  one<{
    state: string
    attempts: number
    next_at: Date
    last_attempt_at: Date | null
    last_status: number | null
    last_error: string | null
    leased_until: Date | null
  }>(
    t.db,
    sql`SELECT state, attempts, next_at, last_attempt_at, last_status, last_error, leased_until
        FROM webhook_deliveries WHERE id = ${id}`,
  ).then((d) => d!)

const deliveriesOf = (configId: number) =>
  many<{ id: number; event: string; state: string; payload: WebhookPayload }>(
    t.db,
    sql`SELECT id, event, state, payload FROM webhook_deliveries WHERE config_id = ${configId} ORDER BY id`,
  )

/** Sends what is due until nothing is (bounded). */
async function deliverAll() {
  for (let i = 0; i < 50; i++) if ((await deliverDue(t.ctx)).endpoints === 0) return
}

const msgIds = (path: string) => rx.of(path).map((r) => r.id)

describe('from a device report to the receiver', () => {
  it('a fault opened through the gateway reaches the subscribed endpoints signed; a sibling’s never', async () => {
    const branch = await f.agency(agent)
    const sibling = await f.agency(agent)
    const admin = (await f.signedIn(branch)).token
    const above = await endpoint(agent)
    const own = await endpoint(branch, ['event_push'])
    const other = await endpoint(sibling)
    const d = await deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)

    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))
    await drainOutbox(t.ctx)
    await deliverAll()

    // The organisation's own endpoint (event_push only): the event.
    const [got] = rx.of(own.path)
    expect(rx.of(own.path)).toHaveLength(1)
    const verified = new Webhook(own.secret).verify(got.body, got.headers) as WebhookPayload
    expect(verified.type).toBe('device.event.opened')
    // The envelope in its order: type, timestamp, data.
    expect(got.body).toMatch(/^\{"type":"device\.event\.opened","timestamp":"[^"]+","data":\{/)
    const event = openEventSchema.parse(verified.data)
    expect(event).toMatchObject({ kind: 'fault', code: 'E02', sn: d.sn, state: 'open', agency_id: branch.id })
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': expect.stringMatching(/^msg_\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    })
    expect(got.headers['user-agent']).toMatch(/AED-Cloud-Webhooks/)

    // The organisation above (both services): the event and the AED's status changes.
    const types = rx.of(above.path).map((r) => (JSON.parse(r.body) as WebhookPayload).type)
    expect(types).toContain('device.event.opened')
    expect(types).toContain('device.status.changed')
    const status = rx
      .of(above.path)
      .map((r) => new Webhook(above.secret).verify(r.body, r.headers) as WebhookPayload)
      .filter((p) => p.type === 'device.status.changed')
      .at(-1)!
    expect(openAedSchema.parse(status.data)).toMatchObject({ sn: d.sn, readiness: 'not_ready', status: 2 })

    // A sibling organisation's endpoint: nothing, and no delivery was even written.
    expect(rx.of(other.path)).toHaveLength(0)
    expect(await deliveriesOf(other.id)).toEqual([])

    // The fault clears: device.event.closed, in order after the opening.
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }))
    await drainOutbox(t.ctx)
    await deliverAll()
    const ownTypes = rx.of(own.path).map((r) => (JSON.parse(r.body) as WebhookPayload).type)
    expect(ownTypes).toEqual(['device.event.opened', 'device.event.closed'])
  })

  it('a rescue that ends and a cabinet door alarm reach the endpoint (device.rescue.ended, cabinet.door.alarm)', async () => {
    const branch = await f.agency(agent)
    const ep = await endpoint(branch, ['event_push'])
    const admin = (await f.signedIn(branch)).token
    const d = await deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)
    const at = clock.now().getTime()
    await d.send(d.msg('usage', { rescue_event_id: 'R1', event_time: at, event_desc: 'power_on' }))
    await d.send(d.msg('usage', { rescue_event_id: 'R1', event_time: at + 60_000, event_desc: 'power_off' }))
    const c = await cabinetLink(t, branch.id, { deviceId: d.id, location: '人民广场东门' })
    await c.send(c.msg('door', { door_status: 1 }))
    await drainOutbox(t.ctx)
    await deliverAll()
    const bodies = rx.of(ep.path).map((r) => JSON.parse(r.body) as WebhookPayload)
    expect(bodies.map((b) => b.type)).toEqual([
      'device.rescue.started',
      'device.rescue.ended',
      'cabinet.door.alarm',
    ])
    const ended = openRescueSchema.parse(bodies[1].data)
    expect(ended).toMatchObject({ sn: d.sn, agency_id: branch.id, end_time: expect.any(String) })
    expect(bodies[1].timestamp).toBe(ended.end_time)
    expect(openDoorAlarmSchema.parse(bodies[2].data)).toMatchObject({
      cabinet_sn: c.sn,
      sn: d.sn,
      close_time: null,
    })
  })

  it('a re-drained webhook row writes no second delivery', async () => {
    const branch = await f.agency(agent)
    const ep = await endpoint(branch)
    const admin = (await f.signedIn(branch)).token
    const d = await deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] }))
    const rows = await many<OutboxRecord>(
      t.db,
      sql`SELECT id, topic, dedupe_key, agency_id, index_link, payload, attempts, create_time
          FROM outbox WHERE topic = 'webhook' AND done_at IS NULL AND index_link = ${branch.index_link}`,
    )
    expect(rows).toHaveLength(1)
    await t.db.transaction((tx) => webhookOutboxHandler.batch(t.ctx, tx, rows))
    await t.db.transaction((tx) => webhookOutboxHandler.batch(t.ctx, tx, rows))
    await drainOutbox(t.ctx)
    const events = (await deliveriesOf(ep.id)).filter((x) => x.event === 'device.event.opened')
    expect(events).toHaveLength(1)
  })
})

describe('the sender', () => {
  it('sends an endpoint’s deliveries strictly in order: a failed one holds back the later ones', async () => {
    const ep = await endpoint(await f.agency(agent))
    const ids = await queueTests(ep.id, 5)
    let n = 0
    rx.answer(ep.path, () => ({ status: ++n === 2 ? 500 : 200 }))
    await deliverDue(t.ctx)
    expect(msgIds(ep.path)).toEqual([`msg_${ids[0]}`, `msg_${ids[1]}`])
    // Not due yet: nothing of the endpoint goes, not even the later ones.
    await deliverDue(t.ctx)
    expect(msgIds(ep.path)).toHaveLength(2)
    clock.advance(RETRY_DELAYS_MS[0] * 1.2 + 1)
    await deliverAll()
    expect(msgIds(ep.path)).toEqual([ids[0], ids[1], ids[1], ids[2], ids[3], ids[4]].map((i) => `msg_${i}`))
    expect((await deliveriesOf(ep.id)).map((d) => d.state)).toEqual(Array(5).fill('delivered'))
  })

  it('a slow receiver does not hold back another endpoint', async () => {
    const slow = await endpoint(await f.agency(agent))
    const fast = await endpoint(await f.agency(agent))
    await queueTests(slow.id, 1)
    await queueTests(fast.id, 3)
    let release = () => {}
    const hold = new Promise<void>((r) => {
      release = r
    })
    rx.answer(slow.path, () => ({ status: 200, hold }))
    const pass = deliverDue(t.ctx)
    // The fast endpoint's three arrive while the slow one still holds its answer.
    await rx.until(fast.path, 3)
    await rx.until(slow.path, 1)
    release()
    const summary = await pass
    expect(summary.sent).toBeGreaterThanOrEqual(4)
    expect((await deliveriesOf(slow.id)).map((d) => d.state)).toEqual(['delivered'])
  })

  it('retries on the schedule with the same webhook-id, gives up after the last, and disables an endpoint failing for a day', async () => {
    const branch = await f.agency(agent)
    const ep = await endpoint(branch)
    const [id] = await queueTests(ep.id, 1)
    rx.answer(ep.path, () => ({ status: 500, body: 'down for maintenance' }))
    const waits: number[] = []
    for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length + 1; attempt++) {
      await deliverDue(t.ctx)
      const d = await delivery(id)
      expect(d.attempts).toBe(attempt)
      if (attempt <= RETRY_DELAYS_MS.length) {
        expect(d.state).toBe('pending')
        waits.push(d.next_at.getTime() - d.last_attempt_at!.getTime())
        clock.set(d.next_at)
      } else {
        expect(d.state).toBe('failed')
        expect(d.last_error).toContain('down for maintenance')
      }
    }
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i] * 0.8 - 5)
      expect(w).toBeLessThanOrEqual(RETRY_DELAYS_MS[i] * 1.2 + 5)
    })
    expect(new Set(msgIds(ep.path))).toEqual(new Set([`msg_${id}`]))
    expect(msgIds(ep.path)).toHaveLength(8)
    // Its first failure was more than a day before the last: the endpoint is disabled, and told.
    const cfg = await one<{ push_disabled_reason: string | null }>(
      t.db,
      sql`SELECT push_disabled_reason FROM app_service_configs WHERE id = ${ep.id}`,
    )
    expect(cfg?.push_disabled_reason).toBe('failing')
    const msg = await many<{ msg_type: number; agency_id: number }>(
      t.db,
      sql`SELECT msg_type, agency_id FROM messages WHERE msg_type = ${MsgType.WEBHOOK_DISABLED} AND event_id = ${id}`,
    )
    expect(msg).toEqual([{ msg_type: 6, agency_id: branch.id }])
  })

  it('honours Retry-After on 429 and 503, in seconds or as a date, capped at a day', async () => {
    const ep = await endpoint(await f.agency(agent))
    const [id] = await queueTests(ep.id, 1)
    rx.answer(ep.path, () => ({ status: 429, headers: { 'retry-after': '120' } }))
    await deliverDue(t.ctx)
    let d = await delivery(id)
    expect(d.next_at.getTime() - d.last_attempt_at!.getTime()).toBe(120_000)
    clock.advance(120_000)
    const when = new Date(clock.now().getTime() + 3_600_000)
    rx.answer(ep.path, () => ({ status: 503, headers: { 'retry-after': when.toUTCString() } }))
    await deliverDue(t.ctx)
    d = await delivery(id)
    expect(Math.abs(d.next_at.getTime() - when.getTime())).toBeLessThan(1000)
    clock.set(d.next_at)
    rx.answer(ep.path, () => ({ status: 429, headers: { 'retry-after': String(7 * 86_400) } }))
    await deliverDue(t.ctx)
    d = await delivery(id)
    expect(d.next_at.getTime() - d.last_attempt_at!.getTime()).toBe(86_400_000)
    expect(d.attempts).toBe(3)
  })

  it('410 disables the endpoint and tells its administrators; its deliveries wait and resume in order once enabled', async () => {
    const branch = await f.agency(agent)
    const ep = await endpoint(branch)
    const admin = (await f.signedIn(branch)).token
    const ids = await queueTests(ep.id, 3)
    rx.answer(ep.path, () => ({ status: 410 }))
    await deliverDue(t.ctx)
    expect(msgIds(ep.path)).toEqual([`msg_${ids[0]}`])
    const detail = await t.api(serviceConfigApi.detail, { token: sys, params: { id: ep.id } })
    expect(detail.data.push_disabled).toMatchObject({ reason: 'gone' })
    // Nothing cancelled: all three wait, and nothing goes while it is disabled.
    expect((await deliveriesOf(ep.id)).map((d) => d.state)).toEqual(['pending', 'pending', 'pending'])
    clock.advance(3_600_000)
    await deliverAll()
    expect(msgIds(ep.path)).toHaveLength(1)
    // The organisation's administrator reads it in the message centre.
    const inbox = await t.api(messageApi.list, { token: admin })
    const told = inbox.data.resource.find((m) => m.msg_type === MsgType.WEBHOOK_DISABLED)
    expect(told?.msg_title).toContain(rx.url(ep.path))
    expect(told?.msg_title).toContain('410')
    // Enabled again: the three go, first the one that was answered 410, with its id.
    rx.answer(ep.path, null)
    const enabled = await t.api(serviceConfigApi.update, {
      token: sys,
      params: { id: ep.id },
      body: {
        service: ['event_push', 'device_data_push'],
        state: 1,
        push_url: rx.url(ep.path),
        enable_push: true,
      },
    })
    expect(enabled.data.push_disabled).toBeNull()
    await deliverAll()
    expect(msgIds(ep.path)).toEqual([ids[0], ids[0], ids[1], ids[2]].map((i) => `msg_${i}`))
  })

  it('does not follow a redirect: a 3xx is a failure', async () => {
    const ep = await endpoint(await f.agency(agent))
    const [id] = await queueTests(ep.id, 1)
    rx.answer(ep.path, () => ({ status: 302, headers: { location: '/elsewhere' } }))
    await deliverDue(t.ctx)
    const d = await delivery(id)
    expect(d).toMatchObject({ state: 'pending', attempts: 1, last_status: 302 })
    expect(d.last_error).toContain('redirect not followed')
    expect(rx.of('/elsewhere')).toHaveLength(0)
  })

  it('refuses a private push address at connect time unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const ep = await endpoint(await f.agency(agent))
    const byName = await endpoint(await f.agency(agent))
    await t.db.execute(
      sql`UPDATE app_service_configs SET push_url = ${`http://localhost:${rx.port}${byName.path}`} WHERE id = ${byName.id}`,
    )
    const [a] = await queueTests(ep.id, 1)
    const [b] = await queueTests(byName.id, 1)
    t.ctx.config.WEBHOOK_ALLOW_PRIVATE = false
    try {
      await deliverDue(t.ctx)
    } finally {
      t.ctx.config.WEBHOOK_ALLOW_PRIVATE = true
    }
    expect(rx.of(ep.path)).toHaveLength(0)
    expect(rx.of(byName.path)).toHaveLength(0)
    expect((await delivery(a)).last_error).toMatch(/private address/)
    expect((await delivery(b)).last_error).toMatch(/resolves to .* private address/)
    expect((await delivery(b)).state).toBe('pending')
  })

  it('a receiver down for a while gets everything once it is back, in order, nothing lost', async () => {
    const ep = await endpoint(await f.agency(agent))
    let down = true
    rx.answer(ep.path, () => ({ status: down ? 503 : 200 }))
    const ids: number[] = []
    // Events keep coming while it is down; the sender keeps trying.
    for (let i = 0; i < 6; i++) {
      ids.push(...(await queueTests(ep.id, 5)))
      await deliverAll()
      clock.advance(10 * 60_000)
    }
    expect(new Set(msgIds(ep.path))).toEqual(new Set([`msg_${ids[0]}`]))
    down = false
    clock.advance(RETRY_DELAYS_MS[3] * 1.2)
    await deliverAll()
    const delivered = rx.of(ep.path).filter((_, i, all) => i >= all.length - ids.length)
    expect(delivered.map((r) => r.id)).toEqual(ids.map((i) => `msg_${i}`))
    expect((await deliveriesOf(ep.id)).every((d) => d.state === 'delivered')).toBe(true)
  })

  it('a lease that runs out (an instance crashed mid-send) is sent again with the same id', async () => {
    const ep = await endpoint(await f.agency(agent))
    const [id] = await queueTests(ep.id, 1)
    // As an instance would leave it: leased, then gone before it recorded anything.
    await t.db.execute(
      sql`UPDATE webhook_deliveries SET leased_until = ${new Date(clock.now().getTime() + LEASE_MS).toISOString()}::timestamptz
          WHERE id = ${id}`,
    )
    await deliverDue(t.ctx)
    expect(rx.of(ep.path)).toHaveLength(0)
    clock.advance(LEASE_MS + 1)
    await deliverDue(t.ctx)
    expect(msgIds(ep.path)).toEqual([`msg_${id}`])
    expect(await delivery(id)).toMatchObject({ state: 'delivered', leased_until: null })
  })

  it('two passes at once never send one delivery twice', async () => {
    const eps = [await endpoint(await f.agency(agent)), await endpoint(await f.agency(agent))]
    for (const ep of eps) await queueTests(ep.id, 10)
    await Promise.all([deliverDue(t.ctx), deliverDue(t.ctx), deliverDue(t.ctx)])
    await deliverAll()
    for (const ep of eps) {
      const seen = msgIds(ep.path)
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen).toHaveLength(10)
    }
  })
})

describe('the sender loop', () => {
  it('sends what is queued while it runs, and stops with its batches recorded', async () => {
    const ep = await endpoint(await f.agency(agent))
    const sender = startWebhookSender(t.ctx, { pollMs: 20 })
    try {
      const ids = await queueTests(ep.id, 3)
      await rx.until(ep.path, 3)
      expect(msgIds(ep.path)).toEqual(ids.map((i) => `msg_${i}`))
    } finally {
      await sender.stop()
    }
    expect((await deliveriesOf(ep.id)).map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered'])
    // Stopped: nothing more is sent.
    await queueTests(ep.id, 1)
    await new Promise((r) => setTimeout(r, 100))
    expect(rx.of(ep.path)).toHaveLength(3)
    await deliverAll()
  })
})

describe('the console', () => {
  it('lists the log, resends a delivered one with the same id, sends a test event, and logs both', async () => {
    const ep = await endpoint(await f.agency(agent))
    const test = await t.api(serviceConfigApi.test, { token: sys, params: { id: ep.id } })
    expect(test).toMatchObject({ code: 0, msg: '测试事件已发送' })
    expect(test.data).toMatchObject({
      event: 'webhook.test',
      state: 'pending',
      message_id: `msg_${test.data.id}`,
    })
    await deliverAll()
    const list = await t.api(serviceConfigApi.deliveries, { token: sys, params: { id: ep.id } })
    expect(list.data.count).toBe(1)
    expect(list.data.resource[0]).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 })
    const again = await t.api(serviceConfigApi.resend, {
      token: sys,
      params: { id: ep.id, delivery_id: test.data.id },
    })
    expect(again).toMatchObject({ code: 0, msg: '已重新发送' })
    expect(again.data).toMatchObject({ state: 'pending', attempts: 0, delivered_time: null })
    await deliverAll()
    expect(msgIds(ep.path)).toEqual([test.data.message_id, test.data.message_id])
    const logged = await many<{ type: string }>(
      t.db,
      sql`SELECT operation_type AS type FROM operation_logs WHERE operation_type IN ('重发推送', '测试推送')`,
    )
    expect(logged.length).toBeGreaterThanOrEqual(2)
    // Another configuration's delivery is not found through this one.
    const other = await endpoint(await f.agency(agent))
    const wrong = await t.api(serviceConfigApi.resend, {
      token: sys,
      params: { id: other.id, delivery_id: test.data.id },
    })
    expect(wrong.code).not.toBe(0)
  })

  it('is refused to everyone but system super administrators', async () => {
    const ep = await endpoint(await f.agency(agent))
    const token = await t.login(demo.hzAdmin)
    expect((await t.api(serviceConfigApi.deliveries, { token, params: { id: ep.id } })).code).toBe(-2)
    expect((await t.api(serviceConfigApi.test, { token, params: { id: ep.id } })).code).toBe(-2)
  })

  it('counts deliveries, failed attempts and lag on /metrics', async () => {
    // A delivery due for 30 s and not sent: the lag gauge says so; sent, it drops.
    await deliverAll()
    const ep = await endpoint(await f.agency(agent))
    await queueTests(ep.id, 1)
    clock.advance(30_000)
    await measureLag(t.ctx)
    expect(await webhookLag.get(t.ctx, {})).toBeGreaterThanOrEqual(30)
    await deliverAll()
    await measureLag(t.ctx)
    expect(await webhookLag.get(t.ctx, {})).toBe(0)
    const res = await t.app.inject({ method: 'GET', url: '/metrics' })
    const sent = /^aed_webhook_deliveries_sent_total (\d+)/m.exec(res.body)
    expect(Number(sent?.[1])).toBeGreaterThan(0)
    expect(res.body).toMatch(/^aed_webhook_attempts_failed_total\{reason="status"\} [1-9]/m)
    expect(res.body).toMatch(/^aed_webhook_delivery_lag_seconds_total /m)
    expect(res.body).toMatch(/^aed_webhook_lag_seconds /m)
  })
})

describe('housekeeping', () => {
  it('keeps pending deliveries and deletes settled ones after 30 days', async () => {
    const ep = await endpoint(await f.agency(agent))
    const [kept, gone, young] = await queueTests(ep.id, 3)
    const old = new Date(clock.now().getTime() - 31 * 86_400_000).toISOString()
    await t.db.execute(
      sql`UPDATE webhook_deliveries SET create_time = ${old}::timestamptz WHERE id IN (${kept}, ${gone})`,
    )
    await t.db.execute(sql`UPDATE webhook_deliveries SET state = 'delivered' WHERE id IN (${gone}, ${young})`)
    await housekeepingJob.run(t.ctx, clock.now())
    const left = (await deliveriesOf(ep.id)).map((d) => d.id)
    expect(left).toEqual([kept, young])
  })
})
