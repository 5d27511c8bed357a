import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { LiveType } from '@aed/contracts/live'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createContext } from '../bootstrap.ts'
import { loadConfig } from '../config.ts'
import { many } from '../db/sql.ts'
import { createFactoryDevices } from '../modules/device/device.service.ts'
import { signDeviceRequest } from '../plugins/auth/device.ts'
import { tempDataDir, templateDatabase } from './databases.ts'
import { DEMO_PASSWORD, demo, signal } from './harness.ts'

// Two server instances on one PostgreSQL, as a deployment runs them: a device reports to one,
// a console is connected to the other, and the first-aid alarm reaches the console (the push is
// stored and announced by NOTIFY; each instance's live hub hears every announcement).

const main = path.join(import.meta.dirname, '..', 'main.ts')
const children: ChildProcess[] = []
const cleanup: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  for (const f of cleanup) await f().catch(() => {})
})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      SEED_DEMO: 'false',
      MQTT_PORT: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(child)
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${env.PORT}/api/health`)).ok) return child
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not start')
}

it.skipIf(process.env.TEST_DB !== 'postgres')(
  'a device on one instance, a console on the other: the alarm arrives',
  { timeout: 120_000 },
  async () => {
    const dataDir = tempDataDir()
    const { database, url, drop } = await templateDatabase('seeded', dataDir)
    cleanup.push(async () => {
      await database.close()
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    })
    const secrets = {
      DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    }
    // A factory device of the system organisation, sealed with the instances' key.
    const sn = 'W640000001'
    let secret = ''
    let deviceId = 0
    {
      const ctx = await createContext(
        loadConfig({ ...secrets, DATABASE_URL: url as string, SEED_DEMO: 'false' }),
        database,
        pino({ level: 'silent' }),
      )
      const [root] = await many<{ id: number }>(
        ctx.db,
        sql`SELECT id FROM agencies WHERE agency_type = 0 LIMIT 1`,
      )
      await createFactoryDevices(ctx.db, ctx, null, [{ device_sn: sn, agency_id: root.id, fw_version: 'V1' }])
      const [row] = await many<{ id: number; secret_enc: string }>(
        ctx.db,
        sql`SELECT id, secret_enc FROM devices WHERE device_sn = ${sn}`,
      )
      secret = ctx.sealer.open(row.secret_enc)
      deviceId = row.id
    }
    // Each instance has its own data folder (it locks it); they share the database.
    const base = { ...secrets, DATABASE_URL: url as string, HOST: '127.0.0.1' }
    const portA = await freePort()
    const portB = await freePort()
    await Promise.all([
      startServer({ ...base, PORT: String(portA), DATA_DIR: path.join(dataDir, 'a') }),
      startServer({ ...base, PORT: String(portB), DATA_DIR: path.join(dataDir, 'b') }),
    ])

    // The console signs in and listens on instance B.
    const login = await fetch(`http://127.0.0.1:${portB}/api/v1/member/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mobile: demo.superAdmin,
        password: DEMO_PASSWORD,
        login_way: 1,
        member_type: 3,
      }),
    })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    const ws = new WebSocket(`ws://127.0.0.1:${portB}/api/v1/system/data/`)
    const frames: { id: number; data_type: number; data: Record<string, unknown> }[] = []
    const { promise: alarm, resolve: heard } = signal()
    const { promise: ready, resolve: joined } = signal()
    ws.on('open', () => ws.send(JSON.stringify({ token })))
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw))
      frames.push(f)
      if (f.data_type === LiveType.UNCONFIRMED) joined()
      if (f.data_type === LiveType.MESSAGE && f.data.device_sn === sn) heard()
    })
    await ready

    // The device starts a rescue on instance A.
    const body = JSON.stringify([
      {
        v: 1,
        id: 'two-1',
        seq: 1,
        boot: 1,
        ts: Date.now(),
        type: 'usage',
        data: { rescue_event_id: 'TW1', event_time: Date.now(), event_desc: 'power_on' },
      },
    ])
    const headers = signDeviceRequest(sn, secret, { method: 'POST', path: '/device-api/v1/messages', body })
    const r = await fetch(`http://127.0.0.1:${portA}/device-api/v1/messages`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    })
    expect(((await r.json()) as { code: number }).code).toBe(0)
    await alarm
    // Drained at commit on instance A: the alarm's outbox row was marked done by the transaction
    // that stored the report (the same xmin), not by a later drain of either instance's jobs; the
    // only way from there to the console on B is the announcement (NOTIFY).
    const [stored] = await many<{ tx: string }>(
      database.db,
      sql`SELECT xmin::text AS tx FROM device_inbox WHERE sender_kind = 'aed' AND sender_id = ${deviceId} AND msg_id = 'two-1'`,
    )
    const drained = await many<{ tx: string; done: boolean }>(
      database.db,
      sql`SELECT xmin::text AS tx, done_at IS NOT NULL AS done FROM outbox
          WHERE topic = 'message' AND payload->>'device_id' = ${String(deviceId)}`,
    )
    expect(stored?.tx).toBeDefined()
    expect(drained).toEqual([{ tx: stored.tx, done: true }])
    const push = frames.find((f) => f.data_type === LiveType.AID_ALARM)
    expect(push?.data).toMatchObject({ device_sn: sn, escalation_level: 0 })
    expect(
      frames.some(
        (f) => f.data_type === LiveType.MESSAGE && (f.data as { device_sn: string }).device_sn === sn,
      ),
    ).toBe(true)
    ws.close()
  },
)
