import { SHARED_SUBSCRIPTION } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import { connectAsync, type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { hasMosquitto, type Mosquitto, startMosquitto } from '../../test/mosquitto.ts'
import { switchedLink } from '../../test/switched-link.ts'
import { type ExternalGateway, startExternalGateway } from './mqtt-external.ts'

// The server's consumers of the shared subscription on a real Mosquitto: several connections per
// instance, so the engine stores several messages at once, each acknowledged after its commit.

const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock)

describe.skipIf(!hasMosquitto)('consumers of the shared subscription on Mosquitto', () => {
  let broker: Mosquitto
  let gateway: ExternalGateway
  let publisher: MqttClient
  const seen = new Map<string, number>()
  let inFlight = 0
  let mostInFlight = 0

  beforeAll(async () => {
    broker = await startMosquitto()
    // Each lookup holds its message a moment, so overlapping messages show as several in flight.
    const lookup = env.t.ctx.deviceCredentials
    env.t.ctx.deviceCredentials = async (sn) => {
      inFlight++
      mostInFlight = Math.max(mostInFlight, inFlight)
      try {
        await new Promise((r) => setTimeout(r, 5))
        return await lookup(sn)
      } finally {
        inFlight--
      }
    }
    gateway = startExternalGateway(env.t.ctx, {
      url: broker.url,
      clientId: 'aedcloud-consumers',
      subscription: SHARED_SUBSCRIPTION,
      consumers: 4,
      client: { reconnectPeriod: 100 },
      sessions: { sweepMs: 100 },
    })
    for (const c of gateway.consumers)
      c.on('message', () =>
        seen.set(String(c.options.clientId), (seen.get(String(c.options.clientId)) ?? 0) + 1),
      )
    await gateway.ready
    publisher = await connectAsync(broker.url, { clientId: 'publisher', reconnectPeriod: 0 })
  })
  afterAll(async () => {
    await publisher?.endAsync(true)
    await gateway?.close()
    await broker?.stop()
  })

  it('reads with several connections at once, and stores every message once', async () => {
    expect(gateway.consumers.map((c) => c.options.clientId)).toEqual([
      'aedcloud-consumers',
      'aedcloud-consumers-2',
      'aedcloud-consumers-3',
      'aedcloud-consumers-4',
    ])
    const devices = await Promise.all(Array.from({ length: 8 }, () => env.registered()))
    const sent: Promise<unknown>[] = []
    for (let k = 0; k < 10; k++) {
      for (const d of devices) {
        const hb = d.msg('heartbeat', { battery: 90 - k })
        sent.push(publisher.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, JSON.stringify(hb), { qos: 1 }))
      }
    }
    await Promise.all(sent)
    const ids = devices.map((d) => d.id)
    const stored = () =>
      one<{ n: number; distinct: number }>(
        env.t.db,
        sql`SELECT count(*)::int AS n, count(DISTINCT msg_id)::int AS distinct
            FROM device_inbox WHERE sender_id IN ${sql.raw(`(${ids.join(',')})`)} AND transport = 'mqtt'`,
      )
    await expect.poll(stored, { timeout: 15_000 }).toEqual({ n: 80, distinct: 80 })
    // Every connection of the group got a share, and more than one message was stored at a time.
    expect([...seen.values()].filter((n) => n > 0)).toHaveLength(4)
    expect(mostInFlight).toBeGreaterThan(1)
  })

  it("adopts a silent instance's sessions and stores what the broker kept for them", async () => {
    const sessions = () =>
      many<{ client_id: string; holder: string }>(
        env.t.db,
        sql`SELECT client_id, holder FROM mqtt_sessions WHERE client_id LIKE 'inst-%' ORDER BY client_id`,
      )
    // Instance A reads with two sessions, then falls silent: its connections end, the broker
    // keeps its sessions in the group and its share of what comes next.
    const a = startExternalGateway(env.t.ctx, {
      url: broker.url,
      clientId: 'inst-a',
      subscription: SHARED_SUBSCRIPTION,
      consumers: 2,
      sessions: { sweepMs: 100 },
    })
    await a.ready
    await expect.poll(sessions).toEqual([
      { client_id: 'inst-a', holder: 'inst-a' },
      { client_id: 'inst-a-2', holder: 'inst-a' },
    ])
    await a.close()
    const devices = await Promise.all(Array.from({ length: 6 }, () => env.registered()))
    const sent: Promise<unknown>[] = []
    for (let k = 0; k < 10; k++)
      for (const d of devices)
        sent.push(
          publisher.publishAsync(
            `aed/v1/${d.sn}/up/heartbeat`,
            JSON.stringify(d.msg('heartbeat', { battery: 50 + k })),
            { qos: 1 },
          ),
        )
    await Promise.all(sent)
    // Instance B notices A's marks are old, drains A's sessions and ends them.
    const b = startExternalGateway(env.t.ctx, {
      url: broker.url,
      clientId: 'inst-b',
      subscription: SHARED_SUBSCRIPTION,
      consumers: 1,
      sessions: { sweepMs: 100, staleMs: 1000, quietMs: 300 },
    })
    try {
      await b.ready
      const ids = devices.map((d) => d.id)
      await expect
        .poll(
          async () =>
            (
              await one<{ n: number }>(
                env.t.db,
                sql`SELECT count(DISTINCT msg_id)::int AS n FROM device_inbox
                    WHERE sender_id IN ${sql.raw(`(${ids.join(',')})`)}`,
              )
            )?.n,
          { timeout: 20_000 },
        )
        .toBe(60)
      await expect.poll(sessions, { timeout: 10_000 }).toEqual([{ client_id: 'inst-b', holder: 'inst-b' }])
    } finally {
      await b.close()
    }
  })

  it('keeps one connection on a plain subscription, where each would get every message', () => {
    const plain = startExternalGateway(env.t.ctx, {
      url: broker.url,
      clientId: 'aedcloud-plain',
      subscription: 'aed/v1/+/up/#',
      consumers: 4,
    })
    expect(plain.consumers).toHaveLength(1)
    return plain.close()
  })

  it("stores one device's messages in the order they came, however many are under way", async () => {
    // The only reader: the file's instance leaves, so nobody else stores these first.
    await gateway.close()
    const lookup = env.t.ctx.deviceCredentials
    const single = startExternalGateway(env.t.ctx, {
      url: broker.url,
      clientId: 'aedcloud-single',
      subscription: SHARED_SUBSCRIPTION.replace('$share/aedcloud/', '$share/single/'),
      sessions: { sweepMs: 100 },
    })
    try {
      await single.ready
      expect(single.consumers).toHaveLength(1)
      const d = await env.registered()
      // The first message's lookup is slow: without keeping a device's messages in line, the
      // next ones would be stored before it.
      let slow = true
      env.t.ctx.deviceCredentials = async (sn) => {
        if (sn === d.sn && slow) {
          slow = false
          await new Promise((r) => setTimeout(r, 300))
        }
        return lookup(sn)
      }
      const ids: string[] = []
      const sent: Promise<unknown>[] = []
      for (let k = 0; k < 30; k++) {
        const m = d.msg('heartbeat', { battery: 99 - k })
        ids.push(m.id)
        sent.push(publisher.publishAsync(`aed/v1/${d.sn}/up/${m.type}`, JSON.stringify(m), { qos: 1 }))
      }
      await Promise.all(sent)
      const order = () =>
        many<{ msg_id: string }>(
          env.t.db,
          sql`SELECT msg_id FROM device_inbox WHERE sender_id = ${d.id} ORDER BY id`,
        ).then((rows) => rows.map((r) => r.msg_id))
      await expect.poll(order, { timeout: 15_000 }).toEqual(ids)
    } finally {
      await single.close()
      env.t.ctx.deviceCredentials = lookup
    }
  })
})

/** A gateway on the shared subscription that reconnects and sweeps sessions quickly. */
const quickGateway = (broker: Mosquitto, clientId: string) =>
  startExternalGateway(env.t.ctx, {
    url: broker.url,
    clientId,
    subscription: SHARED_SUBSCRIPTION,
    client: { reconnectPeriod: 50 },
    sessions: { sweepMs: 100 },
  })

/** The ids of a device's messages in the inbox, in the order stored. */
const storedIds = async (deviceId: number) =>
  (
    await many<{ msg_id: string }>(
      env.t.db,
      sql`SELECT msg_id FROM device_inbox WHERE sender_id = ${deviceId} ORDER BY id`,
    )
  ).map((x) => x.msg_id)

describe.skipIf(!hasMosquitto)('a Mosquitto restart', () => {
  it('subscribes again on the resumed session, which Mosquitto 2.0.11 restores without it', async () => {
    const broker = await startMosquitto(['persistence true'])
    const gateway = quickGateway(broker, 'aedcloud-restart')
    try {
      await gateway.ready
      const resumed = new Promise<boolean>((resolve) =>
        gateway.client.once('connect', (connack) => resolve(connack.sessionPresent)),
      )
      await broker.restart()
      expect(await resumed).toBe(true)
      // Its SUBACK: the subscription is back before the devices publish.
      await expect
        .poll(() => (gateway.client as unknown as { messageIdToTopic: object }).messageIdToTopic)
        .toEqual({})
      const d = await env.registered()
      const publisher = await connectAsync(broker.url, { clientId: 'publisher-restart', reconnectPeriod: 0 })
      const ids: string[] = []
      for (let k = 0; k < 10; k++) {
        const m = d.msg('heartbeat', { battery: 70 + k })
        ids.push(m.id)
        await publisher.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, JSON.stringify(m), { qos: 1 })
      }
      await publisher.endAsync()
      await expect.poll(() => storedIds(d.id), { timeout: 10_000 }).toEqual(ids)
    } finally {
      await gateway.close()
      await broker.stop()
    }
  })
})

describe.skipIf(!hasMosquitto)('a database link found down', () => {
  it('leaves the broker, its messages wait in its session, and are stored once the link is up', async () => {
    const broker = await startMosquitto()
    const saved = env.t.ctx.database.link
    const link = switchedLink()
    env.t.ctx.database.link = link.link
    const gateway = quickGateway(broker, 'aedcloud-link')
    const publisher = await connectAsync(broker.url, { clientId: 'publisher-link', reconnectPeriod: 0 })
    try {
      await gateway.ready
      const d = await env.registered()
      link.set(false)
      await expect.poll(() => gateway.client.connected).toBe(false)
      const ids: string[] = []
      for (let k = 0; k < 5; k++) {
        const m = d.msg('heartbeat', { battery: 60 + k })
        ids.push(m.id)
        await publisher.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, JSON.stringify(m), { qos: 1 })
      }
      // Acknowledged by the broker, held in the session of an instance that stays away.
      expect(gateway.client.connected).toBe(false)
      expect(await storedIds(d.id)).toEqual([])
      link.set(true)
      await expect.poll(() => storedIds(d.id), { timeout: 10_000 }).toEqual(ids)
    } finally {
      env.t.ctx.database.link = saved
      await publisher.endAsync()
      await gateway.close()
      await broker.stop()
    }
  })
})
