import net from 'node:net'
import { deviceCommandApi } from '@aed/contracts/device-command'
import { Aedes } from 'aedes'
import { sql } from 'drizzle-orm'
import { connectAsync, type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { deleteOldNonces } from '../../jobs/housekeeping.repository.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { mqttPassword, mqttUsername } from './mqtt-auth.ts'
import { type ExternalGateway, externalGateways, startExternalGateway } from './mqtt-external.ts'
import { HOOK_SECRET_HEADER, MQTT_ACL_PATH, MQTT_AUTH_PATH } from './mqtt-hooks.routes.ts'

// The external-broker side: the HTTP hooks the broker asks (env.t.call), and the server's own
// client reading a broker (a plain aedes stands in for EMQX, without shared subscriptions).

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

const inbox = (deviceId: number) =>
  many<{ msg_id: string; transport: string }>(
    env.t.db,
    sql`SELECT msg_id, transport FROM device_inbox WHERE sender_id = ${deviceId} ORDER BY id`,
  )

/** What the broker hands the auth hook when the device connects with its password made at `ts`. */
const hookLogin = (d: { sn: string; secret: string }, ts: number) => ({
  clientid: d.sn,
  username: mqttUsername(d.sn, ts),
  password: mqttPassword(d.secret, d.sn, ts),
})

describe('the broker hooks', () => {
  /** The hooks answer `{result}`, not the envelope `env.t.call` types. */
  type Hook = { status: number; result: 'allow' | 'deny' }
  const auth = async (body: Record<string, unknown>) =>
    (await env.t.call('POST', MQTT_AUTH_PATH, { body })) as unknown as Hook
  const acl = async (body: Record<string, unknown>) =>
    (await env.t.call('POST', MQTT_ACL_PATH, { body })) as unknown as Hook

  it('auth: allows the device password, denies anything else, answering exactly {result}', async () => {
    const d = await env.registered()
    const ts = clock.now().getTime()
    const good = hookLogin(d, ts)
    const res = await env.t.app.inject({ method: 'POST', url: MQTT_AUTH_PATH, payload: good })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('{"result":"allow"}')
    expect(await auth({ ...good, password: mqttPassword('0'.repeat(64), d.sn, ts) })).toEqual({
      status: 200,
      result: 'deny',
    })
    const stale = ts - 16 * 60_000
    expect(
      (
        await auth({
          ...good,
          username: mqttUsername(d.sn, stale),
          password: mqttPassword(d.secret, d.sn, stale),
        })
      ).result,
    ).toBe('deny')
    expect((await auth({ ...good, clientid: 'A649999999' })).result).toBe('deny')
    expect((await auth({ clientid: d.sn })).result).toBe('deny')
    const raw = await env.t.app.inject({
      method: 'POST',
      url: MQTT_AUTH_PATH,
      headers: { 'content-type': 'application/json' },
      payload: '{broken',
    })
    expect(raw.body).toBe('{"result":"deny"}')
    // Mosquitto's HTTP auth plugins post forms (a new ts: each password is good for one CONNECT).
    const next = ts + 1
    const form = await env.t.app.inject({
      method: 'POST',
      url: MQTT_AUTH_PATH,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...good,
        username: mqttUsername(d.sn, next),
        password: mqttPassword(d.secret, d.sn, next),
      }).toString(),
    })
    expect(form.json()).toEqual({ result: 'allow' })
  })

  it('auth: allows a password once; the same username and password again is denied, a new ts allowed', async () => {
    const d = await env.registered()
    const login = (ts: number) => hookLogin(d, ts)
    const ts = clock.now().getTime()
    expect((await auth(login(ts))).result).toBe('allow')
    expect((await auth(login(ts))).result).toBe('deny')
    expect((await auth(login(ts + 1))).result).toBe('allow')
    expect((await auth(login(ts + 1))).result).toBe('deny')
    // A device clock 15 minutes ahead: its ts stays good for 30 minutes, and so does the record,
    // through the housekeeping purge.
    const ahead = ts + 15 * 60_000
    expect((await auth(login(ahead))).result).toBe('allow')
    clock.advance(30 * 60_000)
    try {
      await deleteOldNonces(env.t.db, clock.now())
      expect((await auth(login(ahead))).result).toBe('deny')
    } finally {
      clock.advance(-30 * 60_000)
    }
  })

  it('acl: a device publishes to its up topics and subscribes under its down topic only', async () => {
    const d = await env.registered()
    const other = await env.registered()
    const username = mqttUsername(d.sn, clock.now().getTime())
    const may = async (action: string, topic: string, clientid = d.sn) =>
      (await acl({ clientid, username, topic, action })).result
    expect(await may('publish', `aed/v1/${d.sn}/up/heartbeat`)).toBe('allow')
    expect(await may('subscribe', `aed/v1/${d.sn}/down/#`)).toBe('allow')
    expect(await may('subscribe', `aed/v1/${d.sn}/down/cmd`)).toBe('allow')
    expect(await may('publish', `aed/v1/${other.sn}/up/heartbeat`)).toBe('deny')
    expect(await may('publish', `aed/v1/${d.sn}/down/cmd`)).toBe('deny')
    expect(await may('subscribe', `aed/v1/${other.sn}/down/#`)).toBe('deny')
    expect(await may('subscribe', '#')).toBe('deny')
    expect(await may('subscribe', `aed/v1/${d.sn}/down/#`, other.sn)).toBe('deny')
    expect(await may('publish', 'aed/v1/A649999999/up/heartbeat', 'A649999999')).toBe('deny')
    expect(await may('connect', `aed/v1/${d.sn}/up/heartbeat`)).toBe('deny')
  })

  it("the server's own account reads up topics and writes down topics when MQTT_USERNAME/PASSWORD are set", async () => {
    const body = { clientid: 'aedcloud-1', username: 'aedcloud', password: 'server-password' }
    expect((await auth(body)).result).toBe('deny')
    env.t.ctx.config.MQTT_USERNAME = 'aedcloud'
    env.t.ctx.config.MQTT_PASSWORD = 'server-password'
    try {
      expect((await auth(body)).result).toBe('allow')
      expect((await auth({ ...body, password: 'wrong' })).result).toBe('deny')
      const may = async (action: string, topic: string) =>
        (await acl({ clientid: 'aedcloud-1', username: 'aedcloud', topic, action })).result
      expect(await may('subscribe', '$share/aedcloud/aed/v1/+/up/#')).toBe('allow')
      expect(await may('publish', 'aed/v1/A640000001/down/cmd')).toBe('allow')
      expect(await may('publish', 'aed/v1/A640000001/up/heartbeat')).toBe('deny')
      expect(await may('subscribe', '#')).toBe('deny')
    } finally {
      env.t.ctx.config.MQTT_USERNAME = undefined
      env.t.ctx.config.MQTT_PASSWORD = undefined
    }
  })

  it('with MQTT_HOOK_SECRET set, a call without the header is denied', async () => {
    const d = await env.registered()
    const ts = clock.now().getTime()
    const payload = hookLogin(d, ts)
    env.t.ctx.config.MQTT_HOOK_SECRET = 'a-shared-hook-secret'
    try {
      const send = (headers: Record<string, string>) =>
        env.t.app.inject({ method: 'POST', url: MQTT_AUTH_PATH, headers, payload }).then((r) => r.json())
      expect(await send({})).toEqual({ result: 'deny' })
      expect(await send({ [HOOK_SECRET_HEADER]: 'wrong' })).toEqual({ result: 'deny' })
      expect(await send({ [HOOK_SECRET_HEADER]: 'a-shared-hook-secret' })).toEqual({ result: 'allow' })
    } finally {
      env.t.ctx.config.MQTT_HOOK_SECRET = undefined
    }
  })

  it('is not in the OpenAPI document (broker plumbing, not the envelope)', () => {
    const doc = env.t.app.swagger() as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths).filter((p) => p.includes('/mqtt/'))).toEqual([])
  })
})

describe('the server reading an external broker', () => {
  let broker: Aedes
  let server: net.Server
  let port: number
  let gateway: ExternalGateway
  const serverAcks: number[] = []
  const devices: MqttClient[] = []

  beforeAll(async () => {
    broker = await Aedes.createBroker()
    broker.on('ack', (_packet, client) => {
      if (client?.id === 'aedcloud-test') serverAcks.push(Date.now())
    })
    server = net.createServer((s) => broker.handle(s))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    port = (server.address() as net.AddressInfo).port
    gateway = startExternalGateway(env.t.ctx, {
      url: `mqtt://127.0.0.1:${port}`,
      clientId: 'aedcloud-test',
      subscription: 'aed/v1/+/up/#',
      deliverDelayMs: 50,
      client: { reconnectPeriod: 100 },
    })
    await gateway.ready
  })
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.endAsync(true)))
    await gateway?.close()
    await new Promise<void>((r) => broker.close(() => r()))
    await new Promise<void>((r) => server.close(() => r()))
  })

  async function device(sn: string) {
    const c = await connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: sn, reconnectPeriod: 0 })
    devices.push(c)
    return c
  }

  it('stores what the broker hands over, and acknowledges it to the broker only after the commit', async () => {
    const d = await env.registered()
    const c = await device(d.sn)
    const acksBefore = serverAcks.length
    // Every transaction waits a little before it commits: an acknowledgement before the commit would show.
    const db = env.t.ctx.db
    const original = db.transaction.bind(db)
    let committed = 0
    db.transaction = ((fn: (tx: unknown) => Promise<unknown>, config?: unknown) =>
      original(async (tx) => {
        const r = await fn(tx)
        await new Promise((resolve) => setTimeout(resolve, 150))
        return r
      }, config as never).then((r) => {
        committed = Date.now()
        return r
      })) as typeof db.transaction
    try {
      const hb = d.msg('heartbeat', { battery: 77 })
      await c.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, JSON.stringify(hb), { qos: 1 })
      await expect.poll(() => serverAcks.length).toBe(acksBefore + 1)
      expect(committed).toBeGreaterThan(0)
      expect(serverAcks[acksBefore]).toBeGreaterThanOrEqual(committed)
      expect(await inbox(d.id)).toEqual([{ msg_id: hb.id, transport: 'mqtt' }])
    } finally {
      db.transaction = original as typeof db.transaction
    }
  })

  it('does not acknowledge what it could not store; the broker hands it over again', async () => {
    const d = await env.registered()
    const c = await device(d.sn)
    const lookup = env.t.ctx.deviceCredentials
    let failures = 0
    env.t.ctx.deviceCredentials = async (sn) => {
      if (sn === d.sn && failures === 0) {
        failures++
        throw new Error('database unavailable')
      }
      return lookup(sn)
    }
    try {
      const st = d.msg('selftest', { report_type: 1, result: 'pass', fault_codes: [] })
      await c.publishAsync(`aed/v1/${d.sn}/up/selftest`, JSON.stringify(st), { qos: 1 })
      await expect.poll(() => inbox(d.id), { timeout: 5000 }).toEqual([{ msg_id: st.id, transport: 'mqtt' }])
      expect(failures).toBe(1)
    } finally {
      env.t.ctx.deviceCredentials = lookup
    }
  })

  it('acknowledges and drops a malformed message (telling the device why) and one of an unknown device', async () => {
    const d = await env.registered()
    const c = await device(d.sn)
    const told: Record<string, unknown>[] = []
    c.on('message', (topic, payload) => {
      if (topic.endsWith('/down/result')) told.push(JSON.parse(payload.toString()))
    })
    await c.subscribeAsync(`aed/v1/${d.sn}/down/#`, { qos: 1 })
    await c.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, '{not json', { qos: 1 })
    await c.publishAsync(
      'aed/v1/A649999999/up/heartbeat',
      JSON.stringify(d.msg('heartbeat', { battery: 5 })),
      {
        qos: 1,
      },
    )
    const hb = d.msg('heartbeat', { battery: 60 })
    await c.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, JSON.stringify(hb), { qos: 1 })
    await expect.poll(() => inbox(d.id)).toEqual([{ msg_id: hb.id, transport: 'mqtt' }])
    await expect
      .poll(() => told)
      .toEqual([
        {
          id: null,
          result: 'refused',
          code: 'invalid',
          field: '(message)',
          reason: 'payload is not JSON in UTF-8',
        },
      ])
  })

  it('publishes a new command to the down topic, and what waits when the ACL hook lets the device subscribe', async () => {
    const d = await env.registered()
    const c = await device(d.sn)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/cmd`, { qos: 1 })
    const got: Record<string, unknown>[] = []
    c.on('message', (_topic, payload) => got.push(JSON.parse(payload.toString())))
    const first = await env.t.api(deviceCommandApi.send, {
      token: env.admin,
      params: { id: d.id },
      body: { name: 'selftest' },
    })
    await expect.poll(() => got.map((g) => g.cmd_id)).toEqual([first.data.cmd_id])

    // A device that subscribes later (told by the ACL hook) gets what is still unanswered.
    const username = mqttUsername(d.sn, clock.now().getTime())
    expect(externalGateways.get(env.t.ctx)).toBe(gateway)
    const r = await env.t.call('POST', MQTT_ACL_PATH, {
      body: { clientid: d.sn, username, topic: `aed/v1/${d.sn}/down/#`, action: 'subscribe' },
    })
    expect(r).toMatchObject({ result: 'allow' })
    await expect.poll(() => got.length).toBe(2)
    expect(got[1]).toMatchObject({ cmd_id: first.data.cmd_id, name: 'selftest' })
  })
})
