// `npm run bench`: times the administration lists on a large organisation tree, and the device
// list, the factory list, the device statistics, the dashboard map's layers and the rescue list
// on 100,000 registered devices (and 20,000 rescues). Builds the app in-process on a fresh
// embedded database (or BENCH_DATABASE_URL), bulk-loads agencies, users, operation-log rows and
// devices with generate_series (network.ts), then sends each request repeatedly through the real
// HTTP stack (inject) and prints p50 / p95 / max in milliseconds.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../app.ts'
import { one } from '../../db/sql.ts'
import { benchContext, openBenchDatabase } from './harness/database.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { printTable } from './harness/report.ts'
import { runBench } from './harness/servers.ts'
import { signInInject } from './harness/sign-in.ts'
import { ascending, percentile } from './harness/stats.ts'
import { load, loadRescues, NETWORK } from './network.ts'

parseOptions(
  {},
  `npm run bench (settings in the environment)
  BENCH_RUNS=N           requests per case (default 50)
  BENCH_ONLY=RE          only the cases whose name matches the regular expression
  BENCH_DIR=DIR          keep the embedded database in DIR: a later run finds it loaded and only measures
  BENCH_DATABASE_URL=U   PostgreSQL instead of the embedded database
  BENCH_AGENCIES, BENCH_MEMBERS, BENCH_LOGS, BENCH_DEVICES, BENCH_STOCK: the network's size
                         (default 2000, 20000, 200000, 100000, 10000)`,
)

const RUNS = envNumber('BENCH_RUNS', 50)
/** Keeps the embedded database in this folder; a later run finds its data loaded and only measures. */
const DIR = process.env.BENCH_DIR
/** Only the cases whose name matches (a regular expression). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const STATS = '/api/v1/device/statistic'
const BOARD = '/api/v1/analysis-board'
const RESCUES = '/api/v1/aid-event/rescue-event/'
/** The rescue list's time filter: the last 7 days of the bench's 60 (about 2,300 rescues). */
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString()

/** The requests: name, URL, and who sends them (default the system) with which extra headers. */
type Case = [name: string, url: string, token?: string, headers?: Record<string, string>]

/**
 * Signed in as the system super administrator (the whole network), the East China general agent's
 * (half of the bench's agencies and their devices), and one organisation's (the demo Hangzhou
 * centre).
 */
function cases(system: string, agent: string, single: string): Case[] {
  return [
    ['agency list, page 1', '/api/v1/agency/?page=1&page_size=10'],
    ['agency list, page 100', '/api/v1/agency/?page=100&page_size=10'],
    ['agency list, name filter', '/api/v1/agency/?name=%E5%8E%8B%E6%B5%8B%E6%9C%BA%E6%9E%84199'],
    ['agency tree (whole scope)', '/api/v1/agency/hierarchy/'],
    ['user list, page 1', '/api/v1/member/?page=1&page_size=10'],
    ['user list, page 500', '/api/v1/member/?page=500&page_size=20'],
    ['user list, phone filter', '/api/v1/member/?phone=1700001'],
    ['operation log, page 1', '/api/v1/sys-mgmt/operation-log?page=1&page_size=10'],
    [
      'operation log, operator filter',
      '/api/v1/sys-mgmt/operation-log?operator=%E5%8E%8B%E6%B5%8B%E7%94%A8%E6%88%B7499',
    ],
    ['device list, page 1', '/api/v1/device/?page=1&page_size=10'],
    ['device list, serial filter', '/api/v1/device/?device_sn=0012345&page=1&page_size=10'],
    [
      'device list, status + region + battery',
      '/api/v1/device/?status=1&address_code=330100&battery_state=2',
    ],
    ['device list, page 5000', '/api/v1/device/?page=5000&page_size=10'],
    ['factory list, page 1', '/api/v1/device/?device_list_type=2&page=1&page_size=10'],
    ['statistics: state distribution', `${STATS}/state-distribution/`],
    ['statistics: state distribution, a city', `${STATS}/state-distribution/?address_code=330100`],
    ['statistics: main state distribution', `${STATS}/main-state-distribution/`],
    ['statistics: regional distribution', `${STATS}/regional-distribution/`],
    ['statistics: regional distribution, a province', `${STATS}/regional-distribution/?address_code=440000`],
    ['statistics: maintenance monthly', `${STATS}/maintenance-monthly/`],
    ['statistics: key maintenance', `${STATS}/key-maintenance/`],
    ['general agent: device list, page 1', '/api/v1/device/?page=1&page_size=10', agent],
    ['general agent: state distribution', `${STATS}/state-distribution/`, agent],
    ['general agent: main state distribution', `${STATS}/main-state-distribution/`, agent],
    ['one organisation: device list, page 1', '/api/v1/device/?page=1&page_size=10', single],
    ['one organisation: state distribution', `${STATS}/state-distribution/`, single],
    ['one organisation: maintenance monthly', `${STATS}/maintenance-monthly/`, single],
    ['dashboard map: device layer (whole network)', `${BOARD}/device/location/`],
    ['dashboard map: device layer, gzip', `${BOARD}/device/location/`, system, { 'accept-encoding': 'gzip' }],
    ['dashboard map: device layer, brotli', `${BOARD}/device/location/`, system, { 'accept-encoding': 'br' }],
    ['dashboard map: device layer, fault and offline', `${BOARD}/device/location/?status_list=%5B2%2C4%5D`],
    ['dashboard map: device layer, a province', `${BOARD}/device/location/?address_code=440000`],
    ['dashboard map: device layer, a city', `${BOARD}/device/location/?address_code=330100`],
    ['dashboard map: rescue layer', `${BOARD}/rescue-event/location/`],
    ['dashboard map: rescue layer, a province', `${BOARD}/rescue-event/location/?address_code=440000`],
    ['general agent: dashboard map device layer', `${BOARD}/device/location/`, agent],
    ['general agent: dashboard map rescue layer', `${BOARD}/rescue-event/location/`, agent],
    ['one organisation: dashboard map device layer', `${BOARD}/device/location/`, single],
    ['rescue list, page 1', `${RESCUES}?page=1&page_size=10`],
    ['rescue list, page 100', `${RESCUES}?page=100&page_size=10`],
    ['rescue list, a province', `${RESCUES}?address_code=440000`],
    ['rescue list, serial filter', `${RESCUES}?device_sn=0012345`],
    ['rescue list, last 7 days', `${RESCUES}?start_time=${encodeURIComponent(weekAgo)}`],
    ['general agent: rescue list, page 1', `${RESCUES}?page=1&page_size=10`, agent],
    ['one organisation: rescue list, page 1', `${RESCUES}?page=1&page_size=10`, single],
  ]
}

type App = Awaited<ReturnType<typeof buildApp>>

/** A response's body, decompressed. */
const bodyOf = (r: { headers: Record<string, unknown>; rawPayload: Buffer }) => {
  const enc = r.headers['content-encoding']
  const raw = r.rawPayload
  return (
    enc === 'gzip' ? zlib.gunzipSync(raw) : enc === 'br' ? zlib.brotliDecompressSync(raw) : raw
  ).toString()
}

/** Sends each case RUNS times; answers a row per case: name, p50, p95 and max ms. */
async function measure(app: App, all: Case[], system: string) {
  const rows: string[][] = []
  for (const [name, url, token = system, extra = {}] of ONLY ? all.filter(([n]) => ONLY.test(n)) : all) {
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now()
      const r = await app.inject({ method: 'GET', url, headers: { authorization: `JWT ${token}`, ...extra } })
      times.push(performance.now() - s)
      if ((JSON.parse(bodyOf(r)) as { code: number }).code !== 0)
        throw new Error(`${url}: ${r.body.slice(0, 200)}`)
    }
    const sorted = ascending(times)
    const q = (p: number) => percentile(sorted, p).toFixed(1)
    rows.push([name, q(50), q(95), sorted.at(-1)!.toFixed(1)])
  }
  return rows
}

/** The device layer's size on the wire, as the app sends it to each kind of client. */
async function layerSizes(app: App, system: string) {
  const sizes: string[] = []
  for (const enc of ['identity', 'gzip', 'br']) {
    const r = await app.inject({
      method: 'GET',
      url: `${BOARD}/device/location/`,
      headers: { authorization: `JWT ${system}`, 'accept-encoding': enc },
    })
    const data = (JSON.parse(bodyOf(r)) as { data: Record<string, unknown[]> }).data
    const points = ['0', '1', '2', '3', '4'].reduce((n, k) => n + data[k].length, 0)
    sizes.push(`${enc}: ${(r.rawPayload.length / 1024).toFixed(0)} KiB (${points} points)`)
  }
  return sizes
}

/** The installations' copy of their device's status and battery must equal the devices' own. */
async function checkCopies(db: Parameters<typeof one>[0]) {
  // Migration 0011's triggers, which the bulk registration went through, keep the copy.
  const astray = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM installations i
        LEFT JOIN devices d ON d.installation_id = i.id AND d.deleted_at IS NULL
        WHERE i.device_status IS DISTINCT FROM d.status OR i.device_battery IS DISTINCT FROM d.battery`,
  )
  if (astray?.n) throw new Error(`${astray.n} installations disagree with their device's status or battery`)
}

async function main() {
  if (DIR) fs.mkdirSync(DIR, { recursive: true })
  const database = await openBenchDatabase(DIR ?? null)
  // Files (the demo photos) and generated secrets go to a scratch folder, removed at the end.
  const dataDir = path.join(os.tmpdir(), `aed-bench-${crypto.randomBytes(4).toString('hex')}`)
  const ctx = await benchContext(database, { DATA_DIR: dataDir })
  const app = await buildApp(ctx)
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  const { adminLoadMs, deviceLoadMs } = loaded?.n ? { adminLoadMs: 0, deviceLoadMs: 0 } : await load(ctx)
  const rescueLoadMs = await loadRescues(ctx)
  await checkCopies(ctx.db)

  const system = await signInInject(app, '13800000000')
  const rows = await measure(
    app,
    cases(system, await signInInject(app, '13800000011'), await signInInject(app, '13800000021')),
    system,
  )
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  const n = NETWORK
  console.log(
    `\n${database.kind}: ${n.agencies} agencies, ${n.members} users, ${n.logs} log rows (loaded in ${s(adminLoadMs)}), ` +
      `${n.devices} registered devices and ${n.stock} in stock (loaded in ${s(deviceLoadMs)}), ` +
      `20,000 rescues (loaded in ${s(rescueLoadMs)}), ${RUNS} runs each\n`,
  )
  printTable(['request', 'p50 ms', 'p95 ms', 'max ms'], rows)
  if (!ONLY || ONLY.test('dashboard map'))
    console.log(`\ndevice layer, whole network: ${(await layerSizes(app, system)).join(', ')}`)
  await app.close()
  await database.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main)
