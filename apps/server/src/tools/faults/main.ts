import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { dynsecLogin } from '../../modules/gateway/mqtt-auth.ts'
import { DEMO_PASSWORD } from '../../seed/seed.ts'
import { startReceiver } from '../../test/webhook-receiver.ts'
import { type Cluster, REPO_ROOT, startCluster } from '../cluster/launch.ts'
import { signIn } from '../fleet/fleet-api.ts'
import { openConsoles } from './consoles.ts'
import { FAULTS, type FaultEnv } from './faults.ts'
import {
  checkAlarms,
  checkJobs,
  checkMessages,
  checkNotifications,
  installJobLog,
  pendingPastRetry,
  type Verdict,
} from './invariants.ts'
import { runId, startLoad } from './load.ts'
import { loadDevices, seedNetwork } from './setup.ts'
import { startTcpProxy } from './tcp-proxy.ts'

// npm run test:faults: one cluster (2 instances, PostgreSQL, Mosquitto, nginx) under a steady load
// of devices over HTTPS and MQTT and of live consoles; each fault in turn with load before, during
// and after it, then the invariants (invariants.ts). One row per fault; exit 1 when any fails or
// the whole run passes its deadline. FAULTS_HTTPS, FAULTS_MQTT, FAULTS_CONSOLES size the load;
// FAULTS_ONLY=2,4 runs some faults (numbered from 1); FAULTS_DEADLINE_S (480) bounds the whole run.

const DEADLINE_MS = Number(process.env.FAULTS_DEADLINE_S ?? 480) * 1000
const BEFORE_MS = 8000
const AFTER_MS = 10_000
/** How long the invariants may take to hold after the load settles (outbox drains, replays). */
const CHECK_MS = 30_000

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const t0 = Date.now()
const log = (line: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Row = {
  name: string
  sent: number
  acked: number
  applied: number
  lost: number
  recoveryMs: number | null
  problems: string[]
}

let cluster: Cluster | null = null
let cleanup: (() => Promise<void>) | null = null

async function main(): Promise<Row[]> {
  const keys = {
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
  }
  const dir = path.join(REPO_ROOT, '.cluster', `faults-${process.pid}`)
  const receiver = await startReceiver()
  // Instance 1 reaches PostgreSQL through the proxy; its target is known once the cluster has a port.
  const pgTarget = { host: '127.0.0.1', port: 0 }
  const proxy = await startTcpProxy(pgTarget)
  cleanup = async () => {
    await proxy.close()
    await receiver.close()
  }
  cluster = await startCluster({
    dir,
    port: 0,
    seedDemo: false,
    log: (line) => log(`cluster: ${line}`),
    env: { ...keys, SEED_HISTORY: 'false', WEBHOOK_ALLOW_PRIVATE: '1', LOG_LEVEL: 'warn' },
    serverEnv: (i, base) => {
      const url = new URL(base.DATABASE_URL)
      if (i === 1) {
        pgTarget.host = url.hostname
        pgTarget.port = Number(url.port)
        url.host = `127.0.0.1:${proxy.port}`
      }
      url.searchParams.set('application_name', `aed-server-${i}`)
      return { ...base, DATABASE_URL: url.toString() }
    },
  })
  const urls = cluster.urls
  log(`cluster up: nginx ${urls.http}, mqtt ${urls.mqtt}, instances ${urls.servers.join(' ')}`)

  const https = num('FAULTS_HTTPS', 10)
  const mqtt = num('FAULTS_MQTT', 10)
  const net = await seedNetwork(
    urls.databaseUrl,
    path.join(dir, 'seed'),
    keys,
    receiver.url('/hook'),
    https + mqtt + 1,
  )
  const connect = async () => {
    const c = new pg.Client({ connectionString: urls.databaseUrl, application_name: 'aed-faults' })
    c.on('error', () => {})
    await c.connect()
    return c
  }
  let db = await connect()
  await installJobLog(db)

  const token = await signIn(urls.http, { phone: '13800000000', password: DEMO_PASSWORD })
  const k = num('FAULTS_CONSOLES', 6)
  const targets = Array.from({ length: k }, (_, i) =>
    i % 3 === 2 ? { via: 'nginx', base: urls.http } : { via: `server-${i % 3}`, base: urls.servers[i % 3] },
  )
  const consoles = openConsoles(targets, token)
  const load = startLoad({
    devices: loadDevices(net, https, mqtt),
    httpBase: urls.http,
    mqttUrl: urls.mqtt,
    // The cluster runs MQTT_AUTH=mosquitto-dynsec: each device's static account in Mosquitto.
    mqttLogin: (d) => dynsecLogin(d.secret, d.sn),
    intervalMs: 1000,
    rescueEvery: 15,
    run: runId(),
  })
  const prevCleanup = cleanup
  cleanup = async () => {
    consoles.stop()
    await load.stop()
    await db.end().catch(() => {})
    await prevCleanup()
  }
  const firstJoin = new Map<number, number>()
  const noteJoins = setInterval(() => {
    for (const c of consoles.consoles) if (c.open && !firstJoin.has(c.i)) firstJoin.set(c.i, Date.now())
  }, 50)
  noteJoins.unref()
  log(`load: ${https} AEDs over HTTPS, ${mqtt} over MQTT, a message a second each; ${k} consoles`)
  const warm = async (ms: number) => {
    const by = Date.now() + ms
    while (Date.now() < by && (consoles.openCount() < k || load.connected() < mqtt)) await sleep(200)
    log(
      `warm: ${consoles.openCount()} of ${k} consoles joined, ${load.connected()} of ${mqtt} MQTT devices connected`,
    )
    return consoles.openCount() === k && load.connected() === mqtt
  }
  if (!(await warm(20_000))) {
    // The devices' Mosquitto accounts, made by one instance from the seed, can be deleted by the
    // other's start-up reconcile that read the register before the seed (seen here; reported):
    // each instance started again reconciles with the seeded register.
    log('MQTT devices refused: the instances are started again to reconcile their Mosquitto accounts')
    for (const i of [0, 1]) {
      await cluster.killServer(i, 'SIGTERM')
      await cluster.startServer(i)
    }
    if (!(await warm(30_000))) throw new Error('the load could not connect (see the warm line above)')
  }

  const only = (process.env.FAULTS_ONLY ?? '').split(',').filter(Boolean).map(Number)
  const env: FaultEnv = {
    cluster,
    proxy,
    db,
    connect,
    load,
    consoles,
    spare: net.devices[https + mqtt],
    log,
  }
  const rows: Row[] = []
  for (const [n, fault] of FAULTS.entries()) {
    if (only.length > 0 && !only.includes(n + 1)) continue
    load.setTag(fault.name)
    const since = new Date()
    const joinsBefore = consoles.consoles.reduce((sum, x) => sum + x.joins, 0)
    log(`${n + 1}. ${fault.name}: load for ${BEFORE_MS / 1000} s`)
    await sleep(BEFORE_MS)
    log(`${n + 1}. ${fault.name}: fault`)
    const outcome = await fault
      .run(env)
      .catch((e: Error) => ({ recoveryMs: null, problems: [`the fault failed: ${e.message}`] }))
    log(
      `${n + 1}. ${fault.name}: recovered in ${outcome.recoveryMs ?? '–'} ms; load for ${AFTER_MS / 1000} s`,
    )
    await sleep(AFTER_MS)
    load.pause()
    const settled = Date.now() + 30_000
    while (Date.now() < settled && load.unacknowledged() > 0) await sleep(200)
    // A restart of PostgreSQL ends this connection: the checks use a new one.
    await db.query('SELECT 1').catch(async () => {
      await db.end().catch(() => {})
      db = await connect()
      env.db = db
    })
    const sent = load.messages.filter((m) => m.tag === fault.name)
    let verdicts: Verdict[] = []
    let pending: string[] = []
    const checkBy = Date.now() + CHECK_MS
    do {
      verdicts = [
        await checkMessages(db, sent, since),
        await checkAlarms(
          db,
          env.load.devices.map((d) => d.sn),
          consoles.consoles,
          since,
          firstJoin,
        ),
        await checkNotifications(db, net.webhookConfigId, receiver.got),
        await checkJobs(db, since),
      ]
      pending = await pendingPastRetry(db)
      if (verdicts.every((v) => v.problems.length === 0) && pending.length === 0) break
      await sleep(1000)
    } while (Date.now() < checkBy)
    const unacked = load.unacknowledged()
    const problems = [
      ...outcome.problems,
      ...(unacked > 0 ? [`${unacked} messages still unacknowledged 30 s after the load paused`] : []),
      ...verdicts.flatMap((v) => v.problems),
      ...pending,
    ]
    const c = verdicts[0].counts
    rows.push({
      name: fault.name,
      sent: c.sent,
      acked: c.acknowledged,
      applied: c.applied,
      lost: c.lost,
      recoveryMs: outcome.recoveryMs,
      problems,
    })
    const rejoins = consoles.consoles.reduce((sum, x) => sum + x.joins, 0) - joinsBefore
    const notes = [...verdicts.flatMap((v) => v.notes), `consoles rejoined ${rejoins} times`]
    log(`${n + 1}. ${fault.name}: ${problems.length === 0 ? 'pass' : 'FAIL'}; ${notes.join('; ')}`)
    load.resume()
  }
  log(`wire errors seen by the load: ${JSON.stringify(load.errors)}`)
  return rows
}

function printTable(rows: Row[]) {
  const head = ['fault', 'sent', 'acked', 'applied', 'lost', 'recovery ms', 'result']
  const body = rows.map((r) => [
    r.name,
    String(r.sent),
    String(r.acked),
    String(r.applied),
    String(r.lost),
    r.recoveryMs === null ? '–' : String(r.recoveryMs),
    r.problems.length === 0 ? 'pass' : 'FAIL',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  console.log(line(head))
  for (const b of body) console.log(line(b))
  for (const r of rows) for (const p of r.problems) console.log(`  ${r.name}: ${p}`)
}

/** Stops everything the suite started; the cluster's folder is removed when it passed, else kept for its logs. */
async function stopAll(passed: boolean) {
  await cleanup?.().catch((e: Error) => log(`cleanup: ${e.message}`))
  if (cluster) {
    const dir = cluster.dir
    await cluster.stop().catch((e: Error) => log(`cluster stop: ${e.message}`))
    if (passed) fs.rmSync(dir, { recursive: true, force: true })
    else log(`logs kept in ${path.join(dir, 'logs')}`)
  }
}

const deadline = setTimeout(async () => {
  log(`deadline: the suite took more than ${DEADLINE_MS / 60_000} minutes; stopping everything`)
  await stopAll(false)
  console.log('faults: 0 passed, 1 failed (deadline)')
  process.exit(1)
}, DEADLINE_MS)

main()
  .then(async (rows) => {
    clearTimeout(deadline)
    const failed = rows.filter((r) => r.problems.length > 0).length
    await stopAll(failed === 0 && rows.length > 0)
    printTable(rows)
    console.log(`total ${((Date.now() - t0) / 1000).toFixed(0)} s`)
    console.log(`faults: ${rows.length - failed} passed, ${failed} failed`)
    process.exit(failed > 0 || rows.length === 0 ? 1 : 0)
  })
  .catch(async (e: Error) => {
    clearTimeout(deadline)
    log(`the suite failed: ${e.stack ?? e.message}`)
    await stopAll(false)
    console.log('faults: 0 passed, 1 failed')
    process.exit(1)
  })
