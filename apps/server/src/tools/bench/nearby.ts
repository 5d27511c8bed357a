// `npm run bench:nearby`: times the open API's nearest ready AEDs (GET /open-api/v1/aed/nearby,
// nearest 10 within 5 km) among 100,000 registered devices (network.ts, most made ready here),
// as the whole network's integrator, a general agent's and one organisation's. Each case is timed
// twice: the query alone (the service call: what the GiST index serves) and the whole signed
// request through the HTTP stack (inject: the integrator guard's key look-up, nonce and request
// bucket, then the query). Prints p50 / p95 / max in milliseconds and the query's plan.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../app.ts'
import { one } from '../../db/sql.ts'
import { signOpenApiRequest } from '../../lib/open-api-signing.ts'
import { explainNearby } from '../../modules/open-api/open-api.repository.ts'
import { chinaTime, nearby } from '../../modules/open-api/open-api.service.ts'
import { benchContext, openBenchDatabase } from './harness/database.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { log, printTable } from './harness/report.ts'
import { runBench } from './harness/servers.ts'
import { signInInject } from './harness/sign-in.ts'
import { ascending, percentile } from './harness/stats.ts'
import { load, makeReady, NETWORK } from './network.ts'

parseOptions(
  {},
  `npm run bench:nearby (settings in the environment)
  BENCH_RUNS=N           requests per case (default 200)
  BENCH_WARM_UP=N        untimed searches per case first (default 50)
  BENCH_DIR=DIR          keep the embedded database in DIR: a later run finds it loaded and only measures
  BENCH_DATABASE_URL=U   PostgreSQL instead of the embedded database
  BENCH_DEVICES, BENCH_AGENCIES, ...: the network's size (network.ts; default 100000 devices)`,
)

const RUNS = envNumber('BENCH_RUNS', 200)
const DIR = process.env.BENCH_DIR
/** Searched within this many metres, for this many AEDs. */
const RADIUS = 5000
const LIMIT = 10
/** Untimed searches per case first. */
const WARM_UP = envNumber('BENCH_WARM_UP', 50)

/** The bench's city centres (network.ts spreads the devices ±0.05° around them). */
const CENTRES = [
  [31.23, 121.47],
  [39.9, 116.4],
  [22.54, 114.06],
  [23.13, 113.26],
  [30.27, 120.15],
  [30.66, 104.07],
]

/** A seeded stream of points: a city, then up to ±0.04° from its centre (inside its devices). */
function points(n: number, seed: number) {
  let s = seed
  const rnd = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    return s / 2 ** 31
  }
  return Array.from({ length: n }, () => {
    const [lat, lon] = CENTRES[Math.floor(rnd() * CENTRES.length)]
    return { lat: lat + (rnd() - 0.5) * 0.08, lon: lon + (rnd() - 0.5) * 0.08 }
  })
}

async function main() {
  if (DIR) fs.mkdirSync(DIR, { recursive: true })
  const database = await openBenchDatabase(DIR ?? null)
  const dataDir = path.join(os.tmpdir(), `aed-bench-${crypto.randomBytes(4).toString('hex')}`)
  // The request limit is not what is measured: every request is let through.
  const ctx = await benchContext(database, { DATA_DIR: dataDir, OPEN_API_BURST: '100000000' })
  const app = await buildApp(ctx)
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  const t0 = performance.now()
  if (!loaded?.n) await load(ctx)
  await makeReady(ctx.db)
  const loadS = ((performance.now() - t0) / 1000).toFixed(1)
  const counts = await one<{ installed: number; ready: number }>(
    ctx.db,
    sql`SELECT count(*) AS installed, count(*) FILTER (WHERE d.readiness = 'ready') AS ready
        FROM installations i JOIN devices d ON d.id = i.device_id WHERE i.removed_at IS NULL`,
  )
  log(`${database.kind}: ${counts?.installed} installed AEDs, ${counts?.ready} ready (loaded in ${loadS} s)`)

  // Integrators: the system organisation (the whole network), the East China general agent
  // (half of the bench's agencies), and one bench organisation (about 50 devices).
  const admin = await signInInject(app, '13800000000')
  const ids = await one<{ root: number; agent: number; single: number }>(
    ctx.db,
    sql`SELECT (SELECT id FROM agencies WHERE agency_type = 0 ORDER BY id LIMIT 1) AS root, 2 AS agent,
               (SELECT min(id) FROM agencies WHERE name LIKE '压测机构%') + 4 AS single`,
  )
  if (!ids) throw new Error('no agencies')
  const integrators: [string, number][] = [
    ['whole network', ids.root],
    ['general agent', ids.agent],
    ['one organisation', ids.single],
  ]
  const keys = new Map<number, { token: string; secret: string; index_link: string }>()
  for (const [, agencyId] of integrators) {
    await ctx.db.execute(sql`DELETE FROM app_service_configs WHERE agency_id = ${agencyId}`)
    const r = await app.inject({
      method: 'POST',
      url: '/api/v1/agency/app-service/config',
      headers: { authorization: `JWT ${admin}` },
      payload: { agency_id: agencyId, service: ['open_api'], state: 1 },
    })
    const c = (r.json() as { code: number; msg: string; data: ServiceConfig }).data
    if (!c?.access_token) throw new Error(`service configuration for ${agencyId}: ${r.body.slice(0, 200)}`)
    const link = await one<{ index_link: string }>(
      ctx.db,
      sql`SELECT index_link FROM agencies WHERE id = ${agencyId}`,
    )
    keys.set(agencyId, { token: c.access_token, secret: c.secret as string, index_link: link!.index_link })
  }

  /** One signed request through the HTTP stack; answers how many AEDs it found. */
  const signedNearby = async (key: { token: string; secret: string }, p: { lat: number; lon: number }) => {
    const target = `/open-api/v1/aed/nearby?lat=${p.lat}&lon=${p.lon}&radius=${RADIUS}&limit=${LIMIT}`
    const headers = signOpenApiRequest(key.token, key.secret, {
      method: 'GET',
      target,
      timestamp: Math.floor(ctx.clock.now().getTime() / 1000),
    })
    const r = await app.inject({ method: 'GET', url: target, headers })
    const body = r.json() as { code: number; data: { resource: unknown[] } }
    if (body.code !== 0) throw new Error(`${target}: ${r.body.slice(0, 200)}`)
    return body.data.resource.length
  }

  const rows: string[][] = []
  /** A row: the percentiles, this process's CPU time per search (on PGlite the whole work, however busy the machine), the mean found. */
  const stat = (name: string, times: number[], cpu: NodeJS.CpuUsage, found: number) => {
    const s = ascending(times)
    const q = (p: number) => percentile(s, p).toFixed(1)
    const cpuMs = (cpu.user + cpu.system) / 1000 / times.length
    rows.push([name, q(50), q(95), s.at(-1)!.toFixed(1), cpuMs.toFixed(1), (found / times.length).toFixed(1)])
  }
  // Warm-up, every case before any is timed: the first queries read the index and the tables into
  // the cache, and PGlite's WebAssembly is compiled as each of its paths is first taken.
  for (const [, agencyId] of integrators) {
    const key = keys.get(agencyId)!
    for (const p of points(WARM_UP, agencyId)) {
      await nearby(
        ctx.db,
        { index_link: key.index_link },
        { ...p, radius: RADIUS, limit: LIMIT, coord: 'gcj02' },
        ctx.clock.now(),
        null,
      )
      await signedNearby(key, p)
    }
  }
  for (const [name, agencyId] of integrators) {
    const key = keys.get(agencyId)!
    const scope = { index_link: key.index_link }
    const at = points(RUNS, 20_261_126 + agencyId)
    let found = 0
    const query: number[] = []
    let cpu = process.cpuUsage()
    for (const p of at) {
      const s = performance.now()
      const r = await nearby(
        ctx.db,
        scope,
        { ...p, radius: RADIUS, limit: LIMIT, coord: 'gcj02' },
        ctx.clock.now(),
        null,
      )
      query.push(performance.now() - s)
      found += r.resource.length
    }
    stat(`${name}: query`, query, process.cpuUsage(cpu), found)
    found = 0
    const request: number[] = []
    cpu = process.cpuUsage()
    for (const p of at) {
      const s = performance.now()
      const n = await signedNearby(key, p)
      request.push(performance.now() - s)
      found += n
    }
    stat(`${name}: signed request`, request, process.cpuUsage(cpu), found)
  }

  console.log(
    `\n${database.kind}: nearest ${LIMIT} ready AEDs within ${RADIUS} m, ${NETWORK.devices} registered devices, ${RUNS} runs each\n`,
  )
  printTable(
    ['case', 'p50 ms', 'p95 ms', 'max ms', 'CPU ms of this process (mean)', 'AEDs found (mean)'],
    rows,
  )

  // The plan of one search of the whole network, as it ran.
  const [p] = points(1, 7)
  const root = keys.get(ids.root)!
  const plan = await explainNearby(
    ctx.db,
    { index_link: root.index_link },
    { ...p, radius: RADIUS, limit: LIMIT, at: chinaTime(ctx.clock.now()) },
    true,
  )
  console.log(`\nplan (whole network):\n${plan.replace(/^/gm, '  ')}`)
  await app.close()
  await database.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main)
