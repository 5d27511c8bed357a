// `npm run bench:call-lists`: times the emergency page's two lists (呼救事件 and 急救事件), the
// dashboard's call layer and a call's detail through the real HTTP stack (inject), on `npm run
// bench`'s network (network.ts: 2,000 agencies, 100,000 registered devices) plus BENCH_RESCUES
// rescues (default 100,000) over the last year and BENCH_CALLS calls (default 50,000) over the
// network's organisations and places. Cases: each list with the page's filter mixes, page 1 and a
// deep page, as the system super administrator, the East China general agent and one organisation's
// administrator (target p95 ≤ 50 ms). Prints p50 / p95 / max in milliseconds, and the EXPLAIN
// ANALYZE of the statements of each case that missed its target (of every case with BENCH_EXPLAIN=1).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CALL_TIME_PRESETS } from '@aed/contracts/call'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../app.ts'
import type { AppContext } from '../../context.ts'
import { one } from '../../db/sql.ts'
import { benchContext, openBenchDatabase } from './harness/database.ts'
import { captureStatements, explainRequest } from './harness/explain.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { log, printTable } from './harness/report.ts'
import { runBench } from './harness/servers.ts'
import { signInInject } from './harness/sign-in.ts'
import { ascending, percentile } from './harness/stats.ts'
import { load } from './network.ts'

parseOptions(
  {},
  `npm run bench:call-lists (settings in the environment)
  BENCH_RUNS=N           requests per case (default 50)
  BENCH_WARM_UP=N        untimed requests per case first (default 5)
  BENCH_RESCUES=N        rescues loaded (default 100000; at most the network's installed devices)
  BENCH_CALLS=N          calls loaded (default 50000; at most half the rescues)
  BENCH_ONLY=RE          only the cases whose name matches the regular expression
  BENCH_EXPLAIN=1        EXPLAIN ANALYZE every case's statements, not only the slow cases'
  BENCH_DIR=DIR          keep the embedded database in DIR: a later run finds it loaded and only measures
  BENCH_DATABASE_URL=U   PostgreSQL instead of the embedded database
  BENCH_DEVICES, BENCH_AGENCIES, ...: the network's size (network.ts; default 100000 devices)`,
)

const RUNS = envNumber('BENCH_RUNS', 50)
const WARM_UP = envNumber('BENCH_WARM_UP', 5)
const RESCUES = envNumber('BENCH_RESCUES', 100_000)
const CALLS = envNumber('BENCH_CALLS', 50_000)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const EXPLAIN_ALL = process.env.BENCH_EXPLAIN === '1'
const DIR = process.env.BENCH_DIR
const CALL_LIST = '/api/v1/aid-event/call-event/'
const RESCUE_LIST = '/api/v1/aid-event/rescue-event/'
const LAYER = '/api/v1/analysis-board/call-event/location/'
/** The bench's rescue ids (rescue_event_id 'BY' and a number), apart from `npm run bench`'s 'BR'. */
const RESCUE_PREFIX = 'BY'
/** The organisation administrator the bench makes of one bench member (a 17… phone). */
const ADMIN_NOTE = 'one organisation'

/**
 * Bulk-loads the rescues with generate_series unless they are there: rescue g on installation
 * 1 + (g·37 mod n) (every installation at most once, so at most one open rescue a device), one
 * every 365/RESCUES days back from now, the newest 40 still going, the rest ended 20 minutes later.
 */
async function loadRescues(ctx: AppContext) {
  const { db } = ctx
  const have = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM rescue_events WHERE rescue_event_id LIKE ${`${RESCUE_PREFIX}%`}`,
  )
  if (have?.n) return 0
  const t0 = performance.now()
  await db.execute(sql`
    WITH dev AS (SELECT i.id, i.device_id, i.agency_id, row_number() OVER (ORDER BY i.id) AS n
                 FROM installations i WHERE i.register_code LIKE 'RB%' AND i.removed_at IS NULL),
         total AS (SELECT count(*) AS c FROM dev)
    INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id, event_time, ended_at)
    SELECT dev.device_id, dev.id, dev.agency_id, a.index_link, ${RESCUE_PREFIX} || g,
           now() - g * interval '365 days' / ${RESCUES},
           CASE WHEN g <= 40 THEN NULL ELSE now() - g * interval '365 days' / ${RESCUES} + interval '20 minutes' END
    FROM generate_series(1, ${RESCUES}) g CROSS JOIN total
    JOIN dev ON dev.n = 1 + (g::bigint * 37) % total.c
    JOIN agencies a ON a.id = dev.agency_id`)
  await db.execute(sql`VACUUM ANALYZE rescue_events`)
  return performance.now() - t0
}

/**
 * Bulk-loads the calls unless they are there: call k two minutes before rescue 2k or 2k - 1 (by
 * the thousands of k in turn, so that the rescues' installations, and with them the organisations,
 * cover every organisation: one rescue in two by parity alone reaches half of them), at its place
 * (the installation's district, within about 500 m of it) and owned by its organisation, so the
 * calls spread over the network's organisations and places as the rescues do, one every
 * 365/CALLS days. The calls of the last two hours are open; the older ones closed: 15 % with an
 * AED used (linked to that rescue), 50 % no AED needed, 20 % cancelled, 15 % by the clock. Three
 * in ten came from an integrator.
 */
async function loadCalls(ctx: AppContext) {
  const { db } = ctx
  const have = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM call_events WHERE recorder = '压测'`,
  )
  if (have?.n) return 0
  const t0 = performance.now()
  const h = (salt: number, mod: number) => sql.raw(`(abs(hashint4(k * ${salt} + ${salt})) % ${mod})`)
  await db.execute(sql`
    WITH r AS (SELECT r.id, r.installation_id, r.agency_id, r.index_link, r.event_time,
                      (substring(r.rescue_event_id FROM 3)::int + 1) / 2 AS k
               FROM rescue_events r
               WHERE r.rescue_event_id LIKE ${`${RESCUE_PREFIX}%`} AND substring(r.rescue_event_id FROM 3)::int <= ${2 * CALLS}
                 AND substring(r.rescue_event_id FROM 3)::int % 2 = (substring(r.rescue_event_id FROM 3)::int + 1) / 2 / 1000 % 2)
    INSERT INTO call_events (agency_id, index_link, source, external_id, recorder, phone, lat, lon, location,
                             address_code, description, call_time, status, outcome, closed_at, close_reason,
                             close_due_at, rescue_id, rescue_distance, create_time)
    SELECT r.agency_id, r.index_link, CASE WHEN x.api THEN 'open_api' ELSE 'console' END,
           CASE WHEN x.api THEN 'BX' || r.k END, '压测',
           '1' || (3 + ${h(3, 7)}) || lpad(${h(5, 1_000_000_000)}::text, 9, '0'),
           i.lat + (${h(7, 1000)} - 500) / 100000.0, i.lon + (${h(11, 1000)} - 500) / 100000.0,
           i.location || '附近', i.address_code, CASE WHEN ${h(13, 4)} = 0 THEN '男性，约60岁，倒地无意识' END,
           t.call_time, CASE WHEN t.open THEN 1 ELSE 0 END,
           CASE WHEN t.open THEN NULL WHEN x.o < 15 THEN 'aed_used' WHEN x.o < 65 THEN 'no_aed_needed'
                WHEN x.o < 85 THEN 'cancelled' END,
           CASE WHEN NOT t.open THEN t.call_time + interval '30 minutes' END,
           CASE WHEN t.open THEN NULL WHEN x.o < 85 THEN 'member' ELSE 'timeout' END,
           t.call_time + interval '120 minutes',
           CASE WHEN NOT t.open AND x.o < 15 THEN r.id END, CASE WHEN NOT t.open AND x.o < 15 THEN ${h(17, 800)} END,
           t.call_time
    FROM r JOIN installations i ON i.id = r.installation_id
    CROSS JOIN LATERAL (SELECT r.event_time - interval '2 minutes' AS call_time,
                               r.event_time - interval '2 minutes' > now() - interval '2 hours' AS open) t
    CROSS JOIN LATERAL (SELECT ${h(19, 10)} < 3 AS api, ${h(23, 100)} AS o) x`)
  await db.execute(sql`VACUUM ANALYZE call_events`)
  return performance.now() - t0
}

/**
 * One bench organisation's administrator: the first member of the organisation with the most
 * calls made its administrator, with the demo's password. Answers the phone and the organisation.
 */
async function organisationAdmin(ctx: AppContext) {
  const row = await one<{ phone: string; agency_id: number; member_id: number }>(
    ctx.db,
    sql`SELECT a.phone, m.agency_id, m.id AS member_id FROM members m JOIN accounts a ON a.id = m.account_id
        WHERE m.agency_id = (SELECT agency_id FROM call_events WHERE recorder = '压测'
                             GROUP BY agency_id ORDER BY count(*) DESC, agency_id LIMIT 1)
          AND a.phone LIKE '17%'
        ORDER BY m.id LIMIT 1`,
  )
  if (!row) throw new Error('no bench member in the organisation with the most calls')
  await ctx.db.execute(sql`UPDATE members SET role_type = 0, permissions = '{}' WHERE id = ${row.member_id}`)
  await ctx.db.execute(sql`UPDATE accounts SET password_hash = (SELECT password_hash FROM accounts WHERE phone = '13800000000')
                           WHERE phone = ${row.phone}`)
  return row
}

/** The machine's load over 1, 5 and 15 minutes (the figures' context: two shared cores). */
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')

/** A request of a case: name, URL, whose token, the target p95 in ms. */
type Case = { name: string; url: string; token: string; target: number }

/** The page's time filter of a preset (1: 10 minutes, 2: a day, 3: 7 days, 4: 30 days), up to now. */
function preset(key: keyof typeof CALL_TIME_PRESETS) {
  const now = Date.now()
  const q = new URLSearchParams({
    start_time: new Date(now - CALL_TIME_PRESETS[key]).toISOString(),
    end_time: new Date(now).toISOString(),
  })
  return q.toString()
}

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
  const rescuesS = ((await loadRescues(ctx)) / 1000).toFixed(1)
  const callsS = ((await loadCalls(ctx)) / 1000).toFixed(1)
  const admin = await organisationAdmin(ctx)
  const counts = await one<{
    devices: number
    rescues: number
    calls: number
    open: number
    agencies: number
  }>(
    ctx.db,
    sql`SELECT (SELECT count(*) FROM installations WHERE removed_at IS NULL) AS devices,
               (SELECT count(*) FROM rescue_events) AS rescues, (SELECT count(*) FROM call_events) AS calls,
               (SELECT count(*) FROM call_events WHERE status = 1) AS open,
               (SELECT count(DISTINCT agency_id) FROM call_events) AS agencies`,
  )
  log(
    `${database.kind}: ${counts?.devices} installed AEDs (network loaded in ${networkS} s), ${counts?.rescues} rescues ` +
      `(loaded in ${rescuesS} s), ${counts?.calls} calls (${counts?.open} open) in ${counts?.agencies} organisations ` +
      `(loaded in ${callsS} s)`,
  )

  const system = await signInInject(app, '13800000000')
  const agent = await signInInject(app, '13800000011')
  const single = await signInInject(app, admin.phone)
  // A caller's whole number and its last four digits (the dispatcher's usual search), a device's serial.
  const sample = await one<{ phone: string; device_sn: string; call_id: number; own_call: number }>(
    ctx.db,
    sql`SELECT (SELECT phone FROM call_events WHERE recorder = '压测' ORDER BY id LIMIT 1 OFFSET 1234) AS phone,
               (SELECT d.device_sn FROM rescue_events r JOIN devices d ON d.id = r.device_id
                WHERE r.rescue_event_id = ${`${RESCUE_PREFIX}777`}) AS device_sn,
               (SELECT id FROM call_events WHERE recorder = '压测' AND address_code LIKE '3101%'
                ORDER BY call_time DESC LIMIT 1) AS call_id,
               (SELECT id FROM call_events WHERE agency_id = ${admin.agency_id} ORDER BY call_time DESC LIMIT 1) AS own_call`,
  )
  if (!sample) throw new Error('no sample rows')
  /** The last page of 20 of a list as `token` sees it. */
  const lastPage = async (list: string, token: string) => {
    const r = await app.inject({
      method: 'GET',
      url: `${list}?page=1&page_size=1`,
      headers: { authorization: `JWT ${token}` },
    })
    return Math.ceil((r.json() as { data: { count: number } }).data.count / 20)
  }
  const callsLast = await lastPage(CALL_LIST, system)
  const rescuesLast = await lastPage(RESCUE_LIST, system)
  const make =
    (prefix: string, list: string) =>
    (name: string, query: string, token = system, target = 50): Case => ({
      name: `${prefix}: ${name}`,
      url: `${list}?${query}`,
      token,
      target,
    })
  const calls = make('calls', CALL_LIST)
  const rescues = make('rescues', RESCUE_LIST)
  const p1 = 'page=1&page_size=10'
  const cases: Case[] = [
    calls('no filter, page 1', p1),
    calls('phone, the whole number', `${p1}&phone=${sample.phone}`),
    calls('phone, its last 4 digits', `${p1}&phone=${sample.phone.slice(-4)}`),
    calls('status=1 (open)', `${p1}&status=1`),
    calls('status=0 (closed)', `${p1}&status=0`),
    calls('outcome=aed_used', `${p1}&outcome=aed_used`),
    calls('outcome=cancelled', `${p1}&outcome=cancelled`),
    calls('region: a province (440000)', `${p1}&address_code=440000`),
    calls('region: a city (310100)', `${p1}&address_code=310100`),
    calls('time: 10 minutes', `${p1}&${preset(1)}`),
    calls('time: 1 day', `${p1}&${preset(2)}`),
    calls('time: 7 days', `${p1}&${preset(3)}`),
    calls('time: 30 days', `${p1}&${preset(4)}`),
    calls(
      'status=0 + outcome=no_aed_needed + 30 days + 440000',
      `${p1}&status=0&outcome=no_aed_needed&${preset(4)}&address_code=440000`,
    ),
    calls('general agent, page 1', p1, agent),
    calls('general agent, 7 days', `${p1}&${preset(3)}`, agent),
    calls(`${ADMIN_NOTE}, page 1`, p1, single),
    calls(`${ADMIN_NOTE}, 30 days`, `${p1}&${preset(4)}`, single),
    calls('page 100 of 20', 'page=100&page_size=20'),
    calls(`page ${callsLast} of 20 (the last)`, `page=${callsLast}&page_size=20`),
    rescues('no filter, page 1', p1),
    rescues('device serial', `${p1}&device_sn=${sample.device_sn}`),
    rescues('region: a province (440000)', `${p1}&address_code=440000`),
    rescues('region: a city (310100)', `${p1}&address_code=310100`),
    rescues('time: 10 minutes', `${p1}&${preset(1)}`),
    rescues('time: 1 day', `${p1}&${preset(2)}`),
    rescues('time: 7 days', `${p1}&${preset(3)}`),
    rescues('time: 30 days', `${p1}&${preset(4)}`),
    rescues('region 440000 + 30 days', `${p1}&address_code=440000&${preset(4)}`),
    rescues('general agent, page 1', p1, agent),
    rescues(`${ADMIN_NOTE}, page 1`, p1, single),
    rescues('page 100 of 20', 'page=100&page_size=20'),
    rescues(`page ${rescuesLast} of 20 (the last)`, `page=${rescuesLast}&page_size=20`),
    { name: 'layer: whole network', url: LAYER, token: system, target: 50 },
    { name: 'layer: a province (440000)', url: `${LAYER}?address_code=440000`, token: system, target: 50 },
    { name: 'layer: general agent', url: LAYER, token: agent, target: 50 },
    { name: `layer: ${ADMIN_NOTE}`, url: LAYER, token: single, target: 50 },
    { name: 'detail: a call in Shanghai', url: `${CALL_LIST}${sample.call_id}`, token: system, target: 50 },
    {
      name: `detail: ${ADMIN_NOTE}'s call`,
      url: `${CALL_LIST}${sample.own_call}`,
      token: single,
      target: 50,
    },
  ].filter((c) => !ONLY || ONLY.test(c.name))

  const send = async (c: Case) => {
    const r = await app.inject({ method: 'GET', url: c.url, headers: { authorization: `JWT ${c.token}` } })
    const body = r.json() as { code: number; msg: string; data: { count?: number; devices?: unknown[] } }
    if (body.code !== 0) throw new Error(`${c.url}: ${r.body.slice(0, 300)}`)
    const d = body.data as { count?: number; devices?: unknown[]; responders?: unknown[] }
    const count = d.count ?? `${d.devices?.length} devices, ${d.responders?.length} responders`
    return { count: String(count), bytes: r.rawPayload.length }
  }
  // Warm-up, every case before any is timed: caches, and PGlite's WebAssembly paths compiled.
  for (const c of cases) for (let i = 0; i < WARM_UP; i++) await send(c)
  const rows: string[][] = []
  const slow: Case[] = []
  for (const c of cases) {
    const times: number[] = []
    let answer = { count: '', bytes: 0 }
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
      answer.count,
      `${(answer.bytes / 1024).toFixed(1)} KiB`,
    ])
  }

  console.log(
    `\n${database.kind}: ${counts?.rescues} rescues, ${counts?.calls} calls, ${counts?.devices} installed AEDs, ${RUNS} runs each; ` +
      `${ADMIN_NOTE}: agency ${admin.agency_id} (${admin.phone}); load average ${loadAverage()}\n`,
  )
  printTable(['case', 'p50 ms', 'p95 ms', 'max ms', 'target p95 ms', 'count', 'answer'], rows)

  // The plans of the cases that missed (or every case's): each statement the request ran, again.
  for (const c of slow) {
    console.log(`\n### ${c.name}: ${c.url}`)
    await explainRequest(ctx, captured, () => send(c), /call_events|rescue_events|installations/)
  }
  log(`done; load average ${loadAverage()}`)
  await app.close()
  await database.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main)
