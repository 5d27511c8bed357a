import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openPostgres } from '../../../db/client.ts'
import { type Cluster, startCluster } from '../../cluster/launch.ts'
import { httpTransport } from '../../fleet/transports.ts'
import { openConsoles, rescueAlarms } from '../alarm/consoles.ts'
import { startLoad } from '../alarm/load.ts'
import { startRescues } from '../alarm/rescues.ts'
import { seedBenchNetwork } from '../alarm/setup.ts'
import type { Alarms, BenchDevice } from '../alarm/types.ts'
import { benchDevices, drainOutbox, firstMessages, splitPools } from '../alarm/warm-up.ts'
import { log } from '../harness/report.ts'
import { type ServerProcess, sleep } from '../harness/servers.ts'
import { writeRegisterAccounts } from './accounts.ts'
import { deviceLogin } from './login.ts'
import { startMemory, type Watched } from './memory.ts'
import { mqttIn } from './metrics.ts'
import { startMinutes } from './minutes.ts'
import { connectFleet } from './mqtt-fleet.ts'
import { startMqttLoad } from './mqtt-load.ts'
import { report } from './report.ts'
import type { ClusterBenchOptions, RunResult } from './types.ts'

// One run: a fresh cluster of `servers` instances, the devices registered and connected, the
// consoles, then the mixed load, the rescues and the samples for --minutes; the report.

/** The processes to sample: each instance, Mosquitto, nginx, PostgreSQL (with its backends), the bench. */
function watched(cluster: Cluster): Watched[] {
  return [
    ...cluster.state.processes
      .filter((p) => p.running)
      .map((p) => ({ role: p.name, pid: p.pid, tree: p.role === 'postgres' || p.role === 'nginx' })),
    { role: 'bench', pid: process.pid },
  ]
}

/** Runs `sql` on the cluster's database. */
async function query(cluster: Cluster, sql: string) {
  const q = new pg.Client({ connectionString: cluster.urls.databaseUrl })
  await q.connect()
  try {
    return (await q.query(sql)).rows
  } finally {
    await q.end()
  }
}

/**
 * Registers the devices as factory devices of the demo organisations, with their secrets. With
 * `quiet`, the trigger that queues each new device for the servers' dynsec sync is off meanwhile
 * (the bench writes the accounts itself).
 */
async function register(cluster: Cluster, count: number, quiet: boolean) {
  const t = performance.now()
  const secrets = JSON.parse(fs.readFileSync(path.join(cluster.dir, 'secrets.json'), 'utf8')) as Record<
    string,
    string
  >
  if (quiet) await query(cluster, 'ALTER TABLE devices DISABLE TRIGGER devices_mqtt_dynsec_insert')
  const database = await openPostgres(cluster.urls.databaseUrl)
  try {
    const keys = { JWT_SECRET: secrets.JWT_SECRET, DEVICE_SECRET_KEY: secrets.DEVICE_SECRET_KEY }
    const env = { DATABASE_URL: cluster.urls.databaseUrl, DATA_DIR: path.join(cluster.dir, 'bench-setup') }
    const seeded = await seedBenchNetwork(database, env, keys, count)
    log(`${count} devices registered in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    return { ...seeded, deviceSecretKey: secrets.DEVICE_SECRET_KEY }
  } finally {
    await database.close()
    if (quiet) await query(cluster, 'ALTER TABLE devices ENABLE TRIGGER devices_mqtt_dynsec_insert')
  }
}

/**
 * Waits (up to `ms`) until the servers' dynsec sync is idle: no device queued, and the broker's
 * saved accounts (the plugin writes its file at every change) the same for three seconds.
 */
async function waitDynsec(cluster: Cluster, ms: number) {
  const t = performance.now()
  const file = path.join(cluster.dir, 'mosquitto', 'dynamic-security.json')
  const accounts = () => {
    try {
      return (JSON.parse(fs.readFileSync(file, 'utf8')) as { clients: unknown[] }).clients.length
    } catch {
      return -1 // being written
    }
  }
  let left = -1
  let same = 0
  let last = -1
  while (performance.now() - t < ms && same < 3) {
    left = (await query(cluster, 'SELECT count(*)::int AS n FROM mqtt_dynsec_changes'))[0].n
    const n = accounts()
    same = left === 0 && n === last ? same + 1 : 0
    last = n
    await sleep(1000)
  }
  log(
    `dynsec: ${last} broker accounts, ${left} devices queued, after ${((performance.now() - t) / 1000).toFixed(1)} s`,
  )
}

/**
 * Restarts Mosquitto without its persistence: killed (SIGTERM would save its sessions once more),
 * its database removed, started again. Restored from its persistence, Mosquitto 2.0.11 routed
 * nothing to the servers' shared subscription (they subscribed again: SUBACK, and no message in
 * minutes); a fresh broker does. Nothing is lost here: no device has sent anything yet.
 */
async function freshMosquitto(cluster: Cluster) {
  const p = cluster.state.processes.find((x) => x.name === 'mosquitto')
  if (p?.running) {
    process.kill(p.pid, 'SIGKILL')
    for (let i = 0; i < 100 && fs.existsSync(`/proc/${p.pid}/status`) && !zombie(p.pid); i++) await sleep(100)
  }
  fs.rmSync(path.join(cluster.dir, 'mosquitto', 'mosquitto.db'), { force: true })
  await cluster.restartMosquitto()
}

/** Whether a process has exited but not been waited for yet. */
function zombie(pid: number) {
  try {
    return /State:\s+Z/.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return true
  }
}

/**
 * After Mosquitto's restart: until every instance says it is ready (its broker connection back),
 * then 3 s for its consumers to subscribe again: a fresh broker holds no session for them, so a
 * message published before they are back reaches nobody.
 */
async function brokerBack(bases: string[]) {
  const ready = (b: string) =>
    fetch(`${b}/api/ready`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false)
  await sleep(500)
  for (let i = 0; i < 120; i++) {
    if ((await Promise.all(bases.map(ready))).every(Boolean)) break
    await sleep(500)
  }
  await sleep(3000)
}

/** Waits until the instances took `count` MQTT messages more than `from` (up to `ms`), logging progress. */
async function waitMqtt(bases: string[], from: number, count: number, ms: number) {
  const t = performance.now()
  let got = 0
  while (performance.now() - t < ms) {
    got = (await mqttIn(bases)).reduce((a, b) => a + b, 0) - from
    if (got >= count) break
    await sleep(1000)
  }
  log(`${got} of ${count} first MQTT messages taken in ${((performance.now() - t) / 1000).toFixed(1)} s`)
}

export async function runOnCluster(o: ClusterBenchOptions, servers: number): Promise<RunResult> {
  const dir = path.join(o.dir, `servers-${servers}`)
  fs.rmSync(dir, { recursive: true, force: true })
  const load0 = os.loadavg()
  const cluster = await startCluster({
    dir,
    port: 0,
    servers,
    seedDemo: true,
    env: { LOG_LEVEL: 'warn' },
    log,
  })
  const stopCluster = () => cluster.stop()
  process.once('SIGINT', () => void stopCluster().finally(() => process.exit(130)))
  try {
    // The servers' first reconcile reads the whole register: the bench's devices come after it.
    await waitDynsec(cluster, 600_000)
    const seeded = await register(cluster, o.devices + o.httpDevices, o.dynsec === 'file')
    const mqttDevices = seeded.devices.slice(0, o.devices)
    const httpDevices = seeded.devices.slice(o.devices)
    if (o.dynsec === 'file') {
      const file = path.join(dir, 'mosquitto', 'dynamic-security.json')
      const w = await writeRegisterAccounts(file, cluster.urls.databaseUrl, seeded.deviceSecretKey)
      await freshMosquitto(cluster)
      await brokerBack(cluster.urls.servers)
      log(`${w.accounts} dynsec accounts written in ${(w.ms / 1000).toFixed(1)} s; Mosquitto restarted`)
    } else await waitDynsec(cluster, 1_800_000)
    const runId = Date.now().toString(36)
    const devices = benchDevices(seeded.devices, runId, Math.floor(Date.now() / 1000) % 2_000_000_000)
    const bases = cluster.urls.servers
    const alarms: Alarms = {
      rescues: [],
      bySn: new Map(),
      outOfScope: 0,
      unknown: 0,
      duplicates: 0,
      escalations: 0,
    }
    // openConsoles reads only each instance's base URL; the live channel is opened on the instance itself.
    const instances = bases.map((base) => ({ base }) as ServerProcess)
    const { consoles, joined } = await openConsoles(o.consoles, instances, seeded.links, rescueAlarms(alarms))

    const fleet = await connectFleet(cluster.urls.mqtt, mqttDevices, deviceLogin)
    if (fleet.connected() === 0) throw new Error('no MQTT device could connect')
    const http = httpTransport(cluster.urls.http, o.sockets)
    // The first messages: every MQTT device's hello, every HTTPS device's hello and heartbeat.
    const before = (await mqttIn(bases)).reduce((a, b) => a + b, 0)
    await Promise.all(
      mqttDevices.map((d) =>
        fleet.send(d, [
          devices.envelope(d, 'hello', { model: 'D100', fw_version: 'V1.0.0', report_interval_s: 3600 }),
        ]),
      ),
    )
    await firstMessages({ ...devices, all: httpDevices }, [http])
    await waitMqtt(bases, before, fleet.connected(), 600_000)
    await drainOutbox(cluster.urls.databaseUrl)

    const pools = splitPools(mqttDevices, Math.ceil((o.minutes * 60_000) / o.rescueEveryMs))
    const httpPool: BenchDevice[] = httpDevices
    const runStart = performance.now()
    const wallStart = Date.now()
    const mqtt0 = await mqttIn(bases)
    const memory = startMemory(
      () => watched(cluster),
      path.join(o.out, `cluster-${o.soak ? 'soak' : 'run'}-${servers}.csv`),
      runStart,
    )
    const mqttLoad = startMqttLoad(o.rate * o.mqttShare, devices, pools.loadPool, fleet, runStart)
    const httpLoad = startLoad(
      { rate: o.rate * (1 - o.mqttShare), batch: o.batch, sockets: o.sockets },
      devices,
      httpPool,
      [http],
      runStart,
    )
    const rescues = startRescues(
      o.rescueEveryMs,
      runId,
      devices,
      pools.rescuePool,
      consoles,
      [fleet.transport, fleet.transport],
      alarms,
    )
    const minutes = startMinutes({
      bases,
      mqtt0,
      mqttLoad: mqttLoad.stats,
      httpLoad: httpLoad.stats,
      alarms,
      consoles,
      runStart,
    })
    await sleep(o.minutes * 60_000)
    rescues.stop()
    await Promise.all([mqttLoad.stop(), httpLoad.stop()])
    const secs = (performance.now() - runStart) / 1000
    const mqtt1 = await mqttIn(bases)
    minutes.stop()
    memory.stop()
    log(`load stopped after ${secs.toFixed(0)} s; grace ${o.graceMs / 1000} s for late alarms`)
    await sleep(o.graceMs)
    const result = await report({
      o,
      servers,
      secs,
      wallStart,
      load0,
      load1: os.loadavg(),
      mqtt0,
      mqtt1,
      mqttLoad: mqttLoad.stats,
      httpLoad: httpLoad.stats,
      alarms,
      consoles,
      joined,
      connected: fleet.connected(),
      minutes: minutes.rows(),
      memory: memory.samples,
      rescueSkipped: rescues.counts.skipped,
    })
    for (const c of consoles) c.ws.terminate()
    fleet.close()
    await http.close()
    return result
  } finally {
    if (!o.keep) await stopCluster()
  }
}
