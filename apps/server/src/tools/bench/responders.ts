// `npm run bench:responders`: times the responder register (急救人员列表) and the dashboard's
// responder layer through the real HTTP stack (inject), on `npm run bench`'s network (network.ts:
// 2,000 agencies, 100,000 registered devices) plus BENCH_RESPONDERS responders (default 20,000)
// living in Zhejiang's districts, registered with the East China general agent's 1,000 bench
// organisations. Cases: the list with several filter mixes, page 1 and a deep page (target p95 ≤
// 50 ms); the export of every responder (export_xls=true, under 5 s); the layer of the province
// (p95 ≤ 100 ms). Prints p50 / p95 / max in milliseconds, and the EXPLAIN ANALYZE of the statements
// of each case that missed its target (of every case with BENCH_EXPLAIN=1).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { buildApp } from '../../app.ts'
import type { AppContext } from '../../context.ts'
import { many, one } from '../../db/sql.ts'
import { benchContext, openBenchDatabase } from './harness/database.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { log, printTable } from './harness/report.ts'
import { runBench } from './harness/servers.ts'
import { signInInject } from './harness/sign-in.ts'
import { ascending, percentile } from './harness/stats.ts'
import { load } from './network.ts'
import { loadResponders, RESPONDER_PROVINCE } from './responder-load.ts'

parseOptions(
  {},
  `npm run bench:responders (settings in the environment)
  BENCH_RUNS=N           requests per list and layer case (default 50)
  BENCH_WARM_UP=N        untimed requests per case first (default 5)
  BENCH_EXPORT_RUNS=N    exports of the whole register (default 3)
  BENCH_RESPONDERS=N     responders loaded (default 20000)
  BENCH_ONLY=RE          only the cases whose name matches the regular expression
  BENCH_EXPLAIN=1        EXPLAIN ANALYZE every case's statements, not only the slow cases'
  BENCH_DIR=DIR          keep the embedded database in DIR: a later run finds it loaded and only measures
  BENCH_DATABASE_URL=U   PostgreSQL instead of the embedded database
  BENCH_DEVICES, BENCH_AGENCIES, ...: the network's size (network.ts; default 100000 devices)`,
)

const RUNS = envNumber('BENCH_RUNS', 50)
const WARM_UP = envNumber('BENCH_WARM_UP', 5)
const EXPORT_RUNS = envNumber('BENCH_EXPORT_RUNS', 3)
const RESPONDERS = envNumber('BENCH_RESPONDERS', 20_000)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const EXPLAIN_ALL = process.env.BENCH_EXPLAIN === '1'
const DIR = process.env.BENCH_DIR
/** The province the responders live in, and the layer asks for. */
const PROVINCE = RESPONDER_PROVINCE
const LIST = '/api/v1/aid-man/'
const LAYER = '/api/v1/analysis-board/aid-man/location/'

/** The statements a request ran, kept while `capturing` (for EXPLAIN ANALYZE afterwards). */
function captureStatements(ctx: AppContext) {
  const state = { capturing: false, statements: [] as SQL[] }
  const execute = ctx.db.execute.bind(ctx.db)
  ctx.db.execute = ((query: SQL) => {
    if (state.capturing) state.statements.push(query)
    // Settled into a Promise once: a Drizzle query is a thenable that would run again per then().
    return Promise.resolve(execute(query))
  }) as unknown as typeof ctx.db.execute
  return state
}

/** The machine's load over 1, 5 and 15 minutes (the figures' context: two shared cores). */
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')

/** A request of a case: name, URL, whose token, the target p95 in ms. */
type Case = { name: string; url: string; token: string; target: number }

async function main() {
  if (DIR) fs.mkdirSync(DIR, { recursive: true })
  log(`${os.cpus().length} cores, load average ${loadAverage()}`)
  const database = await openBenchDatabase(DIR ?? null)
  const dataDir = path.join(os.tmpdir(), `aed-bench-${crypto.randomBytes(4).toString('hex')}`)
  const ctx = await benchContext(database, { DATA_DIR: dataDir })
  const captured = captureStatements(ctx)
  const app = await buildApp(ctx)
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  const t0 = performance.now()
  if (!loaded?.n) await load(ctx)
  const networkS = ((performance.now() - t0) / 1000).toFixed(1)
  const respondersS = ((await loadResponders(ctx, RESPONDERS)) / 1000).toFixed(1)
  const counts = await one<{ devices: number; responders: number; province: number; agencies: number }>(
    ctx.db,
    sql`SELECT (SELECT count(*) FROM installations WHERE removed_at IS NULL) AS devices,
               (SELECT count(*) FROM responders) AS responders,
               (SELECT count(*) FROM responders r JOIN accounts a ON a.id = r.account_id
                WHERE a.address_code LIKE '33%') AS province,
               (SELECT count(DISTINCT agency_id) FROM responders) AS agencies`,
  )
  log(
    `${database.kind}: ${counts?.devices} installed AEDs (network loaded in ${networkS} s), ${counts?.responders} responders ` +
      `in ${counts?.agencies} organisations, ${counts?.province} of them in ${PROVINCE} (loaded in ${respondersS} s)`,
  )

  const system = await signInInject(app, '13800000000')
  const agent = await signInInject(app, '13800000011')
  const oneAgency = await one<{ id: number }>(
    ctx.db,
    sql`SELECT agency_id AS id FROM responders GROUP BY agency_id ORDER BY count(*) DESC, agency_id LIMIT 1`,
  )
  /** The last page of 20 of the whole register as `token` sees it. */
  const lastPage = async (token: string) => {
    const r = await app.inject({
      method: 'GET',
      url: `${LIST}?page=1&page_size=1`,
      headers: { authorization: `JWT ${token}` },
    })
    return Math.ceil((r.json() as { data: { count: number } }).data.count / 20)
  }
  const [systemLast, agentLast] = [await lastPage(system), await lastPage(agent)]
  const list = (name: string, query: string, token = system): Case => ({
    name: `list: ${name}`,
    url: `${LIST}?${query}`,
    token,
    target: 50,
  })
  const cases: Case[] = [
    list('no filter, page 1', 'page=1&page_size=10'),
    list('name 王 (surname), page 1', `page=1&page_size=10&name=${encodeURIComponent('王')}`),
    list('name 张伟, page 1', `page=1&page_size=10&name=${encodeURIComponent('张伟')}`),
    list('aid_aptitude=1, page 1', 'page=1&page_size=10&aid_aptitude=1'),
    list('certificate_status=0 (expired), page 1', 'page=1&page_size=10&certificate_status=0'),
    list('certificate_status=1, page 1', 'page=1&page_size=10&certificate_status=1'),
    list('agency_id (one organisation), page 1', `page=1&page_size=10&agency_id=${oneAgency?.id}`),
    list('dispatch_state=ready, page 1', 'page=1&page_size=10&dispatch_state=ready'),
    list('dispatch_state=paused, page 1', 'page=1&page_size=10&dispatch_state=paused'),
    list(
      'dispatch_state=certificate_expired, page 1',
      'page=1&page_size=10&dispatch_state=certificate_expired',
    ),
    list(
      'aid_aptitude=1 + certificate_status=1 + dispatch_state=ready, page 1',
      'page=1&page_size=10&aid_aptitude=1&certificate_status=1&dispatch_state=ready',
    ),
    list(`no filter, page ${systemLast} of 20 (the last)`, `page=${systemLast}&page_size=20`),
    list('aid_aptitude=0, page 400 of 20', 'page=400&page_size=20&aid_aptitude=0'),
    list('general agent: no filter, page 1', 'page=1&page_size=10', agent),
    list(`general agent: page ${agentLast} of 20 (the last)`, `page=${agentLast}&page_size=20`, agent),
    {
      name: `layer: province ${PROVINCE}`,
      url: `${LAYER}?address_code=${PROVINCE}`,
      token: system,
      target: 100,
    },
    { name: 'layer: a city (330100)', url: `${LAYER}?address_code=330100`, token: system, target: 100 },
    {
      name: `general agent: layer, province ${PROVINCE}`,
      url: `${LAYER}?address_code=${PROVINCE}`,
      token: agent,
      target: 100,
    },
  ].filter((c) => !ONLY || ONLY.test(c.name))

  const send = async (c: Case) => {
    const r = await app.inject({ method: 'GET', url: c.url, headers: { authorization: `JWT ${c.token}` } })
    const body = r.json() as { code: number; msg: string; data: { count: number } }
    if (body.code !== 0) throw new Error(`${c.url}: ${r.body.slice(0, 300)}`)
    return { count: body.data.count, bytes: r.rawPayload.length }
  }
  // Warm-up, every case before any is timed: caches, and PGlite's WebAssembly paths compiled.
  for (const c of cases) for (let i = 0; i < WARM_UP; i++) await send(c)
  const rows: string[][] = []
  const slow: Case[] = []
  for (const c of cases) {
    const times: number[] = []
    let answer = { count: 0, bytes: 0 }
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now()
      answer = await send(c)
      times.push(performance.now() - s)
    }
    const sorted = ascending(times)
    const p95 = percentile(sorted, 95)
    if (p95 > c.target || EXPLAIN_ALL) slow.push(c)
    rows.push([
      c.name,
      percentile(sorted, 50).toFixed(1),
      p95.toFixed(1),
      sorted.at(-1)!.toFixed(1),
      `≤ ${c.target}${p95 > c.target ? ' MISSED' : ''}`,
      String(answer.count),
      `${(answer.bytes / 1024).toFixed(1)} KiB`,
    ])
  }

  const exports: string[] = []
  if (!ONLY || ONLY.test('export')) {
    for (let i = 0; i < EXPORT_RUNS; i++) {
      const s = performance.now()
      const r = await app.inject({
        method: 'GET',
        url: `${LIST}?export_xls=true`,
        headers: { authorization: `JWT ${system}` },
      })
      const ms = performance.now() - s
      const body = r.json() as { code: number; msg: string; data: { file_base64: string; count: number } }
      if (body.code !== 0) throw new Error(`export: ${r.body.slice(0, 300)}`)
      const size = Buffer.from(body.data.file_base64, 'base64').length
      exports.push(
        `${(ms / 1000).toFixed(2)} s (${body.data.count} rows, ${(size / 1024 / 1024).toFixed(1)} MiB)`,
      )
    }
  }

  console.log(
    `\n${database.kind}: ${counts?.responders} responders, ${counts?.devices} installed AEDs, ${RUNS} runs each\n`,
  )
  printTable(['case', 'p50 ms', 'p95 ms', 'max ms', 'target p95 ms', 'count', 'answer'], rows)
  if (exports.length) console.log(`\nexport of the whole register (target under 5 s): ${exports.join('; ')}`)

  // The plans of the cases that missed (or every case's): each statement the request ran, again.
  for (const c of slow) {
    captured.statements = []
    captured.capturing = true
    await send(c)
    captured.capturing = false
    console.log(`\n### ${c.name}: ${c.url}`)
    const dialect = new PgDialect()
    for (const statement of captured.statements) {
      const q = dialect.sqlToQuery(statement)
      if (!q.sql.includes('responders')) continue
      const plan = await many<{ 'QUERY PLAN': string }>(ctx.db, sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`)
      console.log(`\n${q.sql.replace(/\s+/g, ' ').trim()}\nparams ${JSON.stringify(q.params)}\n`)
      console.log(plan.map((p) => `  ${p['QUERY PLAN']}`).join('\n'))
    }
  }
  log(`done; load average ${loadAverage()}`)
  await app.close()
  await database.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main)
