// `npm run bench:review`: times public review (issue 27) on `npm run bench`'s network (network.ts:
// 100,000 registered devices over the big cities) plus BENCH_VOLUNTEERS volunteers (default
// 50,000) and BENCH_THIRD_PARTY third-party AEDs (default 50,000: a fifth approved, two fifths in
// review, two fifths rejected, each beside one of the network's AEDs). Cases:
// - the duplicate check of a submission (duplicatesOf: serial, or place text within 50 m) at
//   points beside our AEDs, beside approved third-party AEDs, anywhere in a city, and with a
//   serial; then the whole signed POST /open-api/v1/third-party-aed/ (one stored image checked,
//   the region given, a new phone each time). Target p95 ≤ 50 ms.
// - the two review lists through app.inject as the demo super administrator: each tab's first,
//   middle and last page, a name filter and a brand filter. Target p95 ≤ 50 ms.
// Prints p50 / p95 / max in milliseconds, and the EXPLAIN ANALYZE of each case that missed its
// target (of every case with BENCH_EXPLAIN=1).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BRAND_NAMES } from '@aed/contracts/review'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { sql } from 'drizzle-orm'
import { buildApp } from '../../app.ts'
import type { AppContext } from '../../context.ts'
import { many, one } from '../../db/sql.ts'
import { signOpenApiRequest } from '../../lib/open-api-signing.ts'
import { duplicatesOf } from '../../modules/review/review.service.ts'
import { multipartBody } from '../../test/multipart.ts'
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
  `npm run bench:review (settings in the environment)
  BENCH_RUNS=N           requests per case (default 100)
  BENCH_WARM_UP=N        untimed requests per case first (default 10)
  BENCH_VOLUNTEERS=N     volunteers loaded (default 50000)
  BENCH_THIRD_PARTY=N    third-party AEDs loaded (default 50000, a fifth of them approved)
  BENCH_ONLY=RE          only the cases whose name matches the regular expression
  BENCH_EXPLAIN=1        EXPLAIN ANALYZE every case's statements, not only the slow cases'
  BENCH_DIR=DIR          keep the embedded database in DIR: a later run finds it loaded and only measures
  BENCH_DATABASE_URL=U   PostgreSQL instead of the embedded database
  BENCH_DEVICES, BENCH_AGENCIES, ...: the network's size (network.ts; default 100000 devices)`,
)

const RUNS = envNumber('BENCH_RUNS', 100)
const WARM_UP = envNumber('BENCH_WARM_UP', 10)
const VOLUNTEERS = envNumber('BENCH_VOLUNTEERS', 50_000)
const THIRD_PARTY = envNumber('BENCH_THIRD_PARTY', 50_000)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const EXPLAIN_ALL = process.env.BENCH_EXPLAIN === '1'
const DIR = process.env.BENCH_DIR
const TARGET = 50
const VOLUNTEER_LIST = '/api/v1/backend_mgmt/aid-volunteer'
const THIRD_PARTY_LIST = '/api/v1/backend_mgmt/third-party/aed'
const SUBMIT = '/open-api/v1/third-party-aed/'
/** The submitter of the bench's own POSTs (deleted at the end). */
const POSTER = '压测提交'
const PAGE_SIZE = 20

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗'
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
].concat([
  '明',
  '超',
  '秀英',
  '霞',
  '平',
  '刚',
  '桂英',
  '华',
  '建华',
  '志强',
  '海燕',
  '晓东',
  '玉兰',
  '建国',
  '丹',
])

/** A PostgreSQL array literal: one parameter, not one per element. */
const pgArray = (values: string[]) => `{${values.join(',')}}`

/**
 * Bulk-loads the volunteers unless they are there: volunteer g in review, approved or rejected by
 * g mod 3 (the tabs interleave by id, as submissions and decisions do), a name of 20 surnames and
 * 30 given names, a phone of its own ('15…'), about the network's city centres, one a minute up
 * to now, decided an hour after.
 */
async function loadVolunteers(ctx: AppContext, agencyId: number) {
  const { db } = ctx
  const have = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM volunteers WHERE submitter_phone LIKE '15%'`,
  )
  if (have?.n) return 0
  const t0 = performance.now()
  const h = (salt: number, mod: number) => sql.raw(`(abs(hashint4(g * ${salt} + ${salt})) % ${mod})`)
  await db.execute(sql`
    WITH pool AS (SELECT ${pgArray(SURNAMES.split(''))}::text[] AS s, ${pgArray(GIVEN)}::text[] AS n,
                         '{31.23,39.9,22.54,23.13,30.27}'::float8[] AS lat, '{121.47,116.4,114.06,113.26,120.15}'::float8[] AS lon)
    INSERT INTO volunteers (submitter_name, submitter_phone, guard_area, has_cert, cert_img, lat, lon, audit_status,
                            rejected_reason, audit_time, auditor, agency_id, create_time, update_time)
    SELECT pool.s[1 + ${h(3, 20)}] || pool.n[1 + ${h(5, 30)}], '15' || lpad(g::text, 9, '0'), '压测社区' || g || '号',
           ${h(7, 2)}, CASE WHEN ${h(7, 2)} = 1 THEN '/files/demo/cert.png' END,
           pool.lat[1 + ${h(11, 5)}] + (${h(13, 2000)} - 1000) / 20000.0, pool.lon[1 + ${h(11, 5)}] + (${h(17, 2000)} - 1000) / 20000.0,
           st.s, CASE WHEN st.s = 0 THEN '证书不清晰' END,
           CASE WHEN st.s <> 1 THEN t.at + interval '1 hour' END, CASE WHEN st.s <> 1 THEN '超级管理员' END,
           ${agencyId}, t.at, t.at
    FROM generate_series(1, ${VOLUNTEERS}) g CROSS JOIN pool
    CROSS JOIN LATERAL (SELECT (ARRAY[1, 2, 0])[1 + g % 3] AS s) st
    CROSS JOIN LATERAL (SELECT now() - (${VOLUNTEERS} - g) * interval '1 minute' AS at) t`)
  await db.execute(sql`VACUUM ANALYZE volunteers`)
  return performance.now() - t0
}

/**
 * Bulk-loads the third-party AEDs unless they are there: AED g beside one of the network's AEDs
 * (within about 10 m, its address and district, a floor of its own or the same), approved when
 * g mod 5 is 0 (a fifth), in review when 1 or 2, rejected otherwise; one in ten carries the serial
 * of the network's AED beside it and two in ten one of their own. A brand of the list, a phone of
 * its own ('16…'), one a minute up to now.
 */
async function loadThirdParty(ctx: AppContext, agencyId: number) {
  const { db } = ctx
  const have = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM third_party_aeds WHERE submitter_phone LIKE '16%'`,
  )
  if (have?.n) return 0
  const t0 = performance.now()
  const h = (salt: number, mod: number) => sql.raw(`(abs(hashint4(g * ${salt} + ${salt})) % ${mod})`)
  await db.execute(sql`
    WITH dev AS (SELECT i.id, i.location, i.location_desc, i.address_code, i.lat, i.lon, d.device_sn,
                        row_number() OVER (ORDER BY i.id) AS n
                 FROM installations i JOIN devices d ON d.id = i.device_id
                 WHERE i.register_code LIKE 'RB%' AND i.removed_at IS NULL),
         total AS (SELECT count(*) AS c FROM dev),
         pool AS (SELECT ${pgArray(SURNAMES.split(''))}::text[] AS s, ${pgArray(GIVEN)}::text[] AS n,
                         ${pgArray(BRAND_NAMES)}::text[] AS b)
    INSERT INTO third_party_aeds (brand, location, location_desc, address_code, lat, lon, install_imgs, device_sn,
                                  submitter_name, submitter_phone, audit_status, rejected_reason, audit_time, auditor,
                                  agency_id, create_time, update_time)
    SELECT pool.b[1 + ${h(3, BRAND_NAMES.length)}], dev.location,
           CASE WHEN ${h(5, 2)} = 0 THEN dev.location_desc ELSE (1 + ${h(7, 9)}) || '楼服务台旁' END,
           dev.address_code, dev.lat + (${h(11, 200)} - 100) / 1000000.0, dev.lon + (${h(13, 200)} - 100) / 1000000.0,
           '["/files/demo/aed-cabinet-near.png"]'::jsonb,
           CASE WHEN ${h(17, 10)} = 0 THEN dev.device_sn WHEN ${h(17, 10)} < 3 THEN 'TP' || lpad(g::text, 8, '0') END,
           pool.s[1 + ${h(19, 20)}] || pool.n[1 + ${h(23, 30)}], '16' || lpad(g::text, 9, '0'),
           st.s, CASE WHEN st.s = 0 THEN '位置不准确' END,
           CASE WHEN st.s <> 1 THEN t.at + interval '1 hour' END, CASE WHEN st.s <> 1 THEN '超级管理员' END,
           ${agencyId}, t.at, t.at
    FROM generate_series(1, ${THIRD_PARTY}) g CROSS JOIN total CROSS JOIN pool
    JOIN dev ON dev.n = 1 + (g::bigint * 7919) % total.c
    CROSS JOIN LATERAL (SELECT CASE g % 5 WHEN 0 THEN 2 WHEN 1 THEN 1 WHEN 2 THEN 1 ELSE 0 END AS s) st
    CROSS JOIN LATERAL (SELECT now() - (${THIRD_PARTY} - g) * interval '1 minute' AS at) t`)
  await db.execute(sql`VACUUM ANALYZE third_party_aeds`)
  return performance.now() - t0
}

/** The machine's load over 1, 5 and 15 minutes (the figures' context: two shared cores). */
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')

/** A seeded stream of numbers in [0, 1). */
function random(seed: number) {
  let s = seed
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    return s / 2 ** 31
  }
}

type Submission = {
  lat: number
  lon: number
  location: string
  location_desc: string | null
  device_sn: string | null
  address_code: string | null
}

/** A duplicate-check case: its name and its submissions (one per run). */
type CheckCase = { name: string; at: Submission[] }

/**
 * The submissions of the duplicate check, RUNS of each kind: beside one of our AEDs (within about
 * 10 m, its address: it is found), beside an approved third-party AED (the same), anywhere within
 * 0.04° of a city centre (a made-up address: usually nothing within 50 m matches), with the
 * serial of one of our devices, and with a serial nobody has.
 */
async function checkCases(ctx: AppContext, n: number): Promise<CheckCase[]> {
  const rnd = random(20_261_127)
  const jitter = () => (rnd() - 0.5) / 5000
  const ours = await many<Submission>(
    ctx.db,
    sql`SELECT i.lat, i.lon, i.location, i.location_desc, d.device_sn, i.address_code
        FROM installations i JOIN devices d ON d.id = i.device_id
        WHERE i.register_code LIKE 'RB%' AND i.removed_at IS NULL AND i.id % 97 = 0 ORDER BY i.id LIMIT ${n}`,
  )
  const theirs = await many<Submission>(
    ctx.db,
    sql`SELECT lat, lon, location, location_desc, device_sn, address_code FROM third_party_aeds
        WHERE audit_status = 2 AND id % 13 = 0 ORDER BY id LIMIT ${n}`,
  )
  const centres = [
    [31.23, 121.47, '310101'],
    [39.9, 116.4, '110101'],
    [22.54, 114.06, '440303'],
    [23.13, 113.26, '440103'],
    [30.27, 120.15, '330106'],
  ] as const
  const anywhere = Array.from({ length: n }, () => {
    const [lat, lon, code] = centres[Math.floor(rnd() * centres.length)]
    return {
      lat: lat + (rnd() - 0.5) * 0.08,
      lon: lon + (rnd() - 0.5) * 0.08,
      location: `压测路${Math.floor(rnd() * 100_000)}号`,
      location_desc: '一楼大厅',
      device_sn: null,
      address_code: code,
    }
  })
  const near = (s: Submission): Submission => ({
    ...s,
    lat: s.lat + jitter(),
    lon: s.lon + jitter(),
    device_sn: null,
  })
  return [
    { name: 'beside one of our AEDs, its address', at: ours.map(near) },
    { name: 'beside an approved third-party AED, its address', at: theirs.map(near) },
    { name: 'anywhere in a city, another address', at: anywhere },
    {
      name: 'a serial of ours, anywhere in a city',
      at: anywhere.map((a, i) => ({ ...a, device_sn: ours[i % ours.length].device_sn })),
    },
    {
      name: 'beside one of our AEDs with its serial',
      at: ours.map((s) => ({ ...s, lat: s.lat + jitter(), lon: s.lon + jitter() })),
    },
    {
      name: 'an unknown serial, anywhere in a city',
      at: anywhere.map((a, i) => ({ ...a, device_sn: `ZZ${i}` })),
    },
  ]
}

/** An integrator of the system organisation (open API and mini-program), as the nearby bench makes one. */
async function integrator(
  ctx: AppContext,
  app: Awaited<ReturnType<typeof buildApp>>,
  admin: string,
  agencyId: number,
) {
  await ctx.db.execute(sql`DELETE FROM app_service_configs WHERE agency_id = ${agencyId}`)
  const r = await app.inject({
    method: 'POST',
    url: '/api/v1/agency/app-service/config',
    headers: { authorization: `JWT ${admin}` },
    payload: { agency_id: agencyId, service: ['open_api', 'mini_program'], state: 1 },
  })
  const c = (r.json() as { data: ServiceConfig }).data
  if (!c?.access_token) throw new Error(`service configuration: ${r.body.slice(0, 200)}`)
  const key = { token: c.access_token, secret: c.secret as string }
  const headers = (method: 'POST', target: string, body: Buffer | string) =>
    signOpenApiRequest(key.token, key.secret, {
      method,
      target,
      body,
      timestamp: Math.floor(ctx.clock.now().getTime() / 1000),
    })
  return {
    /** POST /open-api/v1/file/ of a 1×1 PNG: its URL. */
    async image() {
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      )
      const { payload, contentType } = multipartBody([
        { name: 'file', filename: 'site.png', type: 'image/png', data: png },
      ])
      const u = await app.inject({
        method: 'POST',
        url: '/open-api/v1/file/',
        headers: { ...headers('POST', '/open-api/v1/file/', payload), 'content-type': contentType },
        payload,
      })
      const url = (u.json() as { data?: { access_url?: string } }).data?.access_url
      if (!url) throw new Error(`upload: ${u.body.slice(0, 200)}`)
      return url
    },
    /** A signed JSON POST; throws unless the envelope's code is 0. */
    async post(target: string, body: unknown) {
      const payload = JSON.stringify(body)
      const r = await app.inject({
        method: 'POST',
        url: target,
        headers: { ...headers('POST', target, payload), 'content-type': 'application/json' },
        payload,
      })
      const j = r.json() as { code: number; data: { id: number; created: boolean } }
      if (j.code !== 0) throw new Error(`${target}: ${r.body.slice(0, 300)}`)
      return j.data
    },
  }
}

/** A list request: name, URL, the target p95 in ms. */
type ListCase = { name: string; url: string }

async function main() {
  if (DIR) fs.mkdirSync(DIR, { recursive: true })
  log(`${os.cpus().length} cores, load average ${loadAverage()}`)
  const database = await openBenchDatabase(DIR ?? null)
  const dataDir = path.join(os.tmpdir(), `aed-bench-${crypto.randomBytes(4).toString('hex')}`)
  // The request limit is not what is measured: every request is let through.
  const ctx = await benchContext(database, { DATA_DIR: dataDir, OPEN_API_BURST: '100000000' })
  const captured = captureStatements(ctx)
  const app = await buildApp(ctx)
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  const t0 = performance.now()
  if (!loaded?.n) await load(ctx)
  const networkS = ((performance.now() - t0) / 1000).toFixed(1)
  const root = await one<{ id: number }>(
    ctx.db,
    sql`SELECT id FROM agencies WHERE agency_type = 0 ORDER BY id LIMIT 1`,
  )
  if (!root) throw new Error('no system organisation')
  const volunteersS = ((await loadVolunteers(ctx, root.id)) / 1000).toFixed(1)
  const thirdPartyS = ((await loadThirdParty(ctx, root.id)) / 1000).toFixed(1)
  await ctx.db.execute(sql`DELETE FROM third_party_aeds WHERE submitter_name = ${POSTER}`)
  const counts = await one<{ devices: number; volunteers: string; third_party: string }>(
    ctx.db,
    sql`SELECT (SELECT count(*) FROM installations WHERE removed_at IS NULL) AS devices,
               (SELECT string_agg(audit_status || ': ' || n, ', ' ORDER BY audit_status DESC)
                FROM (SELECT audit_status, count(*) AS n FROM volunteers GROUP BY 1) v) AS volunteers,
               (SELECT string_agg(audit_status || ': ' || n, ', ' ORDER BY audit_status DESC)
                FROM (SELECT audit_status, count(*) AS n FROM third_party_aeds GROUP BY 1) v) AS third_party`,
  )
  const sizes =
    `${counts?.devices} installed AEDs, volunteers by status (${counts?.volunteers}), ` +
    `third-party AEDs by status (${counts?.third_party})`
  log(
    `${database.kind}: ${sizes}; loaded in ${networkS} s (network), ${volunteersS} s (volunteers), ${thirdPartyS} s (third-party)`,
  )

  const admin = await signInInject(app, '13800000000')
  const rows: string[][] = []
  const slow: { name: string; run: () => Promise<unknown> }[] = []
  /**
   * Times `run` RUNS times after WARM_UP untimed (each call its own index); a row of the table with
   * the last answer (or `summary`'s), and the case kept when slow.
   */
  const time = async (
    name: string,
    run: (i: number) => Promise<string>,
    explain: () => Promise<unknown>,
    summary?: () => Promise<string>,
  ) => {
    for (let i = 0; i < WARM_UP; i++) await run(i)
    const times: number[] = []
    let answer = ''
    for (let i = WARM_UP; i < WARM_UP + RUNS; i++) {
      const s = performance.now()
      answer = await run(i)
      times.push(performance.now() - s)
    }
    if (summary) answer = await summary()
    const sorted = ascending(times)
    const p95 = percentile(sorted, 95)
    if (p95 > TARGET || EXPLAIN_ALL) slow.push({ name, run: explain })
    rows.push([
      name,
      percentile(sorted, 50).toFixed(1),
      p95.toFixed(1),
      sorted.at(-1)!.toFixed(1),
      `≤ ${TARGET}${p95 > TARGET ? ' MISSED' : ''}`,
      answer,
    ])
  }

  // The lists, as the console asks for them: each tab's first, middle and last page of 20, a name
  // (a common surname, a two-character and a three-character name) and a brand.
  const count = async (url: string) => {
    const r = await app.inject({ method: 'GET', url, headers: { authorization: `JWT ${admin}` } })
    return (r.json() as { data: { count: number } }).data.count
  }
  const lists: ListCase[] = []
  for (const [label, list, filters] of [
    [
      'volunteers',
      VOLUNTEER_LIST,
      [
        ['name 王', 'name=王'],
        ['name 张伟', 'name=张伟'],
        ['name 王秀英', 'name=王秀英'],
      ],
    ],
    [
      'third-party',
      THIRD_PARTY_LIST,
      [
        ['brand 迈瑞', 'brand=迈瑞'],
        ['brand 卓尔', 'brand=卓尔'],
      ],
    ],
  ] as const) {
    for (const tab of [1, 2, 0]) {
      const base = `${list}?audit_status=${tab}`
      const last = Math.max(1, Math.ceil((await count(`${base}&page=1&page_size=1`)) / PAGE_SIZE))
      const mid = Math.max(1, Math.floor(last / 2))
      lists.push(
        { name: `${label}, tab ${tab}: page 1`, url: `${base}&page=1&page_size=${PAGE_SIZE}` },
        {
          name: `${label}, tab ${tab}: page ${mid} (the middle)`,
          url: `${base}&page=${mid}&page_size=${PAGE_SIZE}`,
        },
        {
          name: `${label}, tab ${tab}: page ${last} (the last)`,
          url: `${base}&page=${last}&page_size=${PAGE_SIZE}`,
        },
      )
      for (const [what, q] of filters) {
        lists.push({
          name: `${label}, tab ${tab}: ${what}, page 1`,
          url: `${base}&${encodeURI(q)}&page=1&page_size=${PAGE_SIZE}`,
        })
        const n = Math.max(
          1,
          Math.ceil((await count(`${base}&${encodeURI(q)}&page=1&page_size=1`)) / PAGE_SIZE),
        )
        if (n > 1)
          lists.push({
            name: `${label}, tab ${tab}: ${what}, page ${n} (the last)`,
            url: `${base}&${encodeURI(q)}&page=${n}&page_size=${PAGE_SIZE}`,
          })
      }
    }
  }
  const get = async (url: string) => {
    const r = await app.inject({ method: 'GET', url, headers: { authorization: `JWT ${admin}` } })
    const body = r.json() as { code: number; data: { count: number; resource: unknown[] } }
    if (body.code !== 0) throw new Error(`${url}: ${r.body.slice(0, 300)}`)
    return `${body.data.resource.length} of ${body.data.count}`
  }
  for (const c of lists.filter((c) => !ONLY || ONLY.test(c.name)))
    await time(
      c.name,
      () => get(c.url),
      () => explainRequest(ctx, captured, () => get(c.url), /volunteers|third_party_aeds/),
    )

  // The duplicate check alone (the service's call), then the whole signed POST.
  const checks = (await checkCases(ctx, RUNS + WARM_UP)).filter((c) => !ONLY || ONLY.test(`check: ${c.name}`))
  for (const c of checks) {
    let found = 0
    let runs = 0
    await time(
      `check: ${c.name}`,
      async (i) => {
        const d = await duplicatesOf(ctx.db, c.at[i % c.at.length])
        found += d.length
        runs++
        return `${(found / runs).toFixed(2)} found (mean)`
      },
      () =>
        explainRequest(ctx, captured, () => duplicatesOf(ctx.db, c.at[0]), /third_party_aeds|installations/),
    )
  }
  if (!ONLY || ONLY.test('POST')) {
    const client = await integrator(ctx, app, admin, root.id)
    const image = await client.image()
    const at = (await checkCases(ctx, RUNS + WARM_UP)).filter((c) =>
      /beside one of our AEDs|a serial of ours/.test(c.name),
    )
    let seq = Date.now() % 1_000_000
    for (const c of at) {
      const body = (s: Submission) => ({
        brand: '迈瑞',
        ...s,
        install_imgs: [image],
        submitter_name: POSTER,
        submitter_phone: `18${String(++seq).padStart(9, '0')}`,
      })
      const ids: number[] = []
      await time(
        `POST ${SUBMIT}: ${c.name}`,
        async (i) => {
          const d = await client.post(SUBMIT, body(c.at[i % c.at.length]))
          if (!d.created) throw new Error(`not created: ${JSON.stringify(d)}`)
          ids.push(d.id)
          return ''
        },
        () =>
          explainRequest(
            ctx,
            captured,
            () => client.post(SUBMIT, body(c.at[0])),
            /third_party_aeds|installations/,
          ),
        async () => {
          const row = await one<{ n: number }>(
            ctx.db,
            sql`SELECT count(*) FILTER (WHERE duplicates <> '[]') AS n FROM third_party_aeds
                WHERE id = ANY(${sql.param(ids)}::bigint[])`,
          )
          return `${row?.n} of ${ids.length} flagged`
        },
      )
    }
  }

  console.log(
    `\n${database.kind}: ${sizes}; ${RUNS} runs each after ${WARM_UP}; load average ${loadAverage()}\n`,
  )
  printTable(['case', 'p50 ms', 'p95 ms', 'max ms', 'target p95 ms', 'answer'], rows)
  for (const c of slow) {
    console.log(`\n### ${c.name}`)
    await c.run()
  }
  await ctx.db.execute(sql`DELETE FROM third_party_aeds WHERE submitter_name = ${POSTER}`)
  log(`done; load average ${loadAverage()}`)
  await app.close()
  await database.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main)
