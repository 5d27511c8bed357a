import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { deviceApi } from '@aed/contracts/device'
import { deviceCommandApi } from '@aed/contracts/device-command'
import { sql } from 'drizzle-orm'
import { connectAsync, type MqttClient } from 'mqtt'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { demo } from '../../test/harness.ts'
import { brokerTestFile } from '../../test/mqtt.ts'
import { switchedLink } from '../../test/switched-link.ts'
import { mqttPassword, mqttUsername } from './mqtt-auth.ts'
import { type EmbeddedBroker, startEmbeddedBroker } from './mqtt-broker.ts'
import { startMqtt } from './mqtt-gateway.ts'

// The embedded broker end to end, with a real mqtt.js client on a free port: CONNECT
// credentials, PUBACK only after the commit, topic rules, malformed and duplicate messages,
// and commands reaching a connected device.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = brokerTestFile(clock)
type Link = Awaited<ReturnType<typeof env.registered>>

const url = (on: EmbeddedBroker = env.broker) => `mqtt://127.0.0.1:${on.ports.mqtt}`

/**
 * A new ts for each connection, as a device makes one: a password is good for one CONNECT,
 * and the test clock stands still.
 */
let connections = 0
const freshTs = () => clock.now().getTime() + ++connections

/** Connects as a device (its own credentials unless told otherwise); no reconnecting. */
async function connectAs(
  sn: string,
  secret: string,
  o: { ts?: number; clientId?: string; password?: string; on?: EmbeddedBroker } = {},
) {
  const ts = o.ts ?? freshTs()
  const c = await connectAsync(url(o.on), {
    clientId: o.clientId ?? sn,
    username: mqttUsername(sn, ts),
    password: o.password ?? mqttPassword(secret, sn, ts),
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  })
  env.clients.push(c)
  return c
}

/** The CONNACK refusal of a CONNECT, or null when it was accepted. */
async function refusal(sn: string, secret: string, o: Parameters<typeof connectAs>[2] = {}) {
  try {
    await connectAs(sn, secret, o)
    return null
  } catch (e) {
    return (e as { code?: number }).code ?? (e as Error).message
  }
}

/** Resolves when the connection closes; rejects after `ms`. */
function closed(c: MqttClient, ms = 5000) {
  return new Promise<void>((resolve, reject) => {
    if (c.disconnected) return resolve()
    const timer = setTimeout(() => reject(new Error('still connected')), ms)
    c.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

const inbox = (deviceId: number) =>
  many<{ msg_id: string; type: string; transport: string }>(
    env.t.db,
    sql`SELECT msg_id, type, transport FROM device_inbox WHERE sender_id = ${deviceId} ORDER BY id`,
  )

/** What a device hears on its down/result topic, in order; `next(n)` waits for n more. */
function results(c: MqttClient) {
  const heard: Record<string, string | null>[] = []
  let taken = 0
  c.on('message', (topic, payload) => {
    if (topic.endsWith('/down/result')) heard.push(JSON.parse(payload.toString()))
  })
  return {
    async next(n: number, ms = 5000) {
      const until = Date.now() + ms
      while (heard.length < taken + n) {
        if (Date.now() > until) throw new Error(`heard ${heard.length - taken} of ${n} results`)
        await new Promise((r) => setImmediate(r))
      }
      taken += n
      return heard.slice(taken - n, taken)
    },
  }
}

function publish(c: MqttClient, topic: string, body: unknown) {
  return c.publishAsync(topic, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 })
}

describe('CONNECT', () => {
  it('accepts the device password and the previous secret during its 24 hours', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    expect(c.connected).toBe(true)
    const rotated = await env.t.api(deviceApi.rotateCredential, {
      token: await env.t.login(demo.superAdmin),
      params: { id: d.id },
    })
    expect(rotated.code).toBe(0)
    expect(rotated.data.secret).not.toBe(d.secret)
    expect((await connectAs(d.sn, rotated.data.secret)).connected).toBe(true)
    expect((await connectAs(d.sn, d.secret)).connected).toBe(true)
    clock.advance(24 * 3600_000 + 1000)
    try {
      expect(await refusal(d.sn, d.secret)).toBe(5)
      expect((await connectAs(d.sn, rotated.data.secret)).connected).toBe(true)
    } finally {
      clock.advance(-(24 * 3600_000 + 1000))
    }
  })

  it('refuses a bad password, a stale ts, an unknown serial and a client id that is not the serial', async () => {
    const d = await env.registered()
    const other = await env.registered()
    expect(await refusal(d.sn, other.secret)).toBe(5)
    expect(await refusal(d.sn, d.secret, { ts: clock.now().getTime() - 16 * 60_000 })).toBe(5)
    expect(await refusal(d.sn, d.secret, { ts: clock.now().getTime() + 16 * 60_000 })).toBe(5)
    expect(await refusal('A649999999', d.secret)).toBe(5)
    expect(await refusal(d.sn, d.secret, { clientId: other.sn })).toBe(5)
    expect(await refusal(d.sn, d.secret, { password: 'x' })).toBe(5)
  })

  it('accepts a password once: the same username and password again is refused, here and on another instance', async () => {
    const d = await env.registered()
    const ts = freshTs()
    const first = await connectAs(d.sn, d.secret, { ts })
    expect(first.connected).toBe(true)
    // Replayed while the device is connected: refused, and the device is not knocked off.
    expect(await refusal(d.sn, d.secret, { ts })).toBe(5)
    expect(first.connected).toBe(true)
    await first.endAsync()
    expect(await refusal(d.sn, d.secret, { ts })).toBe(5)
    // The record is in the database: another instance sharing it (or this one restarted) refuses too.
    const rows = await many<{ nonce: string }>(
      env.t.db,
      sql`SELECT nonce FROM device_nonces WHERE device_sn = ${d.sn}`,
    )
    expect(rows).toEqual([{ nonce: `mqtt ${ts}` }])
    const other = await startEmbeddedBroker(env.t.ctx, { port: 0, host: '127.0.0.1' })
    try {
      expect(await refusal(d.sn, d.secret, { ts, on: other })).toBe(5)
      // A new ts is a new password: reconnecting costs the device nothing.
      expect((await connectAs(d.sn, d.secret, { on: other })).connected).toBe(true)
      expect((await connectAs(d.sn, d.secret)).connected).toBe(true)
    } finally {
      await other.close()
    }
  })
})

describe('PUBLISH', () => {
  it('answers PUBACK only after the message is committed (heartbeat and self-test)', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    // Every transaction waits a little before it commits: a PUBACK before the commit would show.
    const db = env.t.ctx.db
    const original = db.transaction.bind(db)
    db.transaction = ((fn: (tx: unknown) => Promise<unknown>, config?: unknown) =>
      original(async (tx) => {
        const r = await fn(tx)
        await new Promise((resolve) => setTimeout(resolve, 150))
        return r
      }, config as never)) as typeof db.transaction
    try {
      const hb = d.msg('heartbeat', { battery: 88, rssi: -70 })
      const started = Date.now()
      await publish(c, `aed/v1/${d.sn}/up/heartbeat`, hb)
      expect(Date.now() - started).toBeGreaterThanOrEqual(140)
      // Read at the moment PUBACK arrived: the row is there.
      expect(await inbox(d.id)).toEqual([{ msg_id: hb.id, type: 'heartbeat', transport: 'mqtt' }])

      const st = d.msg('selftest', { report_type: 1, result: 'pass', fault_codes: [], battery: 88 })
      await publish(c, `aed/v1/${d.sn}/up/selftest`, st)
      expect((await inbox(d.id)).map((r) => r.msg_id)).toEqual([hb.id, st.id])
    } finally {
      db.transaction = original as typeof db.transaction
    }
    const detections = await many<{ report_type: number; check_result: number }>(
      env.t.db,
      sql`SELECT report_type, check_result FROM device_detections WHERE device_id = ${d.id}`,
    )
    expect(detections).toEqual([{ report_type: 1, check_result: 1 }])
    const row = await one<{ battery: number | null }>(
      env.t.db,
      sql`SELECT battery FROM devices WHERE id = ${d.id}`,
    )
    expect(row?.battery).toBe(88)
  })

  it("refuses another device's topic and a wrong topic: no PUBACK, the connection closes, nothing stored", async () => {
    const d = await env.registered()
    const other = await env.registered()
    for (const topic of [`aed/v1/${other.sn}/up/heartbeat`, `aed/v1/${d.sn}/down/cmd`, 'elsewhere']) {
      const c = await connectAs(d.sn, d.secret)
      let pubacked = false
      publish(c, topic, d.msg('heartbeat', { battery: 50 })).then(
        () => {
          pubacked = true
        },
        () => {},
      )
      await closed(c)
      expect(pubacked, topic).toBe(false)
    }
    expect(await inbox(d.id)).toEqual([])
    expect(await inbox(other.id)).toEqual([])
  })

  it('refuses a malformed payload, and a type that is not the topic type: PUBACK, the reason on down/result, nothing stored', async () => {
    const d = await env.registered()
    const bodies: [string, unknown, string][] = [
      ['heartbeat', '{not json', '(message)'],
      ['heartbeat', d.msg('heartbeat', { battery: 101 }), 'data.battery'],
      ['heartbeat', [d.msg('heartbeat', { battery: 50 })], '(message)'],
      ['selftest', d.msg('heartbeat', { battery: 50 }), 'type'],
      [
        'selftest',
        d.msg('selftest', { report_type: 1, result: 'fail', battery_expire: '2027-02-31' }),
        'data.battery_expire',
      ],
      ['heartbeat', d.msg('heartbeat', { battery: 50, note: 'a\ud800' }), 'data.note'],
    ]
    const c = await connectAs(d.sn, d.secret)
    const told = results(c)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/#`, { qos: 1 })
    for (const [type, body] of bodies) await publish(c, `aed/v1/${d.sn}/up/${type}`, body)
    const answers = await told.next(bodies.length)
    expect(answers.map((a) => [a.result, a.code, a.field])).toEqual(
      bodies.map(([, , field]) => ['refused', 'invalid', field]),
    )
    expect(c.connected).toBe(true)
    expect(await inbox(d.id)).toEqual([])
    // The same connection goes on: a good message is taken afterwards.
    await publish(c, `aed/v1/${d.sn}/up/heartbeat`, d.msg('heartbeat', { battery: 50 }))
    expect(await inbox(d.id)).toHaveLength(1)
  })

  it('takes only QoS 1, not retained, up to 64 KiB a message; a packet over 1 MiB ends the connection', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    const told = results(c)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/result`, { qos: 1 })
    const topic = `aed/v1/${d.sn}/up/heartbeat`
    const q0 = d.msg('heartbeat', { battery: 50 })
    await c.publishAsync(topic, JSON.stringify(q0), { qos: 0 })
    const q2 = d.msg('heartbeat', { battery: 50 })
    await c.publishAsync(topic, JSON.stringify(q2), { qos: 2 })
    const kept = d.msg('heartbeat', { battery: 50 })
    await c.publishAsync(topic, JSON.stringify(kept), { qos: 1, retain: true })
    const big = d.msg('heartbeat', { battery: 50, blob: 'x'.repeat(70 * 1024) })
    await publish(c, topic, big)
    expect((await told.next(4)).map((a) => [a.id, a.code])).toEqual([
      [q0.id, 'qos'],
      [q2.id, 'qos'],
      [kept.id, 'retained'],
      [big.id, 'too_large'],
    ])
    expect(await inbox(d.id)).toEqual([])
    // A packet larger than a whole request may be is not even read: the connection ends.
    c.publish(topic, Buffer.alloc(2 * 1024 * 1024, 0x20), { qos: 1 })
    await closed(c)
    expect(await inbox(d.id)).toEqual([])
  })

  it('answers a message older than the device state as stale on down/result, and a reused (boot, seq) as refused', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    const told = results(c)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/#`, { qos: 1 })
    const topic = (type: string) => `aed/v1/${d.sn}/up/${type}`
    await publish(c, topic('selftest'), d.msg('selftest', { report_type: 0, result: 'pass' }, { seq: 10 }))
    const old = d.msg('heartbeat', { battery: 40 }, { seq: 3 })
    await publish(c, topic('heartbeat'), old)
    const reused = d.msg('heartbeat', { battery: 2 }, { seq: 10 })
    await publish(c, topic('heartbeat'), reused)
    expect((await told.next(2)).map((a) => [a.id, a.result, a.code])).toEqual([
      [old.id, 'stale', 'stale'],
      [reused.id, 'refused', 'seq_reused'],
    ])
    expect((await inbox(d.id)).map((r) => r.msg_id)).not.toContain(reused.id)
  })

  it('acknowledges a repeated message id and processes it once', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    const st = d.msg('selftest', { report_type: 2, result: 'fail', fault_codes: ['E02'] })
    await publish(c, `aed/v1/${d.sn}/up/selftest`, st)
    await publish(c, `aed/v1/${d.sn}/up/selftest`, st)
    expect(await inbox(d.id)).toHaveLength(1)
    const n = await one<{ n: number }>(
      env.t.db,
      sql`SELECT count(*) AS n FROM device_detections WHERE device_id = ${d.id}`,
    )
    expect(n?.n).toBe(1)
  })

  it('keeps one device’s messages in the order they were sent', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    const sent = Array.from({ length: 5 }, (_, i) => d.msg('heartbeat', { battery: 90 - i }))
    await Promise.all(sent.map((m) => publish(c, `aed/v1/${d.sn}/up/heartbeat`, m)))
    expect((await inbox(d.id)).map((r) => r.msg_id)).toEqual(sent.map((m) => m.id))
    const row = await one<{ battery: number | null }>(
      env.t.db,
      sql`SELECT battery FROM devices WHERE id = ${d.id}`,
    )
    expect(row?.battery).toBe(86)
  })
})

describe('SUBSCRIBE and commands', () => {
  /** The next command the client receives on its down topic. */
  function nextCommand(c: MqttClient, ms = 5000) {
    return new Promise<{ topic: string; body: Record<string, unknown>; qos: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no command')), ms)
      c.once('message', (topic, payload, packet) => {
        clearTimeout(timer)
        resolve({ topic, body: JSON.parse(payload.toString()), qos: packet.qos })
      })
    })
  }

  it("grants the device's own down topic and refuses any other filter", async () => {
    const d = await env.registered()
    const other = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    const granted = await c.subscribeAsync(`aed/v1/${d.sn}/down/#`, { qos: 1 })
    expect(granted.map((g) => [g.topic, g.qos])).toEqual([[`aed/v1/${d.sn}/down/#`, 1]])
    // A refused filter answers SUBACK 0x80 (mqtt.js rejects it); the connection stays.
    for (const filter of [`aed/v1/${other.sn}/down/#`, `aed/v1/${d.sn}/up/#`, '#', 'aed/v1/+/down/cmd']) {
      await expect(c.subscribeAsync(filter, { qos: 1 }), filter).rejects.toThrow(/Subscribe error/)
    }
    expect(c.connected).toBe(true)
  })

  it('a command created in the console reaches the connected, subscribed device at once', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/cmd`, { qos: 1 })
    await expect.poll(() => env.broker.reaches(d.sn)).toBe(true)
    const arriving = nextCommand(c)
    const sent = await env.t.api(deviceCommandApi.send, {
      token: env.admin,
      params: { id: d.id },
      body: { name: 'selftest' },
    })
    expect(sent.code).toBe(0)
    const got = await arriving
    expect(got.topic).toBe(`aed/v1/${d.sn}/down/cmd`)
    expect(got.qos).toBe(1)
    expect(got.body).toEqual({
      cmd_id: sent.data.cmd_id,
      name: 'selftest',
      args: {},
      expires_at: expect.any(String),
    })
    expect(new Date(got.body.expires_at as string).getTime()).toBeGreaterThan(clock.now().getTime())
    const list = await env.t.api(deviceCommandApi.list, { token: env.admin, params: { id: d.id } })
    expect(list.data[0]).toMatchObject({ cmd_id: sent.data.cmd_id, state: 'sent' })
    // The device answers over MQTT: the command is done.
    const ack = d.msg('ack', { cmd_id: sent.data.cmd_id, ok: true })
    await publish(c, `aed/v1/${d.sn}/up/ack`, ack)
    const after = await env.t.api(deviceCommandApi.list, { token: env.admin, params: { id: d.id } })
    expect(after.data[0]).toMatchObject({ cmd_id: sent.data.cmd_id, state: 'done' })
  })

  it('a command waiting while the device was away is delivered when it subscribes', async () => {
    const d = await env.registered()
    const sent = await env.t.api(deviceCommandApi.send, {
      token: env.admin,
      params: { id: d.id },
      body: { name: 'locate' },
    })
    expect(sent.code).toBe(0)
    const c = await connectAs(d.sn, d.secret)
    const arriving = nextCommand(c)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/#`, { qos: 1 })
    const got = await arriving
    expect(got.body).toMatchObject({ cmd_id: sent.data.cmd_id, name: 'locate' })
  })

  it('no longer counts a device as reachable once it disconnects', async () => {
    const d = await env.registered()
    const c = await connectAs(d.sn, d.secret)
    await c.subscribeAsync(`aed/v1/${d.sn}/down/cmd`, { qos: 1 })
    await expect.poll(() => env.broker.reaches(d.sn)).toBe(true)
    await c.endAsync()
    await expect.poll(() => env.broker.reaches(d.sn)).toBe(false)
    // The command stays waiting for the next connection or HTTPS call.
    const sent = await env.t.api(deviceCommandApi.send, {
      token: env.admin,
      params: { id: d.id },
      body: { name: 'selftest' },
    })
    const list = await env.t.api(deviceCommandApi.list, { token: env.admin, params: { id: d.id } })
    expect(list.data[0]).toMatchObject({ cmd_id: sent.data.cmd_id, state: 'pending' })
  })
})

describe('closing', () => {
  it('closes every client and stops accepting', async () => {
    const own = await startEmbeddedBroker(env.t.ctx, { port: 0, host: '127.0.0.1' })
    const d: Link = await env.registered()
    const ts = freshTs()
    const c = await connectAsync(`mqtt://127.0.0.1:${own.ports.mqtt}`, {
      clientId: d.sn,
      username: mqttUsername(d.sn, ts),
      password: mqttPassword(d.secret, d.sn, ts),
      reconnectPeriod: 0,
    })
    env.clients.push(c)
    const gone = closed(c)
    await own.close()
    await gone
    await expect(
      connectAsync(`mqtt://127.0.0.1:${own.ports.mqtt}`, { reconnectPeriod: 0, connectTimeout: 1000 }),
    ).rejects.toThrow()
  })
})

describe('a database link found down', () => {
  it('disconnects its devices and refuses connections until the link is up, then takes them again', async () => {
    const saved = env.t.ctx.database.link
    const link = switchedLink()
    env.t.ctx.database.link = link.link
    const own = await startEmbeddedBroker(env.t.ctx, { port: 0, host: '127.0.0.1' })
    try {
      const d: Link = await env.registered()
      const c = await connectAs(d.sn, d.secret, { on: own })
      const gone = closed(c)
      link.set(false)
      await gone
      // Refused at the TCP level: a balancer in front sends the device to another instance.
      const refused = await new Promise<string>((resolve) => {
        const s = net.connect(own.ports.mqtt, '127.0.0.1')
        s.once('connect', () => {
          s.destroy()
          resolve('connected')
        })
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
      })
      expect(refused).toBe('ECONNREFUSED')
      link.set(true)
      await expect
        .poll(async () => (await connectAs(d.sn, d.secret, { on: own }).catch(() => null))?.connected)
        .toBe(true)
    } finally {
      env.t.ctx.database.link = saved
      await own.close()
    }
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
    s.once('error', reject)
  })
}

describe('MQTT over TLS', () => {
  it('listens on MQTT_TLS_PORT with a certificate generated at the first start, and the next start reuses it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-mqtt-tls-'))
    /** The server's MQTT side as main.ts starts it, with no certificate configured. */
    const start = async () => {
      const config = {
        ...env.t.ctx.config,
        dataDir,
        HOST: '127.0.0.1',
        MQTT_URL: undefined,
        MQTT_PORT: await freePort(),
        MQTT_TLS_PORT: await freePort(),
        MQTT_TLS_CERT: undefined,
        MQTT_TLS_KEY: undefined,
      }
      const gateway = await startMqtt({ ...env.t.ctx, config })
      if (!gateway?.tls) throw new Error('no TLS listener')
      return { gateway, tls: gateway.tls, port: config.MQTT_TLS_PORT }
    }
    const d: Link = await env.registered()
    const login = () => {
      const ts = freshTs()
      return {
        clientId: d.sn,
        username: mqttUsername(d.sn, ts),
        password: mqttPassword(d.secret, d.sn, ts),
        protocolVersion: 4 as const,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      }
    }
    try {
      const first = await start()
      let ca: Buffer
      try {
        expect(first.tls).toMatchObject({
          selfSigned: true,
          created: true,
          certPath: path.join(dataDir, 'secrets', 'mqtt-tls-cert.pem'),
          keyPath: path.join(dataDir, 'secrets', 'mqtt-tls-key.pem'),
        })
        expect(first.gateway.describe).toContain(`mqtts://localhost:${first.port}`)
        ca = fs.readFileSync(first.tls.certPath)
        expect(first.tls.fingerprint).toBe(new crypto.X509Certificate(ca).fingerprint256)
        expect(first.tls.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)

        // A real client trusting the generated certificate: CONNECT, PUBLISH, PUBACK after the commit.
        const c = await connectAsync(`mqtts://127.0.0.1:${first.port}`, { ...login(), ca })
        env.clients.push(c)
        const hb = d.msg('heartbeat', { battery: 77, rssi: -60 })
        await publish(c, `aed/v1/${d.sn}/up/heartbeat`, hb)
        expect(await inbox(d.id)).toEqual([{ msg_id: hb.id, type: 'heartbeat', transport: 'mqtt' }])
        await c.endAsync()
        // A client that does not trust it stops at the handshake, before any password is sent.
        await expect(connectAsync(`mqtts://127.0.0.1:${first.port}`, login())).rejects.toThrow(
          /self[- ]signed/i,
        )
      } finally {
        await first.gateway.close()
      }

      const second = await start()
      try {
        expect(second.tls).toMatchObject({ created: false, fingerprint: first.tls.fingerprint })
        expect(fs.readFileSync(second.tls.certPath)).toEqual(ca)
        const c = await connectAsync(`mqtts://127.0.0.1:${second.port}`, { ...login(), ca })
        env.clients.push(c)
        expect(c.connected).toBe(true)
      } finally {
        await second.gateway.close()
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
