import crypto from 'node:crypto'
import { COMMAND_TTL_MS, type CommandName } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import { connectAsync, type MqttClient } from 'mqtt'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { cabinetLink, postSignedAs } from '../../test/device-link.ts'
import { brokerTestFile } from '../../test/mqtt.ts'
import * as commands from '../device/device-command.repository.ts'
import { COMMAND_CHANNEL, type CommandNotice } from '../device/device-command.service.ts'
import { toGcj02 } from '../engine/reducer.ts'
import { mqttPassword, mqttUsername } from './mqtt-auth.ts'
import { MQTT_ACL_PATH, MQTT_AUTH_PATH } from './mqtt-hooks.routes.ts'

// Rescue cabinets through the gateway, both transports: they sign with their own serial and
// secret, report `cabinet_status` and `door` under the same schema and topic rules as AEDs,
// and take `unlock` and `siren` commands (HTTPS answer `cmds`, MQTT down/cmd) answered by `ack`.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = brokerTestFile(clock)

const cabinet = (o: Parameters<typeof cabinetLink>[2] = {}) => cabinetLink(env.t, env.branch.id, o)

const inbox = (kind: 'aed' | 'cabinet', id: number) =>
  many<{ msg_id: string; type: string; outcome: string | null; transport: string }>(
    env.t.db,
    sql`SELECT msg_id, type, outcome, transport FROM device_inbox
        WHERE sender_kind = ${kind} AND sender_id = ${id} ORDER BY id`,
  )
const listed = (id: number) =>
  one<{
    door_status: number | null
    battery_power: number | null
    fw_version: string | null
    lat: number | null
    lon: number | null
    altitude: number | null
    aed_present: boolean | null
    data_upload_time: Date | null
  }>(
    env.t.db,
    sql`SELECT door_status, battery_power, fw_version, lat, lon, altitude, aed_present, data_upload_time
        FROM cabinets WHERE id = ${id}`,
  )
const records = (id: number) =>
  many<{
    upload_data_type: string
    door_status: number
    battery_power: number | null
    device_sn: string | null
  }>(
    env.t.db,
    sql`SELECT upload_data_type, door_status, battery_power, device_sn FROM cabinet_records
        WHERE cabinet_id = ${id} ORDER BY id`,
  )
const doors = (id: number) =>
  many<{ id: number; closed: boolean }>(
    env.t.db,
    sql`SELECT id, closed_at IS NOT NULL AS closed FROM cabinet_door_events WHERE cabinet_id = ${id} ORDER BY id`,
  )

/** A command for a cabinet as the console's registry creates it, and the notice the gateway hears. */
async function command(cabinetId: number, sn: string, name: CommandName) {
  const now = clock.now()
  const row = await commands.insertCommand(env.t.db, {
    cmdId: crypto.randomUUID(),
    kind: 'cabinet',
    senderId: cabinetId,
    name,
    args: {},
    creator: 1,
    creatorName: 'test',
    now,
    expiresAt: new Date(now.getTime() + COMMAND_TTL_MS),
  })
  const notice: CommandNotice = { cmd_id: row.cmd_id, kind: 'cabinet', sender_id: cabinetId, sn }
  await env.t.ctx.events.publish(COMMAND_CHANNEL, notice)
  return row
}
const commandState = (cmdId: string) =>
  one<{ state: string; error: string | null; ack: boolean }>(
    env.t.db,
    sql`SELECT state, error, ack_time IS NOT NULL AS ack FROM device_commands WHERE cmd_id = ${cmdId}`,
  )

describe('cabinets over HTTPS', () => {
  it('cabinet_status is a self-check record and updates the list’s battery, firmware, door, position and time', async () => {
    const c = await cabinet()
    const st = c.msg('cabinet_status', {
      door_status: 0,
      battery_power: 76,
      fw_version: 'C1.2.0',
      lat: 28.70335,
      lon: 115.86608,
      altitude: 42,
      aed_present: true,
    })
    const r = await c.post([st])
    expect([r.status, r.code]).toEqual([200, 0])
    expect(r.data).toEqual({ acked: [st.id], duplicates: [], stale: [], refused: [], cmds: [] })
    expect(await inbox('cabinet', c.id)).toEqual([
      { msg_id: st.id, type: 'cabinet_status', outcome: 'applied', transport: 'https' },
    ])
    const gcj = toGcj02(28.70335, 115.86608)
    const row = await listed(c.id)
    expect(row).toMatchObject({ door_status: 0, battery_power: 76, fw_version: 'C1.2.0', altitude: 42 })
    expect(row?.aed_present).toBe(true)
    // Stored as GCJ-02, converted from the report's WGS-84.
    expect(row?.lat).toBeCloseTo(gcj.lat, 6)
    expect(row?.lon).toBeCloseTo(gcj.lon, 6)
    expect(row?.lat).not.toBeCloseTo(28.70335, 4)
    expect(row?.data_upload_time?.getTime()).toBe(clock.now().getTime())
    expect(await records(c.id)).toEqual([
      { upload_data_type: 'cabinet_status', door_status: 0, battery_power: 76, device_sn: null },
    ])
    // A duplicate is acknowledged and stored once.
    expect((await c.send(st)).duplicates).toEqual([st.id])
    expect(await records(c.id)).toHaveLength(1)
  })

  it('door 1 opens a door event with its message in the outbox; door 0 closes it', async () => {
    const d = await env.registered()
    const c = await cabinet({ deviceId: d.id, location: '人民广场东门' })
    await c.send(c.msg('door', { door_status: 1 }))
    const [open] = await doors(c.id)
    expect(open).toMatchObject({ closed: false })
    expect((await listed(c.id))?.door_status).toBe(1)
    const told = await many<{ topic: string; payload: Record<string, unknown> }>(
      env.t.db,
      sql`SELECT topic, payload FROM outbox WHERE dedupe_key = ${`msg:door:${open.id}`}`,
    )
    expect(told).toEqual([
      { topic: 'message', payload: { msg_type: 4, door_event_id: open.id, cabinet_id: c.id } },
    ])
    // A second "open" while it is open opens nothing more.
    await c.send(c.msg('door', { door_status: 1 }))
    expect(await doors(c.id)).toHaveLength(1)
    await c.send(c.msg('door', { door_status: 0 }))
    expect(await doors(c.id)).toEqual([{ id: open.id, closed: true }])
    expect((await listed(c.id))?.door_status).toBe(0)
    // Every door report is a record, with the AED bound at the time.
    expect((await records(c.id)).map((r) => [r.upload_data_type, r.door_status, r.device_sn])).toEqual([
      ['door', 1, d.sn],
      ['door', 1, d.sn],
      ['door', 0, d.sn],
    ])
  })

  it('stores and ignores an AED type from a cabinet and a cabinet type from an AED', async () => {
    const c = await cabinet()
    const st = c.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] })
    await c.send(st)
    expect((await inbox('cabinet', c.id)).map((r) => r.outcome)).toEqual(['ignored'])
    const d = await env.registered()
    const door = d.msg('door', { door_status: 1 })
    await d.send(door)
    expect((await inbox('aed', d.id)).map((r) => [r.type, r.outcome])).toEqual([['door', 'ignored']])
    const events = await many(env.t.db, sql`SELECT id FROM cabinet_door_events WHERE device_id = ${d.id}`)
    expect(events).toEqual([])
  })

  it('refuses a malformed cabinet message by id and field, a bad signature, and a deleted cabinet', async () => {
    const c = await cabinet()
    const bad = c.msg('cabinet_status', { door_status: 2 })
    const r = await c.post([bad])
    expect(r.code).toBe(0)
    expect(r.data.refused).toMatchObject([
      { index: 0, id: bad.id, code: 'invalid', field: 'data.door_status' },
    ])
    expect(await inbox('cabinet', c.id)).toEqual([])
    const forged = await c.post([c.msg('door', { door_status: 1 })], { secret: 'e'.repeat(64) })
    expect([forged.status, forged.code]).toEqual([401, -1])
    await env.t.db.execute(sql`UPDATE cabinets SET deleted_at = now() WHERE id = ${c.id}`)
    const gone = await c.post([c.msg('door', { door_status: 1 })])
    expect([gone.status, gone.code]).toEqual([401, -1])
    const ghost = await postSignedAs(
      env.t,
      'CBNOSUCH',
      c.secret,
      [c.msg('door', { door_status: 1 })],
      clock.now().getTime(),
    )
    expect([ghost.statusCode, ghost.json().code]).toEqual([401, -1])
    expect(await inbox('cabinet', c.id)).toEqual([])
  })

  it('an unlock rides on the next HTTPS answer and the cabinet’s ack is recorded', async () => {
    const c = await cabinet()
    const unlock = await command(c.id, c.sn, 'unlock')
    const r = await c.send(c.msg('heartbeat', { battery: 90 }))
    expect(r.cmds).toEqual([
      { cmd_id: unlock.cmd_id, name: 'unlock', args: {}, expires_at: unlock.expires_at.toISOString() },
    ])
    expect(await commandState(unlock.cmd_id)).toMatchObject({ state: 'sent', ack: false })
    const again = await c.send(c.msg('ack', { cmd_id: unlock.cmd_id, ok: false, error: 'lock jammed' }))
    expect(again.cmds).toEqual([])
    expect(await commandState(unlock.cmd_id)).toEqual({ state: 'failed', error: 'lock jammed', ack: true })
    // An AED cannot answer a cabinet's command.
    const siren = await command(c.id, c.sn, 'siren')
    const d = await env.registered()
    await d.send(d.msg('ack', { cmd_id: siren.cmd_id, ok: true }))
    expect(await commandState(siren.cmd_id)).toMatchObject({ state: 'pending', ack: false })
  })
})

const url = () => `mqtt://127.0.0.1:${env.broker.ports.mqtt}`

/** A new ts for each connection, as a device makes one: a password is good for one CONNECT. */
let connections = 0
async function connectAs(sn: string, secret: string) {
  const ts = clock.now().getTime() + ++connections
  const c = await connectAsync(url(), {
    clientId: sn,
    username: mqttUsername(sn, ts),
    password: mqttPassword(secret, sn, ts),
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  })
  env.clients.push(c)
  return c
}

function publish(c: MqttClient, topic: string, body: unknown) {
  return c.publishAsync(topic, JSON.stringify(body), { qos: 1 })
}

function nextCommand(c: MqttClient) {
  return new Promise<{ topic: string; body: Record<string, unknown> }>((resolve) =>
    c.once('message', (topic, payload) => resolve({ topic, body: JSON.parse(payload.toString()) })),
  )
}

describe('cabinets over MQTT', () => {
  it('publishes cabinet_status and door on its own topics; each PUBACK comes after the commit', async () => {
    const d = await env.registered()
    const cab = await cabinet({ deviceId: d.id })
    const c = await connectAs(cab.sn, cab.secret)
    await publish(
      c,
      `aed/v1/${cab.sn}/up/cabinet_status`,
      cab.msg('cabinet_status', { door_status: 0, battery_power: 64, aed_present: true }),
    )
    // The PUBACK came: the record is there already.
    expect(await records(cab.id)).toEqual([
      { upload_data_type: 'cabinet_status', door_status: 0, battery_power: 64, device_sn: d.sn },
    ])
    await publish(c, `aed/v1/${cab.sn}/up/door`, cab.msg('door', { door_status: 1 }))
    expect(await doors(cab.id)).toMatchObject([{ closed: false }])
    await publish(c, `aed/v1/${cab.sn}/up/door`, cab.msg('door', { door_status: 0 }))
    expect(await doors(cab.id)).toMatchObject([{ closed: true }])
    expect((await inbox('cabinet', cab.id)).map((r) => [r.type, r.outcome, r.transport])).toEqual([
      ['cabinet_status', 'applied', 'mqtt'],
      ['door', 'applied', 'mqtt'],
      ['door', 'applied', 'mqtt'],
    ])
  })

  it("refuses another sender's topic (the connection ends) and a type that is not the topic's: nothing stored", async () => {
    const d = await env.registered()
    const cab = await cabinet()
    const c = await connectAs(cab.sn, cab.secret)
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()))
    let pubacked = false
    publish(c, `aed/v1/${d.sn}/up/door`, cab.msg('door', { door_status: 1 })).then(
      () => {
        pubacked = true
      },
      () => {},
    )
    await closed
    expect(pubacked).toBe(false)
    // Its own topic under another type: refused, told why, and the connection stays.
    const c2 = await connectAs(cab.sn, cab.secret)
    await c2.subscribeAsync(`aed/v1/${cab.sn}/down/#`, { qos: 1 })
    const told = new Promise<Record<string, unknown>>((resolve) =>
      c2.on('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))),
    )
    const door = cab.msg('door', { door_status: 1 })
    await publish(c2, `aed/v1/${cab.sn}/up/cabinet_status`, door)
    expect(await told).toMatchObject({ id: door.id, result: 'refused', code: 'invalid', field: 'type' })
    expect(c2.connected).toBe(true)
    expect(await inbox('cabinet', cab.id)).toEqual([])
    expect(await inbox('aed', d.id)).toEqual([])
  })

  it('a siren reaches the subscribed cabinet at once, and its ack over MQTT marks it done', async () => {
    const cab = await cabinet()
    const c = await connectAs(cab.sn, cab.secret)
    await c.subscribeAsync(`aed/v1/${cab.sn}/down/cmd`, { qos: 1 })
    await expect.poll(() => env.broker.reaches(cab.sn)).toBe(true)
    const arriving = nextCommand(c)
    const siren = await command(cab.id, cab.sn, 'siren')
    const got = await arriving
    expect(got.topic).toBe(`aed/v1/${cab.sn}/down/cmd`)
    expect(got.body).toMatchObject({ cmd_id: siren.cmd_id, name: 'siren', args: {} })
    await publish(c, `aed/v1/${cab.sn}/up/ack`, cab.msg('ack', { cmd_id: siren.cmd_id, ok: true }))
    expect(await commandState(siren.cmd_id)).toEqual({ state: 'done', error: null, ack: true })
  })

  it('an unlock waiting while the cabinet was away is delivered when it subscribes', async () => {
    const cab = await cabinet()
    const unlock = await command(cab.id, cab.sn, 'unlock')
    const c = await connectAs(cab.sn, cab.secret)
    const arriving = nextCommand(c)
    await c.subscribeAsync(`aed/v1/${cab.sn}/down/#`, { qos: 1 })
    expect((await arriving).body).toMatchObject({ cmd_id: unlock.cmd_id, name: 'unlock' })
    expect(await commandState(unlock.cmd_id)).toMatchObject({ state: 'sent' })
  })
})

describe("an external broker's hooks", () => {
  it('let a cabinet connect with its password, publish its own up topics and subscribe to its down topic', async () => {
    const cab = await cabinet()
    const hook = async (url: string, body: Record<string, string>) =>
      (await env.t.app.inject({ method: 'POST', url, payload: body })).json().result
    const ts = String(clock.now().getTime())
    const username = mqttUsername(cab.sn, ts)
    expect(
      await hook(MQTT_AUTH_PATH, {
        clientid: cab.sn,
        username,
        password: mqttPassword(cab.secret, cab.sn, ts),
      }),
    ).toBe('allow')
    expect(
      await hook(MQTT_AUTH_PATH, {
        clientid: cab.sn,
        username,
        password: mqttPassword('d'.repeat(64), cab.sn, ts),
      }),
    ).toBe('deny')
    const acl = (topic: string, action: string) =>
      hook(MQTT_ACL_PATH, { clientid: cab.sn, username, topic, action })
    expect(await acl(`aed/v1/${cab.sn}/up/door`, 'publish')).toBe('allow')
    expect(await acl(`aed/v1/${cab.sn}/down/cmd`, 'subscribe')).toBe('allow')
    expect(await acl('aed/v1/OTHER01/up/door', 'publish')).toBe('deny')
  })
})
