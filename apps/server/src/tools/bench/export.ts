// `npm run bench:export` (`npx tsx src/tools/bench/export.ts [load|measure]`): times the device
// list export of BENCH_DEVICES registered devices (default 100,000) through the real HTTP stack,
// and prints the time, the peak RSS while it ran and the rows in the file. The data are loaded once into BENCH_DIR (an embedded database
// there, or BENCH_DATABASE_URL) by a first process, then exported by a second one: the measuring
// process carries no memory of the bulk load.
//
// BENCH_ONLY=<text> runs only the exports whose name contains it; BENCH_REPEAT=<n> runs each n
// times in a row (the first reads the data just after the database opened, the others warm).
// With `node --expose-gc` (for example `node --expose-gc --import tsx
// src/tools/bench/export.ts measure`) it also prints the
// live heap before each export and after it once collected, which tells what the export keeps
// from what the collector had not yet reclaimed at the peak.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../app.ts'
import { one } from '../../db/sql.ts'
import { benchContext, openBenchDatabase } from './harness/database.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { mib as mb } from './harness/report.ts'
import { cpuMsSince, sampleMemory } from './harness/sampling.ts'
import { runBench } from './harness/servers.ts'
import { signInInject } from './harness/sign-in.ts'

const { positionals } = parseOptions(
  {},
  `npm run bench:export -- [load|measure]   (both, each in its own process, when neither is named)
  BENCH_DEVICES=N        registered devices (default 100000)
  BENCH_DIR=DIR          the embedded database and the files (default $TMPDIR/aed-bench-export)
  BENCH_DATABASE_URL=U   PostgreSQL instead of the embedded database
  BENCH_ONLY=TEXT        only the exports whose name contains TEXT
  BENCH_REPEAT=N         each export N times in a row (default 1)
  BENCH_LOG=LEVEL        the server's log level (default silent)
  With node --expose-gc, also the live heap before and after each export.`,
  { positionals: true },
)

const DEVICES = envNumber('BENCH_DEVICES', 100_000)

const dataDir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'aed-bench-export')

async function open() {
  fs.mkdirSync(dataDir, { recursive: true })
  const database = await openBenchDatabase(dataDir)
  const ctx = await benchContext(database, { DATA_DIR: dataDir }, process.env.BENCH_LOG ?? 'silent')
  return { database, ctx }
}

/** First process: the demo seed and the devices, unless they are there already. */
async function load() {
  const { database, ctx } = await open()
  const { db } = ctx
  const found = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM devices WHERE device_sn LIKE 'B64%'`,
  )
  if ((found?.n ?? 0) >= DEVICES) {
    await database.close()
    return
  }
  const t0 = performance.now()
  // Devices spread over the seeded organisations, each installed at an installation with a manager.
  await db.execute(sql`
    INSERT INTO devices (device_sn, model, fw_version, agency_id, secret_enc, status, battery)
    SELECT 'B64' || lpad(g::text, 8, '0'), 'D100', 'V1.0.' || (g % 9), a.id, 'bench', g % 5, g % 101
    FROM generate_series(1, ${DEVICES}) g
    JOIN LATERAL (SELECT id FROM agencies ORDER BY id OFFSET (g % (SELECT count(*) FROM agencies)) LIMIT 1) a ON true`)
  await db.execute(sql`
    INSERT INTO installations (register_code, device_id, agency_id, location, location_desc, address_code, lat, lon,
      device_manager_id, contact, contact_phone, open_state, chest_shot_img, long_shot_img,
      battery_expire, electrode_sheet_expire, host_expire, register_time)
    SELECT 'RB' || lpad(d.id::text, 10, '0'), d.id, d.agency_id, '浙江省杭州市西湖区文三路' || d.id || '号', '一楼大厅',
      '330106', 30.27, 120.13, (SELECT min(id) FROM members), '联系人', '13912345678', d.id % 3, '/files/a.png',
      '/files/b.png', current_date + 400, current_date + 200, current_date + 800,
      now() - (d.id % 1000) * interval '1 hour'
    FROM devices d WHERE d.device_sn LIKE 'B64%'`)
  await db.execute(
    sql`UPDATE devices d SET installation_id = i.id FROM installations i WHERE i.device_id = d.id`,
  )
  // Settled as autovacuum (or, on PGlite, the settle job) leaves a database: hint bits and the
  // visibility map set, statistics taken. Unsettled, the first export sets hint bits on every page.
  await db.execute(sql`VACUUM ANALYZE`)
  console.log(`loaded ${DEVICES} devices in ${Math.round(performance.now() - t0)} ms`)
  await database.close()
}

type Ctx = Awaited<ReturnType<typeof open>>['ctx']

/**
 * Time spent waiting on the database's statements (on PGlite that is its WebAssembly running in
 * this thread): told apart from the rest of an export, which is building and deflating.
 */
function countQueries(ctx: Ctx) {
  const counted = { ms: 0, queries: 0 }
  const execute = ctx.db.execute.bind(ctx.db)
  ctx.db.execute = ((query: Parameters<typeof execute>[0]) => {
    const t = performance.now()
    counted.queries++
    const done = () => {
      counted.ms += performance.now() - t
    }
    // Settled into a Promise once: a Drizzle query is a thenable that runs its statement again
    // at each then(), so a then() of the bench's own beside the caller's ran every statement
    // twice (and so did every figure of this bench before session 8).
    const p = Promise.resolve(execute(query))
    p.then(done, done)
    return p
  }) as unknown as typeof ctx.db.execute
  return counted
}

/** Second process: the exports, measured. */
async function measure() {
  const { database, ctx } = await open()
  const counted = countQueries(ctx)
  const app = await buildApp(ctx)
  const headers = { authorization: `JWT ${await signInInject(app, '13800000000')}` }

  const exports = [
    ['device list export', '/api/v1/device/?export_xls=true'],
    ['device list export, sorted by battery', '/api/v1/device/?export_xls=true&order_by=-battery'],
    ['data export, type 1 (last 7 days)', '/api/v1/device/data-export?export_type=1'],
  ]
    .filter(([name]) => name.includes(process.env.BENCH_ONLY ?? ''))
    .flatMap((e) => Array.from({ length: Number(process.env.BENCH_REPEAT ?? 1) }, () => e))
  for (const [name, url] of exports) {
    global.gc?.()
    if (global.gc) console.log(`live heap before: ${mb(process.memoryUsage().heapUsed)} MB`)
    const memory = sampleMemory(5)
    counted.ms = 0
    counted.queries = 0
    const cpu = process.cpuUsage()
    const start = performance.now()
    const res = await app.inject({ method: 'GET', url, headers })
    const ms = performance.now() - start
    // CPU time of all the process's threads (the deflate's and the collector's too): less
    // swayed than the wall time by other work on the machine.
    const cpuMs = cpuMsSince(cpu)
    const peak = memory.stop()
    const body = res.json() as { code: number; msg: string; data: { file_url: string; count: number } }
    if (body.code !== 0) throw new Error(`${name}: ${body.code} ${body.msg}`)
    const key = body.data.file_url.replace(/^\/files\//, '').replace(/\?.*$/, '')
    const size = fs.statSync(path.join(dataDir, 'files', key)).size
    console.log(
      `${name}: ${body.data.count} rows, ${Math.round(ms)} ms (CPU ${Math.round(cpuMs)} ms), RSS before ${mb(memory.before)} MB, peak ${mb(peak.rss)} MB (V8 heap at most ${mb(peak.heapTotal)} MB of which used ${mb(peak.heapUsed)} MB, external ${mb(peak.external)} MB, buffers ${mb(peak.arrayBuffers)} MB), file ${mb(size)} MB; ${counted.queries} statements, ${Math.round(counted.ms)} ms with one in flight`,
    )
    if (global.gc) {
      global.gc()
      const m = process.memoryUsage()
      console.log(
        `  after a full collection: heap used ${mb(m.heapUsed)} MB of ${mb(m.heapTotal)} MB, RSS ${mb(m.rss)} MB`,
      )
    }
  }
  console.log(
    `process max RSS over the whole run (includes loading): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  )
  await app.close()
  await database.close()
}

async function main() {
  if (positionals[0] === 'load') return load()
  if (positionals[0] === 'measure') return measure()
  // Both, each in its own process.
  const self = [...process.execArgv, process.argv[1]]
  execFileSync(process.execPath, [...self, 'load'], { stdio: 'inherit' })
  execFileSync(process.execPath, [...self, 'measure'], { stdio: 'inherit' })
}

runBench(main)
