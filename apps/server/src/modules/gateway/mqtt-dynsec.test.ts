import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { commandTopic, SHARED_SUBSCRIPTION, TOPIC_PREFIX, upTopic } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { connectAsync, type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { newDeviceSecret } from '../../lib/sealed.ts'
import { cabinetLink, deviceTestFile } from '../../test/device-link.ts'
import { hasMosquitto, type Mosquitto, startMosquitto } from '../../test/mosquitto.ts'
import { issueCommand } from '../device/device-command.service.ts'
import { dynsecLogin, filterMatches } from './mqtt-auth.ts'
import * as repo from './mqtt-dynsec.repository.ts'
import { type DynsecSync, listAll, startDynsecSync } from './mqtt-dynsec.service.ts'
import { type BrokerClient, type BrokerRole, deviceAcls, reconcilePlan } from './mqtt-dynsec.ts'
import { connectDynsecControl, type DynsecControl } from './mqtt-dynsec-control.ts'
import { dynsecFile } from './mqtt-dynsec-file.ts'
import { type ExternalGateway, startExternalGateway } from './mqtt-external.ts'

// MQTT_AUTH=mosquitto-dynsec against a real Mosquitto 2 with its dynamic security plugin: the
// server's account is the plugin's admin (made by `mosquitto_ctrl dynsec init`, as the deploy
// guide does), devices log in with the static credential of their secret.

const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock)
const ADMIN = { username: 'aedcloud', password: 'admin-password-for-tests' }
const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so'
const canRun = hasMosquitto && fs.existsSync(PLUGIN)

/** Polls `check` until it holds, failing after `ms`. */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 15_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('the device account rule', () => {
  it("a serial's role lets it publish on its up topics and subscribe to its down topics, nothing of another serial", () => {
    const serial = fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/)
    const level = fc.stringMatching(/^[a-z0-9_]{1,12}$/)
    fc.assert(
      fc.property(serial, serial, level, (sn, other, type) => {
        const acls = deviceAcls(sn)
        const may = (acltype: string, topic: string) =>
          acls.some((a) => a.acltype === acltype && a.allow && filterMatches(a.topic, topic))
        expect(may('publishClientSend', upTopic(sn, type))).toBe(true)
        expect(may('subscribePattern', commandTopic(sn))).toBe(true)
        expect(may('publishClientSend', commandTopic(sn))).toBe(false)
        expect(may('publishClientSend', `${TOPIC_PREFIX}/${sn}/up/${type}/x`)).toBe(false)
        if (other !== sn) {
          expect(may('publishClientSend', upTopic(other, type))).toBe(false)
          expect(may('subscribePattern', commandTopic(other))).toBe(false)
        }
      }),
    )
  })

  it('reconcile leaves accounts of other forms alone and deletes device accounts nobody registered', () => {
    const secret = newDeviceSecret()
    const a = dynsecLogin(secret, 'A6400000001')
    const plan = reconcilePlan(
      [{ sn: 'A6400000001', secrets: [secret] }],
      [
        { username: 'aedcloud', roles: [{ rolename: 'admin' }] },
        { username: 'operator|x', roles: [] },
        { username: 'A6400000009|0badf00d', clientid: 'A6400000009', roles: [] },
        {
          username: a.username,
          clientid: 'someone-else',
          roles: [{ rolename: 'aedcloud-device:A6400000001' }],
        },
      ],
      [{ rolename: 'admin' }, { rolename: 'aedcloud-device:A6400000009' }],
    )
    expect(plan.counts).toEqual({
      rolesCreated: 1,
      rolesFixed: 0,
      rolesDeleted: 1,
      clientsCreated: 0,
      clientsFixed: 1,
      clientsDeleted: 1,
    })
    expect(plan.commands.map((c) => `${c.command} ${c.username ?? c.rolename}`)).toEqual([
      'createRole aedcloud-device:A6400000001',
      `modifyClient ${a.username}`,
      'deleteClient A6400000009|0badf00d',
      'deleteRole aedcloud-device:A6400000009',
    ])
  })
})

describe.skipIf(!canRun)('Mosquitto dynamic security kept in step with the register', () => {
  let dir: string
  let broker: Mosquitto
  let gateway: ExternalGateway
  let sync: DynsecSync
  let admin: DynsecControl
  const open = new Set<MqttClient>()

  const startSync = () =>
    startDynsecSync(env.t.ctx, { url: broker.url, clientId: 'aedcloud-test-dynsec', ...ADMIN, sweepMs: 100 })

  /** Nothing queued is due or being applied: the broker is in step. */
  const inStep = async () => (await repo.pendingCount(env.t.db, clock.now())) === 0

  /** Connects as a device with the account of `secret`; answers the client, or the refusal's text. */
  async function login(sn: string, secret: string, clientId = sn): Promise<MqttClient | string> {
    try {
      const c = await connectAsync(broker.url, {
        clientId,
        ...dynsecLogin(secret, sn),
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      })
      c.on('error', () => {})
      open.add(c)
      return c
    } catch (e) {
      return (e as Error).message
    }
  }
  const canLogin = async (sn: string, secret: string) => typeof (await login(sn, secret)) !== 'string'
  async function connected(sn: string, secret: string) {
    const c = await login(sn, secret)
    if (typeof c === 'string') throw new Error(`${sn} could not connect: ${c}`)
    return c
  }
  const closed = (c: MqttClient) =>
    new Promise<void>((resolve) => (c.connected ? c.once('close', resolve) : resolve()))

  const inboxOf = (sn: string) =>
    many<{ msg_id: string; transport: string }>(
      env.t.db,
      sql`SELECT i.msg_id, i.transport FROM device_inbox i JOIN devices d ON d.id = i.sender_id
          WHERE i.sender_kind = 'aed' AND d.device_sn = ${sn} ORDER BY i.id`,
    )

  beforeAll(async () => {
    if (!canRun) return
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-dynsec-'))
    const file = path.join(dir, 'dynamic-security.json')
    const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', file, ADMIN.username, ADMIN.password])
    if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr}`)
    broker = await startMosquitto([
      // As root, Mosquitto would become the mosquitto user and could not save the plugin's file.
      `user ${os.userInfo().username}`,
      'allow_anonymous false',
      `plugin ${PLUGIN}`,
      `plugin_opt_config_file ${file}`,
    ])
    sync = startSync()
    await sync.ready
    await until('the first drain', inStep, 60_000)
    gateway = startExternalGateway(env.t.ctx, {
      url: broker.url,
      clientId: 'aedcloud-test',
      ...ADMIN,
      subscription: SHARED_SUBSCRIPTION,
      client: { reconnectPeriod: 100 },
    })
    await gateway.ready
    admin = connectDynsecControl({ url: broker.url, clientId: 'test-admin', ...ADMIN })
  }, 120_000)
  afterAll(async () => {
    for (const c of open) await c.endAsync(true).catch(() => {})
    await admin?.close()
    await sync?.close()
    await gateway?.close()
    await broker?.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('a registered device connects with its credential, publishes on its up topic and the server stores it', async () => {
    const d = await env.registered()
    await until('the new device applied', inStep)
    const c = await connected(d.sn, d.secret)
    const [granted] = await c.subscribeAsync(`${TOPIC_PREFIX}/${d.sn}/down/#`, { qos: 1 })
    expect(granted.qos).toBe(1)
    const msg = d.msg('heartbeat', { battery: 80 })
    await c.publishAsync(upTopic(d.sn, 'heartbeat'), JSON.stringify(msg), { qos: 1 })
    await until('the heartbeat stored', async () => (await inboxOf(d.sn)).some((m) => m.msg_id === msg.id))
    expect((await inboxOf(d.sn)).map((m) => m.transport)).toEqual(['mqtt'])

    // A command issued now is published at once, through the server's role on down topics.
    const got: string[] = []
    c.on('message', (topic, payload) => got.push(`${topic} ${JSON.parse(String(payload)).name}`))
    await issueCommand(
      env.t.ctx,
      { member_id: null, user_name: 'test' },
      { kind: 'aed', id: d.id, sn: d.sn },
      'locate',
    )
    await until('the command delivered', () => got.length > 0)
    expect(got).toEqual([`${commandTopic(d.sn)} locate`])
  })

  it('the commands waiting for a device are published again when its hello comes over MQTT', async () => {
    const d = await env.registered()
    await until('applied', inStep)
    // Issued while the device is away (clean session): the broker has nobody to give it to.
    await issueCommand(
      env.t.ctx,
      { member_id: null, user_name: 'test' },
      { kind: 'aed', id: d.id, sn: d.sn },
      'locate',
    )
    const c = await connected(d.sn, d.secret)
    const got: string[] = []
    c.on('message', (topic, payload) => got.push(`${topic} ${JSON.parse(String(payload)).name}`))
    await c.subscribeAsync(`${TOPIC_PREFIX}/${d.sn}/down/#`, { qos: 1 })
    const hello = d.msg('hello', { fw_version: '1.0.0' })
    await c.publishAsync(upTopic(d.sn, 'hello'), JSON.stringify(hello), { qos: 1 })
    await until('the waiting command delivered', () => got.length > 0)
    expect(got).toEqual([`${commandTopic(d.sn)} locate`])
  })

  it("a device cannot use another client id, a wrong password, nor another device's topics", async () => {
    const d = await env.registered()
    const other = await env.registered()
    await until('both applied', inStep)
    expect(await login(d.sn, d.secret, other.sn)).toMatch(/Not authorized/i)
    expect(await login(d.sn, other.secret)).toMatch(/Not authorized/i)
    const c = await connected(d.sn, d.secret)
    const granted = await c
      .subscribeAsync([`${TOPIC_PREFIX}/${other.sn}/down/#`, '#', `${TOPIC_PREFIX}/+/down/#`], { qos: 1 })
      .then(
        (g) => g.map((x) => x.qos),
        (e: { packet?: { granted?: number[] } }) => e.packet?.granted,
      )
    expect(granted).toEqual([128, 128, 128])
    // The broker drops a publish on another device's topic (the PUBACK comes all the same).
    const forged = other.msg('heartbeat', { battery: 1 })
    await c.publishAsync(upTopic(other.sn, 'heartbeat'), JSON.stringify(forged), { qos: 1 })
    const mine = d.msg('heartbeat', { battery: 2 })
    await c.publishAsync(upTopic(d.sn, 'heartbeat'), JSON.stringify(mine), { qos: 1 })
    await until('its own heartbeat stored', async () => (await inboxOf(d.sn)).length === 1)
    expect(await inboxOf(other.sn)).toEqual([])
  })

  it('rotation: the old and the new credential both work for the overlap, only the new one after', async () => {
    const d = await env.registered()
    await until('applied', inStep)
    const before = await connected(d.sn, d.secret)
    const fresh = newDeviceSecret()
    await env.t.db.execute(sql`
      UPDATE devices SET secret_enc = ${env.t.ctx.sealer.seal(fresh)}, prev_secret_enc = secret_enc,
        prev_secret_until = ${new Date(clock.now().getTime() + 24 * 3600_000).toISOString()}::timestamptz
      WHERE id = ${d.id}`)
    await until('the rotation applied', inStep)
    // The connection on the old secret is left alone (the plugin closes it on any change of its account).
    expect(before.connected).toBe(true)
    const mine = d.msg('heartbeat', { battery: 70 })
    await before.publishAsync(upTopic(d.sn, 'heartbeat'), JSON.stringify(mine), { qos: 1 })
    await until('stored', async () => (await inboxOf(d.sn)).length === 1)
    // The same client id takes the connection over, whichever account it uses.
    const now = await connected(d.sn, fresh)
    await closed(before)
    await now.endAsync()
    // An open connection on the old credential is closed when the overlap ends.
    const lingering = await connected(d.sn, d.secret)
    const dropped = closed(lingering)
    clock.advance(24 * 3600_000 + 1000)
    try {
      await until('the overlap end applied', async () => (await sync.drain()) >= 0 && (await inStep()))
      await dropped
      expect(await login(d.sn, d.secret)).toMatch(/Not authorized/i)
      expect(await canLogin(d.sn, fresh)).toBe(true)
    } finally {
      // The clock goes back for the next tests: the ended secret must not come back with it.
      await env.t.db.execute(
        sql`UPDATE devices SET prev_secret_enc = NULL, prev_secret_until = NULL WHERE id = ${d.id}`,
      )
      clock.advance(-(24 * 3600_000 + 1000))
    }
  })

  it('deletion: the device cannot connect, and its open connection is dropped', async () => {
    const d = await env.registered()
    await until('applied', inStep)
    const c = await connected(d.sn, d.secret)
    const dropped = closed(c)
    await env.t.db.execute(sql`UPDATE devices SET deleted_at = now() WHERE id = ${d.id}`)
    await dropped
    await until('the deletion applied', inStep)
    expect(await login(d.sn, d.secret)).toMatch(/Not authorized/i)
  })

  it('a cabinet gets its account too, and a row removed outright takes its account with it', async () => {
    const cab = await cabinetLink(env.t, env.branch.id)
    await until('the cabinet applied', inStep)
    const c = await connected(cab.sn, cab.secret)
    const dropped = closed(c)
    await env.t.db.execute(sql`DELETE FROM cabinets WHERE id = ${cab.id}`)
    await dropped
    await until('the removal applied', inStep)
    expect(await canLogin(cab.sn, cab.secret)).toBe(false)
  })

  it('two instances share the changes: each serial is applied by one of them, once', async () => {
    const other = startDynsecSync(env.t.ctx, {
      url: broker.url,
      clientId: 'aedcloud-test-2-dynsec',
      ...ADMIN,
      sweepMs: 100,
    })
    await other.ready
    const created: string[] = []
    for (const s of [sync, other]) {
      const send = s.control.send.bind(s.control)
      s.control.send = (commands) => {
        for (const c of commands) if (c.command === 'createClient') created.push(String(c.username))
        return send(commands)
      }
    }
    try {
      const devices = []
      for (let i = 0; i < 6; i++) devices.push(await env.registered())
      await until('all applied', inStep)
      const mine = devices.map((d) => dynsecLogin(d.secret, d.sn).username)
      expect(created.filter((u) => mine.includes(u)).sort()).toEqual([...mine].sort())
      for (const d of devices) expect(await canLogin(d.sn, d.secret)).toBe(true)
    } finally {
      await other.close()
    }
  })

  it('after its connection to the broker dropped, the server compares everything again', async () => {
    const d = await env.registered()
    await until('applied', inStep)
    const [gone] = await admin.send([
      { command: 'deleteClient', username: dynsecLogin(d.secret, d.sn).username },
    ])
    expect(gone.error).toBeUndefined()
    expect(await canLogin(d.sn, d.secret)).toBe(false)
    sync.control.client.stream.destroy()
    await until('the account made again', () => canLogin(d.sn, d.secret))
  })

  it('reconcile at start fixes a broker that missed changes while the server was down', async () => {
    const kept = await env.registered()
    const gone = await env.registered()
    await until('applied', inStep)
    await sync.close()
    // While no server runs: a device is registered, another deleted, and the broker is meddled with.
    const added = await env.registered()
    await env.t.db.execute(sql`UPDATE devices SET deleted_at = now() WHERE id = ${gone.id}`)
    // The queue is lost as well (a restored backup): only the reconcile can tell.
    await env.t.db.execute(sql`DELETE FROM mqtt_dynsec_changes`)
    const stray = dynsecLogin(newDeviceSecret(), 'Z9900000001')
    const answers = await admin.send([
      {
        command: 'removeRoleACL',
        rolename: `aedcloud-device:${kept.sn}`,
        acltype: 'subscribePattern',
        topic: `${TOPIC_PREFIX}/${kept.sn}/down/#`,
      },
      { command: 'createClient', username: stray.username, password: stray.password },
      { command: 'createClient', username: 'operator', password: 'operator-password' },
    ])
    expect(answers.map((a) => a.error ?? 'ok')).toEqual(['ok', 'ok', 'ok'])
    expect(await canLogin(gone.sn, gone.secret)).toBe(true)
    expect(await canLogin(added.sn, added.secret)).toBe(false)

    sync = startSync()
    const first = await sync.ready
    expect(first).toMatchObject({
      rolesCreated: 1,
      rolesFixed: 1,
      clientsCreated: 1,
      clientsFixed: 0,
      clientsDeleted: 2,
      failed: 0,
    })
    // The deleted device's role; the deletion test's too when it ran (a change leaves it for the reconcile).
    expect(first?.rolesDeleted).toBeGreaterThanOrEqual(1)
    expect(await sync.reconcile()).toMatchObject({ failed: 0, commands: 0 })
    expect(await canLogin(added.sn, added.secret)).toBe(true)
    expect(await canLogin(gone.sn, gone.secret)).toBe(false)
    const k = await connected(kept.sn, kept.secret)
    expect((await k.subscribeAsync(commandTopic(kept.sn), { qos: 1 }))[0].qos).toBe(1)
    const [strayAnswer, operator] = await admin.send([
      { command: 'getClient', username: stray.username },
      { command: 'getClient', username: 'operator' },
    ])
    expect(strayAnswer.error).toMatch(/not found/i)
    expect(operator.error).toBeUndefined()
    expect(await one<{ n: number }>(env.t.db, sql`SELECT count(*) AS n FROM mqtt_dynsec_changes`)).toEqual({
      n: 0,
    })
  })

  it('a plugin file written offline for the register is what the broker loads and the reconcile expects', async () => {
    const fileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-dynsec-file-'))
    const file = path.join(fileDir, 'dynamic-security.json')
    spawnSync('mosquitto_ctrl', ['dynsec', 'init', file, ADMIN.username, ADMIN.password])
    const registered = [
      { sn: 'F6400000001', secrets: [newDeviceSecret()] },
      { sn: 'F6400000002', secrets: [newDeviceSecret(), newDeviceSecret()] },
    ]
    fs.writeFileSync(file, JSON.stringify(dynsecFile(JSON.parse(fs.readFileSync(file, 'utf8')), registered)))
    const second = await startMosquitto([
      `user ${os.userInfo().username}`,
      'allow_anonymous false',
      `plugin ${PLUGIN}`,
      `plugin_opt_config_file ${file}`,
    ])
    const control = connectDynsecControl({ url: second.url, clientId: 'test-file', ...ADMIN })
    try {
      const clients = await listAll<BrokerClient>(control, 'listClients', 'clients')
      const roles = await listAll<BrokerRole>(control, 'listRoles', 'roles')
      expect(reconcilePlan(registered, clients, roles).commands).toEqual([])
      expect(clients.map((c) => c.username)).toContain(ADMIN.username)
      for (const r of registered) {
        for (const secret of r.secrets) {
          const c = await connectAsync(second.url, {
            clientId: r.sn,
            ...dynsecLogin(secret, r.sn),
            protocolVersion: 4,
            reconnectPeriod: 0,
          })
          await c.endAsync()
        }
      }
    } finally {
      await control.close()
      await second.stop()
      fs.rmSync(fileDir, { recursive: true, force: true })
    }
  })
})
