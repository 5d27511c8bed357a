import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import mqtt from 'mqtt'
import pino from 'pino'
import { afterAll, expect, it } from 'vitest'
import { createContext } from './bootstrap.ts'
import { loadConfig } from './config.ts'
import { openPglite } from './db/client.ts'
import { many } from './db/sql.ts'
import { createFactoryDevices } from './modules/device/device.service.ts'
import { signDeviceRequest } from './plugins/auth/device.ts'

// Nothing acknowledged is lost: devices send over MQTT and HTTPS while the server is killed
// with SIGKILL and started again; every message a device was told "yes" for is in the inbox
// exactly once and was applied exactly once (one detection record per acknowledged self-test).

const main = path.join(import.meta.dirname, 'main.ts')
const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

type Env = Record<string, string>

function start(env: Env) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', SEED_DEMO: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.push(child)
  const exited = new Promise<void>((r) => child.on('exit', () => r()))
  return { child, exited }
}

async function healthy(port: number) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not start')
}

type Dev = { sn: string; secret: string; seq: number }
const envelope = (d: Dev, type: string, data: object) => ({
  v: 1,
  id: `${d.sn}-${++d.seq}`,
  seq: d.seq,
  boot: 1,
  ts: Date.now(),
  type,
  data,
})
/** Every third message a self-test (pass and fail in turn: each one changes state), else a heartbeat. */
const nextMessage = (d: Dev) =>
  d.seq % 3 === 2
    ? envelope(d, 'selftest', { report_type: 1, result: d.seq % 2 ? 'fail' : 'pass', fault_codes: ['E02'] })
    : envelope(d, 'heartbeat', { battery: 80 })

it('every acknowledged message survives kill -9 and is applied exactly once', {
  timeout: 180_000,
}, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-crash-'))
  const env: Env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
  }
  // The devices exist before the server starts (made as the factory import makes them).
  const devices: Dev[] = []
  {
    const database = await openPglite(dataDir)
    const ctx = await createContext(
      loadConfig({ ...env, SEED_DEMO: 'false' }),
      database,
      pino({ level: 'silent' }),
    )
    const [{ id: agencyId }] = await many<{ id: number }>(
      ctx.db,
      sql`INSERT INTO agencies (name, agency_type, level, index_link) VALUES ('崩溃测试', 0, 1, '') RETURNING id`,
    )
    await ctx.db.execute(sql`UPDATE agencies SET index_link = ${`/${agencyId}/`} WHERE id = ${agencyId}`)
    const sns = Array.from({ length: 12 }, (_, i) => `C64${String(i).padStart(7, '0')}`)
    await createFactoryDevices(
      ctx.db,
      ctx,
      null,
      sns.map((device_sn) => ({ device_sn, agency_id: agencyId, fw_version: 'V1' })),
    )
    const rows = await many<{ device_sn: string; secret_enc: string }>(
      ctx.db,
      sql`SELECT device_sn, secret_enc FROM devices`,
    )
    for (const r of rows) devices.push({ sn: r.device_sn, secret: ctx.sealer.open(r.secret_enc), seq: 0 })
    await database.close()
  }
  const httpDevices = devices.slice(0, 6)
  const mqttDevices = devices.slice(6)
  const acked = new Set<string>()
  const sentSelftests = new Map<string, string>() // msg id -> sn
  let running = true
  let server = start(env)
  await healthy(Number(env.PORT))

  // HTTPS devices: batches of 4; a batch without an answer is sent again, same ids, until answered.
  const httpLoop = async (d: Dev) => {
    while (running) {
      const batch = Array.from({ length: 4 }, () => nextMessage(d))
      for (const m of batch) if (m.type === 'selftest') sentSelftests.set(m.id, d.sn)
      for (;;) {
        const body = JSON.stringify(batch)
        const headers = signDeviceRequest(d.sn, d.secret, {
          method: 'POST',
          path: '/device-api/v1/messages',
          body,
        })
        try {
          const r = await fetch(`http://127.0.0.1:${env.PORT}/device-api/v1/messages`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body,
          })
          const j = (await r.json()) as { code: number; data: { acked: string[]; duplicates: string[] } }
          if (j.code === 0) {
            for (const id of [...j.data.acked, ...j.data.duplicates]) acked.add(id)
            break
          }
        } catch {
          // the server is down: try again
        }
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  }
  // MQTT devices: QoS 1 publishes; one without a PUBACK is published again after reconnecting.
  const mqttLoop = async (d: Dev) => {
    const connect = () => {
      const ts = String(Date.now())
      return mqtt.connect(`mqtt://127.0.0.1:${env.MQTT_PORT}`, {
        clientId: d.sn,
        username: `${d.sn}|${ts}`,
        password: crypto
          .createHmac('sha256', d.secret)
          .update(d.sn + ts)
          .digest('hex'),
        reconnectPeriod: 0,
        connectTimeout: 2000,
      })
    }
    while (running) {
      const m = nextMessage(d)
      if (m.type === 'selftest') sentSelftests.set(m.id, d.sn)
      for (;;) {
        const client = connect()
        const ok = await new Promise<boolean>((resolve) => {
          client.once('error', () => resolve(false))
          client.once('close', () => resolve(false))
          client.once('connect', () =>
            client.publish(`aed/v1/${d.sn}/up/${m.type}`, JSON.stringify(m), { qos: 1 }, (err) =>
              resolve(!err),
            ),
          )
        })
        client.end(true)
        if (ok) {
          acked.add(m.id)
          break
        }
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  }
  const loops = [...httpDevices.map(httpLoop), ...mqttDevices.map(mqttLoop)]

  // Enough acknowledged before the kill, and enough after the restart, however busy the machine.
  const acknowledged = async (n: number) => {
    for (let i = 0; i < 600 && acked.size < n; i++) await new Promise((r) => setTimeout(r, 50))
  }
  await acknowledged(40)
  const before = acked.size
  server.child.kill('SIGKILL')
  await server.exited
  await new Promise((r) => setTimeout(r, 500))
  server = start(env)
  await healthy(Number(env.PORT))
  await acknowledged(acked.size + 40)
  running = false
  await Promise.all(loops)
  // Let the restarted server's retry job apply what the crash left stored but unapplied.
  await new Promise((r) => setTimeout(r, 1000))
  server.child.kill('SIGTERM')
  await server.exited

  const database = await openPglite(dataDir)
  try {
    const rows = await many<{ msg_id: string; outcome: string | null; type: string; sn: string }>(
      database.db,
      sql`SELECT i.msg_id, i.outcome, i.type, d.device_sn AS sn FROM device_inbox i JOIN devices d ON d.id = i.sender_id`,
    )
    const byId = new Map<string, number>()
    for (const r of rows) byId.set(r.msg_id, (byId.get(r.msg_id) ?? 0) + 1)
    expect(before).toBeGreaterThan(20)
    expect(acked.size).toBeGreaterThan(before)
    // Every acknowledged message is stored once.
    const missing = [...acked].filter((id) => !byId.has(id))
    expect(missing).toEqual([])
    expect([...byId.values()].every((n) => n === 1)).toBe(true)
    // ...and applied: nothing acknowledged is left pending (a crash between store and apply is
    // picked up by the retry job at the restart).
    const pending = rows.filter((r) => acked.has(r.msg_id) && (r.outcome === null || r.outcome === 'failed'))
    expect(pending).toEqual([])
    // Applied exactly once: one detection record per stored self-test.
    const detections = await many<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM device_detections`,
    )
    const storedSelftests = rows.filter((r) => r.type === 'selftest').length
    expect(detections[0].n).toBe(storedSelftests)
    expect(storedSelftests).toBeGreaterThan(5)
  } finally {
    await database.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
