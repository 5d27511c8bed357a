// `npm run bench`: times the administration list endpoints on a large organisation tree.
// Builds the app in-process on a fresh embedded database (or BENCH_DATABASE_URL), bulk-loads
// agencies, users and operation-log rows with generate_series, then sends each request
// repeatedly through the real HTTP stack (inject) and prints p50 / p95 / max in milliseconds.
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { buildApp } from '../app.ts'
import { createContext } from '../bootstrap.ts'
import { loadConfig } from '../config.ts'
import { openPglite, openPostgres } from '../db/client.ts'
import { DEMO_PASSWORD } from '../db/seed.ts'

const AGENCIES = Number(process.env.BENCH_AGENCIES ?? 2000)
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 20000)
const LOGS = Number(process.env.BENCH_LOGS ?? 200000)
const RUNS = Number(process.env.BENCH_RUNS ?? 50)

async function main() {
  const database = process.env.BENCH_DATABASE_URL
    ? await openPostgres(process.env.BENCH_DATABASE_URL)
    : await openPglite(null)
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), `aed-bench-${crypto.randomBytes(4).toString('hex')}`),
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    WEB_DIST: '/nonexistent',
  })
  const ctx = await createContext(config, database, pino({ level: 'silent' }))
  const app = await buildApp(ctx)
  const { db } = ctx

  const t0 = performance.now()
  // Ordinary agencies spread under the two general agents (ids 2 and 3 in the demo seed).
  await db.execute(sql`
    INSERT INTO agencies (name, agency_type, parent_id, level, index_link, phone, contact_name, address_code, disabled, time_zone)
    SELECT '压测机构' || g, 2, 2 + g % 2, 3, '', '13900000000', '联系人', '330106', false, 'Asia/Shanghai'
    FROM generate_series(1, ${AGENCIES}) g`)
  await db.execute(sql`UPDATE agencies a SET index_link = p.index_link || a.id || '/'
                       FROM agencies p WHERE a.parent_id = p.id AND a.index_link = ''`)
  await db.execute(sql`
    INSERT INTO accounts (phone, name, email, nationality, location)
    SELECT '17' || lpad(g::text, 9, '0'), '压测用户' || g, 'u' || g || '@bench.cn', 'CN', '杭州'
    FROM generate_series(1, ${MEMBERS}) g`)
  await db.execute(sql`
    INSERT INTO members (account_id, agency_id, role_type, permissions)
    SELECT a.id, (SELECT min(id) FROM agencies WHERE name LIKE '压测机构%') + (a.id % ${AGENCIES}), 1 + a.id % 2, '{"device":"READ_ONLY"}'
    FROM accounts a WHERE a.phone LIKE '17%'`)
  await db.execute(sql`
    INSERT INTO operation_logs (agency_id, member_id, operator, operation_type, content, create_time)
    SELECT 2 + g % 2, 1, '压测用户' || (g % 500), '修改机构', '修改机构信息：压测机构' || g, now() - (g % 170) * interval '1 day'
    FROM generate_series(1, ${LOGS}) g`)
  await db.execute(sql`ANALYZE`)
  const loadMs = performance.now() - t0

  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/member/login',
    payload: { mobile: '13800000000', password: DEMO_PASSWORD, login_way: 1, member_type: 3 },
  })
  const token = (login.json() as { data: { token: string } }).data.token
  const cases: [string, string][] = [
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
  ]
  const rows: string[] = []
  for (const [name, url] of cases) {
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now()
      const r = await app.inject({ method: 'GET', url, headers: { authorization: `JWT ${token}` } })
      times.push(performance.now() - s)
      if ((r.json() as { code: number }).code !== 0) throw new Error(`${url}: ${r.body.slice(0, 200)}`)
    }
    times.sort((a, b) => a - b)
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1)
    rows.push(`| ${name} | ${q(0.5)} | ${q(0.95)} | ${times.at(-1)!.toFixed(1)} |`)
  }
  console.log(
    `\n${database.kind}: ${AGENCIES} agencies, ${MEMBERS} users, ${LOGS} log rows (loaded in ${(loadMs / 1000).toFixed(1)} s), ${RUNS} runs each\n`,
  )
  console.log('| request | p50 ms | p95 ms | max ms |\n| --- | --- | --- | --- |')
  console.log(rows.join('\n'))
  await app.close()
  await database.close()
}

void main()
