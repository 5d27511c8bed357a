// `npm run bench:alarm -- [--rate 5000] [--consoles 1000] [--minutes 10] [--database-url URL]`:
// the first-aid alarm's way from a device to the consoles, under load, across two instances.
//
//   1. A fresh PostgreSQL database (migrated, the demo network seeded, no history) and
//      `--devices` factory devices spread over the demo organisations, their secrets sealed with
//      the key both instances are given; two server processes (`node --import tsx main.ts`) on it.
//   2. `--consoles` live-channel WebSockets, alternately on each instance, signed in as the demo
//      members of every scope (system, the two general agents, the four organisations).
//   3. Signed HTTPS batches (the simulator's transport) at `--rate` messages a second in all,
//      90 % heartbeats, 10 % self-tests (one in 50 fails), alternately to each instance; and a
//      rescue (`usage` with a new rescue_event_id) every `--rescue-every` seconds from a device of
//      each organisation in turn, on connections of its own.
//   4. For every rescue, the time from its POST to each console's data_type 2 frame; consoles in
//      scope that never got it after a grace period (lost), frames outside the console's scope,
//      the achieved message rate and HTTP errors, each server's RSS every 30 s and the machine's CPU.
//
// The bench process (consoles and load) runs on the same machine as both servers and PostgreSQL.
import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { LIVE_PATH, LiveType } from '@aed/contracts/live'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import pino from 'pino'
import WebSocket from 'ws'
import { createContext } from '../bootstrap.ts'
import { loadConfig } from '../config.ts'
import { openPostgres } from '../db/client.ts'
import { DEMO_PASSWORD, demoAgencies, demoMembers } from '../db/seed.ts'
import { many } from '../db/sql.ts'
import { createFactoryDevices } from '../modules/device/device.service.ts'
import type { FleetDevice } from './fleet/fleet-api.ts'
import type { Envelope } from './fleet/model.ts'
import { httpTransport, type Transport } from './fleet/transports.ts'

const { values: a } = parseArgs({
  options: {
    rate: { type: 'string', default: '5000' },
    consoles: { type: 'string', default: '1000' },
    minutes: { type: 'string', default: '10' },
    'database-url': { type: 'string' },
    devices: { type: 'string', default: '2000' },
    batch: { type: 'string', default: '10' },
    sockets: { type: 'string', default: '48' },
    'rescue-every': { type: 'string', default: '2' },
    grace: { type: 'string', default: '15' },
    keep: { type: 'boolean', default: false },
    profile: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
})

if (a.help) {
  console.log(`npm run bench:alarm -- [options]
  --rate R          device messages a second in all (default 5000)
  --consoles N      live-channel sockets, half on each instance (default 1000)
  --minutes M       length of the measured run (default 10)
  --database-url U  a PostgreSQL server to create the bench database in (default BENCH_DATABASE_URL,
                    else postgres://postgres@127.0.0.1:55432/postgres); dropped at the end
  --devices N       factory devices made for the load (default 2000)
  --batch B         messages per HTTPS request (default 10; at most 100)
  --sockets S       kept-alive connections per instance for the load (default 48)
  --rescue-every S  seconds between rescues (default 2)
  --grace S         seconds to wait for late pushes after the load stops (default 15)
  --keep            keep the database (it is named in the output)
  --profile DIR     write each server's CPU profile (node --cpu-prof) into DIR`)
  process.exit(0)
}

const num = (v: string | undefined, name: string, min: number) => {
  const n = Number(v)
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number >= ${min}`)
    process.exit(2)
  }
  return n
}
const RATE = num(a.rate, 'rate', 1)
const CONSOLES = num(a.consoles, 'consoles', 1)
const MINUTES = num(a.minutes, 'minutes', 0.1)
const DEVICES = num(a.devices, 'devices', 50)
const BATCH = Math.min(100, num(a.batch, 'batch', 1))
const SOCKETS = num(a.sockets, 'sockets', 1)
const RESCUE_EVERY_MS = num(a['rescue-every'], 'rescue-every', 0.1) * 1000
const GRACE_MS = num(a.grace, 'grace', 1) * 1000
const ADMIN_URL =
  a['database-url'] ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres'

const main = path.join(import.meta.dirname, '..', 'main.ts')
const children: ChildProcess[] = []
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`)

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

/** VmRSS of a process in kB (0 when it is gone). */
function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : 0
  } catch {
    return 0
  }
}

/** CPU ticks (user + system) of a process. */
function procTicks(pid: number): number {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
    return Number(f[11]) + Number(f[12])
  } catch {
    return 0
  }
}

/** CPU ticks of every process called `postgres` by pid, and whether it serves `dbName`. */
function postgresTicks(dbName: string): Map<number, { ticks: number; ours: boolean }> {
  const out = new Map<number, { ticks: number; ours: boolean }>()
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
      if (!s.includes('(postgres)')) continue
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8')
      out.set(Number(d), { ticks: Number(f[11]) + Number(f[12]), ours: cmd.includes(dbName) })
    } catch {}
  }
  return out
}

/** Ticks spent between two readings by the processes alive at the second (ours, all). */
function postgresDelta(
  before: Map<number, { ticks: number }>,
  after: Map<number, { ticks: number; ours: boolean }>,
) {
  let ours = 0
  let all = 0
  for (const [pid, a] of after) {
    const d = a.ticks - (before.get(pid)?.ticks ?? 0)
    all += d
    if (a.ours) ours += d
  }
  return { ours, all }
}

/** The machine's busy and total jiffies since boot. */
function machineTicks() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  const idle = f[3] + (f[4] ?? 0)
  const total = f.reduce((x, y) => x + y, 0)
  return { busy: total - idle, total }
}

async function startServer(name: string, env: Record<string, string>) {
  const logFile = path.join(env.DATA_DIR, '..', `${name}.log`)
  fs.mkdirSync(env.DATA_DIR, { recursive: true })
  const out = fs.openSync(logFile, 'a')
  const profile = a.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(a.profile)}`] : []
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', main], {
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      SEED_DEMO: 'false',
      MQTT_PORT: '0',
    },
    stdio: ['ignore', 'ignore', out],
  })
  children.push(child)
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited (${child.exitCode}); see ${logFile}`)
    try {
      if ((await fetch(`http://127.0.0.1:${env.PORT}/api/health`)).ok) return { child, logFile }
    } catch {
      // starting
    }
    await sleep(100)
  }
  throw new Error(`server ${name} did not start; see ${logFile}`)
}

type Bench = {
  sn: string
  secret: string
  agencyKey: string
  indexLink: string
  seq: number
  busy: boolean
}

type Rescue = {
  n: number
  sn: string
  indexLink: string
  agencyKey: string
  sentAt: number
  /** The usage message's id (its inbox row tells when the server took it). */
  msgId: string
  ackMs: number | null
  error: string | null
  /** Consoles in scope (open when it was sent) and when each got the alarm. */
  expected: Set<number>
  got: Map<number, number>
  /** The alarm's push id, from the first frame of it. */
  pushId: number | null
  /**
   * When the alarm first reached a console of an instance: the largest push id each console of
   * that instance still waiting for it had already been sent (the hub drops a push whose id is
   * not above the console's last one).
   */
  aheadOf: Map<number, number>
}

type ConsoleWs = {
  i: number
  ws: WebSocket
  instance: 0 | 1
  phone: string
  indexLink: string
  open: boolean
  closedCode: number | null
  frames: Record<number, number>
  /** The largest push id received. */
  maxId: number
}

async function run() {
  const started = Date.now()
  const runId = started.toString(36)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-bench-alarm-'))
  const dbName = `bench_alarm_${started}`
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${dbName}`)
  await admin.end()
  const u = new URL(ADMIN_URL)
  u.pathname = `/${dbName}`
  const url = u.toString()
  const secrets = {
    DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
  }
  const cleanup = async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
    await sleep(a.profile ? 10_000 : 1500) // a profile is written as the process exits
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    if (!a.keep) {
      const ad = new pg.Client({ connectionString: ADMIN_URL })
      await ad.connect()
      await ad.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
      await ad.end()
    }
    fs.rmSync(work, { recursive: true, force: true })
  }
  process.once('SIGINT', () => {
    void cleanup().finally(() => process.exit(130))
  })

  try {
    const load0 = os.loadavg()
    log(
      `database ${dbName}; load average ${load0.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores`,
    )

    // 1. Migrate, seed the demo, make the bench's devices (sealed with the instances' key).
    const devices: Bench[] = []
    const links = new Map<string, string>()
    {
      const database = await openPostgres(url)
      const ctx = await createContext(
        loadConfig({
          ...secrets,
          DATABASE_URL: url,
          DATA_DIR: path.join(work, 'setup'),
          WEB_DIST: '/nonexistent',
          SEED_DEMO: 'true',
          SEED_HISTORY: 'false',
        }),
        database,
        pino({ level: 'warn' }),
      )
      const agencies = await many<{ id: number; agency_name: string; index_link: string }>(
        ctx.db,
        sql`SELECT id::int, name AS agency_name, index_link FROM agencies`,
      )
      const byName = new Map(agencies.map((x) => [x.agency_name, x]))
      const orgs = demoAgencies.map((d) => {
        const row = byName.get(d.name)
        if (!row) throw new Error(`demo organisation ${d.name} not seeded`)
        links.set(d.key, row.index_link)
        return { key: d.key, id: row.id, link: row.index_link }
      })
      const rows = Array.from({ length: DEVICES }, (_, i) => {
        const o = orgs[i % orgs.length]
        return { device_sn: `W64B${String(i + 1).padStart(6, '0')}`, fw_version: 'V1.0.0', agency_id: o.id }
      })
      for (let i = 0; i < rows.length; i += 500)
        await createFactoryDevices(ctx.db, ctx, null, rows.slice(i, i + 500))
      const sealed = await many<{ device_sn: string; secret_enc: string; agency_id: number }>(
        ctx.db,
        sql`SELECT device_sn, secret_enc, agency_id::int FROM devices WHERE device_sn LIKE 'W64B%' ORDER BY device_sn`,
      )
      const orgById = new Map(orgs.map((o) => [o.id, o]))
      for (const r of sealed) {
        const o = orgById.get(r.agency_id) as (typeof orgs)[number]
        devices.push({
          sn: r.device_sn,
          secret: ctx.sealer.open(r.secret_enc),
          agencyKey: o.key,
          indexLink: o.link,
          seq: 0,
          busy: false,
        })
      }
      await database.close()
      log(`seeded; ${devices.length} bench devices over ${orgs.length} organisations`)
    }

    // 2. Two instances on the database, each with its own data folder.
    const ports = [await freePort(), await freePort()]
    const base = { ...secrets, DATABASE_URL: url, HOST: '127.0.0.1' }
    const servers = await Promise.all(
      (['a', 'b'] as const).map((n, i) =>
        startServer(n, { ...base, PORT: String(ports[i]), DATA_DIR: path.join(work, n, 'data') }),
      ),
    )
    const urls = ports.map((p) => `http://127.0.0.1:${p}`)
    log(`instances up: ${urls.join(', ')} (pids ${servers.map((s) => s.child.pid).join(', ')})`)

    // 3. Consoles: every single-organisation demo member, in turn, alternately on each instance.
    const members = demoMembers.filter((m, i, all) => all.findIndex((x) => x.phone === m.phone) === i)
    const singles = members.filter((m) => demoMembers.filter((x) => x.phone === m.phone).length === 1)
    const tokens = new Map<string, string>()
    for (const m of singles) {
      const r = await fetch(`${urls[0]}/api/v1/member/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mobile: m.phone, password: DEMO_PASSWORD, login_way: 1, member_type: 3 }),
      })
      const j = (await r.json()) as { code: number; msg: string; data: { token: string } }
      if (j.code !== 0) throw new Error(`sign-in of ${m.phone}: ${j.code} ${j.msg}`)
      tokens.set(m.phone, j.data.token)
    }
    const consoles: ConsoleWs[] = []
    const rescuesBySn = new Map<string, Rescue>()
    const rescues: Rescue[] = []
    let outOfScope = 0
    let unknownAlarm = 0
    let duplicateAlarm = 0
    let escalations = 0
    function onFrame(c: ConsoleWs, raw: WebSocket.RawData) {
      const at = Date.now()
      const f = JSON.parse(String(raw)) as { id: number; data_type: number; data: Record<string, unknown> }
      c.frames[f.data_type] = (c.frames[f.data_type] ?? 0) + 1
      const before = c.maxId
      if (f.id > c.maxId) c.maxId = f.id
      if (f.data_type !== LiveType.AID_ALARM) return
      const sn = String(f.data.device_sn)
      const r = rescuesBySn.get(sn)
      if (!r) {
        unknownAlarm++
        return
      }
      if (!r.indexLink.startsWith(c.indexLink)) outOfScope++
      if (f.data.escalation_level !== 0) {
        escalations++
        return
      }
      if (r.got.has(c.i)) duplicateAlarm++
      else {
        if (r.pushId === null) r.pushId = f.id
        if (![...r.got.keys()].some((k) => consoles[k].instance === c.instance)) {
          for (const k of r.expected) {
            const o = consoles[k]
            if (o.instance === c.instance && k !== c.i) r.aheadOf.set(k, o.maxId)
          }
          r.aheadOf.set(c.i, before)
        }
        r.got.set(c.i, at - r.sentAt)
      }
    }
    const phones = singles.map((m) => m.phone)
    let joinFailed = 0
    const t0join = performance.now()
    for (let start = 0; start < CONSOLES; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, CONSOLES - start) }, (_, k) => {
          const i = start + k
          const phone = phones[i % phones.length]
          const member = singles.find((m) => m.phone === phone) as (typeof singles)[number]
          const instance = (i % 2) as 0 | 1
          const ws = new WebSocket(`ws://127.0.0.1:${ports[instance]}${LIVE_PATH}`)
          const c: ConsoleWs = {
            i,
            ws,
            instance,
            phone,
            indexLink: links.get(member.agency) as string,
            open: false,
            closedCode: null,
            frames: {},
            maxId: 0,
          }
          consoles.push(c)
          return new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              joinFailed++
              resolve()
            }, 30_000)
            ws.on('open', () => ws.send(JSON.stringify({ token: tokens.get(phone) })))
            ws.on('message', (raw) => {
              if (!c.open) {
                // The unconfirmed count closes the join: from here on every push reaches it.
                c.open = true
                clearTimeout(timer)
                resolve()
              }
              onFrame(c, raw)
            })
            ws.on('close', (code) => {
              c.open = false
              c.closedCode = code
              clearTimeout(timer)
              resolve()
            })
            ws.on('error', () => {})
          })
        }),
      )
    }
    const joined = consoles.filter((c) => c.open).length
    log(
      `${joined} of ${CONSOLES} consoles joined in ${((performance.now() - t0join) / 1000).toFixed(1)} s (${joinFailed} timed out); members ${phones.join(', ')}`,
    )

    // 4. The devices' first messages (state rows, online) before the measurement.
    const load: Transport[] = urls.map((x) => httpTransport(x, SOCKETS))
    const alarmLine: Transport[] = urls.map((x) => httpTransport(x, 8))
    const boot = Math.floor(started / 1000) % 2_000_000_000
    const fleet = (d: Bench): FleetDevice => ({
      id: 0,
      sn: d.sn,
      secret: d.secret,
      model: 'D100',
      fwVersion: 'V1.0.0',
      site: null,
      padsExpire: null,
      batteryExpire: null,
      status: 0,
    })
    const fleetOf = new Map(devices.map((d) => [d.sn, fleet(d)]))
    const envelope = (d: Bench, type: string, data: Record<string, unknown>): Envelope => {
      d.seq++
      return { v: 1, id: `${runId}-${d.seq}`, seq: d.seq, boot, ts: Date.now(), type, data } as Envelope
    }
    // Per organisation: the devices kept for rescues (not in the load, so a rescue never waits
    // behind a batch of its own device), a tenth of each organisation's or enough for one rescue
    // a device over the run.
    const runRescues = Math.ceil((MINUTES * 60_000) / RESCUE_EVERY_MS)
    const rescuePool = new Map<string, Bench[]>()
    const loadPool: Bench[] = []
    {
      const byOrg = new Map<string, Bench[]>()
      for (const d of devices) byOrg.set(d.agencyKey, [...(byOrg.get(d.agencyKey) ?? []), d])
      for (const [k, ds] of byOrg) {
        const keep = Math.min(
          ds.length - 1,
          Math.max(Math.ceil(ds.length / 10), Math.ceil(runRescues / byOrg.size) + 1),
        )
        rescuePool.set(k, ds.slice(0, keep))
        loadPool.push(...ds.slice(keep))
      }
    }
    {
      let next = 0
      let bad = 0
      const t = performance.now()
      await Promise.all(
        Array.from({ length: 32 }, async (_, w) => {
          while (next < devices.length) {
            const d = devices[next++]
            const r = await load[w % 2].send(fleetOf.get(d.sn) as FleetDevice, [
              envelope(d, 'hello', { model: 'D100', fw_version: 'V1.0.0', report_interval_s: 3600 }),
              envelope(d, 'heartbeat', { battery: 90, rssi: -70 }),
            ])
            if (!r.ok) bad++
          }
        }),
      )
      log(
        `first messages of ${devices.length} devices in ${((performance.now() - t) / 1000).toFixed(1)} s (${bad} failed)`,
      )
    }

    // The outbox the first messages filled (status changes) drained, so no alarm waits behind it.
    {
      const t = performance.now()
      const q = new pg.Client({ connectionString: url })
      await q.connect()
      let left = -1
      while (performance.now() - t < 300_000) {
        const r = await q.query(
          // The topics with a handler (webhook rows wait for a sender that does not exist yet).
          "SELECT count(*)::int AS n FROM outbox WHERE done_at IS NULL AND available_at <= now() AND topic IN ('live', 'message', 'sms')",
        )
        left = r.rows[0].n
        if (left === 0) break
        await sleep(500)
      }
      await q.end()
      log(`outbox drained in ${((performance.now() - t) / 1000).toFixed(1)} s (${left} left)`)
    }

    // 5. The run: the load, the rescues, the samples.
    const stats = {
      offered: 0,
      acked: 0,
      duplicates: 0,
      errors: 0,
      refused: 0,
      skipped: 0,
      requests: 0,
      ackMs: [] as number[],
    }
    const errorKinds = new Map<string, number>()
    const runMs = MINUTES * 60_000
    const runStart = performance.now()
    const wallStart = Date.now()
    let stop = false
    let inflight = 0
    // No request waits for a connection on the client: a slow server lowers what is offered.
    const cap = SOCKETS * 2
    let rr = 0
    let turn = 0
    let sentMsgs = 0
    const loop = (async () => {
      while (!stop) {
        const due = Math.floor(((performance.now() - runStart) / 1000) * RATE) - sentMsgs
        // Behind by more than a second's worth: what cannot be offered is counted, not queued.
        if (due > RATE) {
          stats.skipped += due - RATE
          sentMsgs += due - RATE
        }
        let want = Math.floor(((performance.now() - runStart) / 1000) * RATE) - sentMsgs
        let scanned = 0
        while (want > 0 && inflight < cap && scanned < loadPool.length) {
          const d = loadPool[rr++ % loadPool.length]
          scanned++
          if (d.busy) continue
          const n = Math.min(BATCH, want)
          const batch: Envelope[] = []
          for (let k = 0; k < n; k++) {
            const m = sentMsgs + k
            batch.push(
              m % 10 === 9
                ? envelope(d, 'selftest', {
                    report_type: 1,
                    result: m % 500 === 9 ? 'fail' : 'pass',
                    fault_codes: m % 500 === 9 ? ['E02'] : [],
                  })
                : envelope(d, 'heartbeat', { battery: 90, rssi: -70 }),
            )
          }
          want -= n
          sentMsgs += n
          stats.offered += n
          stats.requests++
          d.busy = true
          inflight++
          const t = performance.now()
          const tr = load[turn++ % 2]
          void tr.send(fleetOf.get(d.sn) as FleetDevice, batch).then((r) => {
            inflight--
            d.busy = false
            if (r.ok) {
              stats.acked += r.acked.length
              stats.duplicates += r.duplicates.length
              stats.ackMs.push(performance.now() - t)
            } else {
              if (r.refused) stats.refused += n
              else stats.errors += n
              const k = r.error.slice(0, 80)
              errorKinds.set(k, (errorKinds.get(k) ?? 0) + 1)
            }
          })
        }
        await sleep(10)
      }
    })()

    const orgKeys = [...rescuePool.keys()]
    let rescueSkipped = 0
    const rescueTimer = setInterval(() => {
      const n = rescues.length
      const key = orgKeys[n % orgKeys.length]
      const pool = rescuePool.get(key) as Bench[]
      const d = pool[Math.floor(n / orgKeys.length) % pool.length]
      if (rescuesBySn.has(d.sn)) {
        // Every rescue device used: one alarm per device keeps the frames unambiguous.
        rescueSkipped++
        return
      }
      const expected = new Set(
        consoles.filter((c) => c.open && d.indexLink.startsWith(c.indexLink)).map((c) => c.i),
      )
      const msg = envelope(d, 'usage', {
        rescue_event_id: `B${runId}-${n}`,
        event_time: Date.now(),
        event_desc: 'power_on',
      })
      const r: Rescue = {
        n,
        sn: d.sn,
        indexLink: d.indexLink,
        agencyKey: key,
        sentAt: Date.now(),
        msgId: msg.id,
        ackMs: null,
        error: null,
        expected,
        got: new Map(),
        pushId: null,
        aheadOf: new Map(),
      }
      rescues.push(r)
      rescuesBySn.set(d.sn, r)
      void alarmLine[n % 2].send(fleetOf.get(d.sn) as FleetDevice, [msg]).then((res) => {
        if (res.ok) r.ackMs = Date.now() - r.sentAt
        else r.error = res.error
      })
    }, RESCUE_EVERY_MS)

    type Sample = {
      s: number
      rss: number[]
      machine: number
      servers: number[]
      postgres: number
      postgresOurs: number
      bench: number
      load1: number
      rate: number
    }
    const samples: Sample[] = []
    const hz = 100
    let last = {
      m: machineTicks(),
      srv: servers.map((s) => procTicks(s.child.pid as number)),
      pgT: postgresTicks(dbName),
      cpu: process.cpuUsage(),
      t: performance.now(),
      acked: 0,
    }
    const sample = () => {
      const m = machineTicks()
      const srv = servers.map((s) => procTicks(s.child.pid as number))
      const pgT = postgresTicks(dbName)
      const pgD = postgresDelta(last.pgT, pgT)
      const cpu = process.cpuUsage()
      const t = performance.now()
      const secs = (t - last.t) / 1000
      samples.push({
        s: Math.round((t - runStart) / 1000),
        rss: servers.map((s) => rssKb(s.child.pid as number)),
        machine: (100 * (m.busy - last.m.busy)) / Math.max(1, m.total - last.m.total),
        servers: srv.map((x, i) => (100 * (x - last.srv[i])) / hz / Math.max(secs, 0.001)),
        postgres: (100 * pgD.all) / hz / Math.max(secs, 0.001),
        postgresOurs: (100 * pgD.ours) / hz / Math.max(secs, 0.001),
        bench: (cpu.user - last.cpu.user + cpu.system - last.cpu.system) / 1e4 / Math.max(secs, 0.001),
        load1: os.loadavg()[0],
        rate: (stats.acked - last.acked) / Math.max(secs, 0.001),
      })
      last = { m, srv, pgT, cpu, t, acked: stats.acked }
    }
    sample()
    const sampler = setInterval(sample, 30_000)
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const progress = setInterval(() => {
      const secs = (performance.now() - runStart) / 1000
      const done = rescues.filter((r) => r.got.size > 0)
      const lat = rescues.flatMap((r) => [...r.got.values()]).sort((x, y) => x - y)
      log(
        `${secs.toFixed(0)} s: ${(stats.acked / secs).toFixed(0)} msg/s acked, offered ${stats.offered}, skipped ${stats.skipped}, errors ${stats.errors + stats.refused}, in flight ${inflight} | rescues ${rescues.length} (${done.length} heard), alarm p50 ${pct(lat, 50)?.toFixed(0)} p99 ${pct(lat, 99)?.toFixed(0)} ms | RSS ${servers.map((s) => mb(rssKb(s.child.pid as number))).join(' / ')} | load ${os.loadavg()[0].toFixed(1)}`,
      )
    }, 10_000)

    await sleep(runMs)
    clearInterval(rescueTimer)
    stop = true
    await loop
    // The last partial interval, unless a sample was just taken.
    if (performance.now() - last.t > 10_000) sample()
    clearInterval(sampler)
    const loadSecs = (performance.now() - runStart) / 1000
    log(
      `load stopped after ${loadSecs.toFixed(0)} s; ${inflight} requests in flight; grace ${GRACE_MS / 1000} s`,
    )
    const graceEnd = performance.now() + GRACE_MS + 60_000
    while (inflight > 0 && performance.now() < graceEnd) await sleep(100)
    const drained = (performance.now() - runStart) / 1000
    await sleep(GRACE_MS)
    clearInterval(progress)
    delay.disable()
    const load1 = os.loadavg()

    // 6. Figures.
    const all = rescues.flatMap((r) => [...r.got.values()]).sort((x, y) => x - y)
    const expectedPushes = rescues.reduce((n, r) => n + r.expected.size, 0)
    let lost = 0
    const lostBy = new Map<string, number>()
    for (const r of rescues)
      for (const c of r.expected)
        if (!r.got.has(c)) {
          lost++
          const con = consoles[c]
          const k = `${r.agencyKey}→${con.phone}@${'ab'[con.instance]}${con.closedCode !== null ? ` closed ${con.closedCode}` : ''}`
          lostBy.set(k, (lostBy.get(k) ?? 0) + 1)
        }
    const unheard = rescues.filter((r) => r.got.size === 0).length
    // A lost push whose console had already been sent a larger id when the push reached its instance.
    let lostBehind = 0
    let lostWithSnapshot = 0
    for (const r of rescues)
      for (const c of r.expected)
        if (!r.got.has(c) && r.aheadOf.has(c)) {
          lostWithSnapshot++
          if ((r.aheadOf.get(c) as number) > (r.pushId as number)) lostBehind++
        }
    // Alarm latency by the minute the rescue was sent.
    const perMinute: string[] = []
    for (let m = 0; m * 60_000 < MINUTES * 60_000; m++) {
      const xs = rescues
        .filter((r) => r.sentAt - wallStart >= m * 60_000 && r.sentAt - wallStart < (m + 1) * 60_000)
        .flatMap((r) => [...r.got.values()])
        .sort((x, y) => x - y)
      if (xs.length) perMinute.push(`${m + 1}: ${pct(xs, 50).toFixed(0)} / ${pct(xs, 99).toFixed(0)}`)
    }
    const firstPer = rescues
      .filter((r) => r.got.size > 0)
      .map((r) => Math.min(...r.got.values()))
      .sort((x, y) => x - y)
    const lastPer = rescues
      .filter((r) => r.got.size > 0)
      .map((r) => Math.max(...r.got.values()))
      .sort((x, y) => x - y)
    const rescueAck = rescues
      .filter((r) => r.ackMs !== null)
      .map((r) => r.ackMs as number)
      .sort((x, y) => x - y)
    const rescueErrors = rescues.filter((r) => r.error !== null)
    // Where an alarm's time goes, from the server's own stamps: the inbox row's receipt (the
    // handler has the request parsed and its signature checked) and the push's creation (the
    // message drain after the engine's commit). Same machine, same clock.
    const stages = await (async () => {
      const q = new pg.Client({ connectionString: url })
      await q.connect()
      try {
        const inbox = new Map(
          // Message ids are unique per device only.
          (
            await q.query<{ sn: string; msg_id: string; at: number }>(
              `SELECT d.device_sn AS sn, i.msg_id, extract(epoch FROM i.received_at) * 1000 AS at
               FROM unnest($1::text[], $2::text[]) AS r (sn, msg_id)
               JOIN devices d ON d.device_sn = r.sn
               JOIN device_inbox i ON i.sender_kind = 'aed' AND i.sender_id = d.id AND i.msg_id = r.msg_id`,
              [rescues.map((r) => r.sn), rescues.map((r) => r.msgId)],
            )
          ).rows.map((r) => [`${r.sn} ${r.msg_id}`, Number(r.at)]),
        )
        const pushes = new Map(
          (
            await q.query<{ id: number; at: number }>(
              'SELECT id::int, extract(epoch FROM create_time) * 1000 AS at FROM live_pushes WHERE id = ANY($1)',
              [rescues.flatMap((r) => (r.pushId === null ? [] : [r.pushId]))],
            )
          ).rows.map((r) => [r.id, Number(r.at)]),
        )
        const receipt: number[] = []
        const toPush: number[] = []
        const toFirst: number[] = []
        const fanOut: number[] = []
        for (const r of rescues) {
          const taken = inbox.get(`${r.sn} ${r.msgId}`)
          const pushed = r.pushId === null ? undefined : pushes.get(r.pushId)
          if (taken === undefined || pushed === undefined || r.got.size === 0) continue
          const times = [...r.got.values()]
          receipt.push(taken - r.sentAt)
          toPush.push(pushed - taken)
          toFirst.push(r.sentAt + Math.min(...times) - pushed)
          fanOut.push(Math.max(...times) - Math.min(...times))
        }
        const line = (xs: number[]) => {
          xs.sort((x, y) => x - y)
          return `${Math.round(pct(xs, 50))} / ${Math.round(pct(xs, 99))}`
        }
        return `${receipt.length} rescues: POST to the server's receipt ${line(receipt)}; receipt to the push (engine, commit, message drain) ${line(toPush)}; push to the first console (drain's commit, NOTIFY, hub) ${line(toFirst)}; first to last console ${line(fanOut)}`
      } finally {
        await q.end()
      }
    })()
    const ackMs = stats.ackMs.sort((x, y) => x - y)
    const closed = consoles.filter((c) => c.closedCode !== null)
    const frames: Record<number, number> = {}
    for (const c of consoles)
      for (const [k, v] of Object.entries(c.frames)) frames[+k] = (frames[+k] ?? 0) + v
    const window = (from: number, to: number) => samples.filter((s) => s.s >= from && s.s <= to)
    const avg = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / Math.max(1, xs.length)
    const first = window(0, 60)
    const lastMin = window(Math.max(0, MINUTES * 60 - 60), 1e9)
    const rssLine = (w: Sample[]) => [0, 1].map((i) => mb(avg(w.map((s) => s.rss[i])))).join(' / ')
    // The first sample is the run's start (RSS only; its CPU interval is empty).
    const during = samples.slice(1)
    const cores = os.cpus().length
    const f0 = (x: number) => x.toFixed(0)

    const rows: [string, string][] = [
      [
        'run',
        `${MINUTES} min, ${CONSOLES} consoles (${joined} joined), ${DEVICES} devices, batches of ${BATCH}`,
      ],
      [
        'device messages',
        `offered ${RATE}/s: sent ${stats.offered} (${f0(stats.offered / loadSecs)}/s), acknowledged ${stats.acked} (**${f0(stats.acked / loadSecs)}/s**), not offered (client behind) ${stats.skipped}`,
      ],
      [
        'HTTP errors',
        `${stats.errors} messages in failed requests, ${stats.refused} refused; ${[...errorKinds].map(([k, v]) => `${v}× ${k}`).join('; ') || 'none'}`,
      ],
      [
        'batch ack latency',
        `p50 ${f0(pct(ackMs, 50))} ms, p95 ${f0(pct(ackMs, 95))}, p99 ${f0(pct(ackMs, 99))}, max ${f0(ackMs.at(-1) ?? 0)} (${stats.requests} requests; all done ${drained.toFixed(0)} s after the start)`,
      ],
      [
        'rescues',
        `${rescues.length} (one every ${RESCUE_EVERY_MS / 1000} s${rescueSkipped ? `; ${rescueSkipped} not sent, no unused device` : ''}), POST acknowledged p50 ${f0(pct(rescueAck, 50))} ms, p99 ${f0(pct(rescueAck, 99))} ms; ${rescueErrors.length} failed${rescueErrors.length ? ` (${rescueErrors[0].error})` : ''}`,
      ],
      [
        'alarm latency, every console',
        `**p50 ${f0(pct(all, 50))} ms, p95 ${f0(pct(all, 95))}, p99 ${f0(pct(all, 99))}, max ${f0(all.at(-1) ?? 0)}** (${all.length} pushes)`,
      ],
      ['where the time goes, p50 / p99 ms', stages],
      [
        'alarm latency, first / last console of each',
        `p99 ${f0(pct(firstPer, 99))} / ${f0(pct(lastPer, 99))} ms; p50 ${f0(pct(firstPer, 50))} / ${f0(pct(lastPer, 50))}`,
      ],
      [
        'pushes lost',
        `**${lost}** of ${expectedPushes} expected (${unheard} rescues heard by no console)${
          lostBy.size
            ? `: ${[...lostBy]
                .slice(0, 8)
                .map(([k, v]) => `${k} ${v}`)
                .join(', ')}`
            : ''
        }`,
      ],
      [
        'lost pushes, console already past its id',
        `${lostBehind} of the ${lostWithSnapshot} lost where another console of the same instance got it`,
      ],
      ['alarm latency p50 / p99 by minute (ms)', perMinute.join('; ')],
      ['pushes outside scope', `**${outOfScope}**; alarms of no bench rescue ${unknownAlarm}`],
      ['duplicate / escalated alarm frames', `${duplicateAlarm} / ${escalations}`],
      [
        'other frames received (warm-up and run)',
        `device status (11) ${frames[11] ?? 0}, count (12) ${frames[12] ?? 0}, message (13) ${frames[13] ?? 0}`,
      ],
      [
        'consoles closed during the run',
        `${closed.length}${closed.length ? ` (codes ${[...new Set(closed.map((c) => c.closedCode))].join(', ')})` : ''}`,
      ],
      [
        'server RSS A / B',
        `start ${rssLine(samples.slice(0, 1))}; first minute ${rssLine(first)}; last minute ${rssLine(lastMin)}; peak ${[0, 1].map((i) => mb(Math.max(...samples.map((s) => s.rss[i])))).join(' / ')}`,
      ],
      [
        'CPU (% of one core, mean of 30 s samples)',
        `machine ${f0(avg(during.map((s) => s.machine)))} % of ${cores} cores busy; server A ${f0(avg(during.map((s) => s.servers[0])))}, B ${f0(avg(during.map((s) => s.servers[1])))}, PostgreSQL: the bench database's backends ${f0(avg(during.map((s) => s.postgresOurs)))}, every postgres process ${f0(avg(during.map((s) => s.postgres)))}, bench ${f0(avg(during.map((s) => s.bench)))}, other processes ${f0(avg(during.map((s) => s.machine * cores - s.servers[0] - s.servers[1] - s.postgres - s.bench)))}`,
      ],
      [
        'bench event loop delay',
        `p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms (bounds what the bench adds to a latency)`,
      ],
      [
        'load average',
        `before ${load0.map((x) => x.toFixed(1)).join(' ')}; after ${load1.map((x) => x.toFixed(1)).join(' ')}`,
      ],
    ]
    console.log('\n| figure | value |\n| --- | --- |')
    for (const [k, v] of rows) console.log(`| ${k} | ${v} |`)
    console.log(
      '\nSamples (s: RSS A / B, machine busy %, A %, B %, PostgreSQL bench database / all %, bench %, acked/s, load):',
    )
    for (const s of samples)
      console.log(
        `  ${String(s.s).padStart(4)} s: ${mb(s.rss[0])} / ${mb(s.rss[1])}, ${f0(s.machine)} %, ${f0(s.servers[0])} %, ${f0(s.servers[1])} %, ${f0(s.postgresOurs)} / ${f0(s.postgres)} %, ${f0(s.bench)} %, ${f0(s.rate)}/s, ${s.load1.toFixed(1)}`,
      )
    for (const s of servers) {
      const text = fs.existsSync(s.logFile) ? fs.readFileSync(s.logFile, 'utf8') : ''
      const lines = text.split('\n').filter((l) => l.trim())
      console.log(`\n${path.basename(s.logFile)}: ${lines.length} lines of warnings and errors`)
      for (const l of lines.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`)
    }
    console.log(
      `\nwall time ${((Date.now() - wallStart) / 1000).toFixed(0)} s; database ${dbName}${a.keep ? ' kept' : ' dropped'}`,
    )
    for (const c of consoles) c.ws.terminate()
    for (const t of [...load, ...alarmLine]) await t.close()
  } finally {
    await cleanup()
  }
}

run().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    process.exit(1)
  },
)
