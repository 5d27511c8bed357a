import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { desc, eq } from 'drizzle-orm'
import pg from 'pg'
import pino from 'pino'
import { buildApp } from '../app.ts'
import { createContext } from '../bootstrap.ts'
import { loadConfig } from '../config.ts'
import { type Database, openPglite, openPostgres } from '../db/client.ts'
import { smsOutbox } from '../db/schema.ts'
import { DEMO_PASSWORD } from '../db/seed.ts'
import type { WechatProvider } from '../providers/wechat/wechat-provider.ts'

export { DEMO_PASSWORD }

/** Demo phones by role, as seeded. */
export const demo = {
  superAdmin: '13800000000',
  admin: '13800000001',
  general: '13800000002',
  eastAdmin: '13800000011',
  southAdmin: '13800000012',
  hzAdmin: '13800000021',
  njAdmin: '13800000022',
  szAdmin: '13800000023',
  xmPhone: '13800000024',
  multi: '13800000099',
} as const

/**
 * A fresh database for one test file: in-memory PGlite, or with TEST_DB=postgres a new database
 * on the server at TEST_DATABASE_URL, dropped again on close.
 */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openPglite(null)
    return { database, drop: async () => {} }
  }
  const admin = process.env.TEST_DATABASE_URL
  if (!admin) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const name = `aed_test_${crypto.randomBytes(6).toString('hex')}`
  const c = new pg.Client({ connectionString: admin })
  await c.connect()
  await c.query(`CREATE DATABASE ${name}`)
  await c.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  const database = await openPostgres(url.toString())
  return {
    database,
    drop: async () => {
      const d = new pg.Client({ connectionString: admin })
      await d.connect()
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await d.end()
    },
  }
}

type InjectOptions = {
  token?: string
  body?: unknown
  query?: Record<string, string | number | boolean>
  lang?: 'zh-CN' | 'en-US'
}

/** Builds the app on a fresh seeded database and gives helpers to call it as a member would. */
export async function createTestApp(opts: { env?: Record<string, string>; wechat?: WechatProvider } = {}) {
  const { database, drop } = await freshDatabase()
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), `aed-test-${crypto.randomBytes(4).toString('hex')}`),
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    WEB_DIST: '/nonexistent',
    ...opts.env,
  })
  const ctx = await createContext(config, database, pino({ level: 'silent' }))
  if (opts.wechat) ctx.wechat = opts.wechat
  const app = await buildApp(ctx)

  async function call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    o: InjectOptions = {},
  ) {
    const res = await app.inject({
      method,
      url,
      query: o.query
        ? Object.fromEntries(Object.entries(o.query).map(([k, v]) => [k, String(v)]))
        : undefined,
      headers: {
        ...(o.token ? { authorization: `JWT ${o.token}` } : {}),
        ...(o.lang ? { 'accept-language': o.lang } : {}),
      },
      ...(o.body !== undefined ? { payload: o.body as object } : {}),
    })
    return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: T }) }
  }

  async function login(phone: string, password = DEMO_PASSWORD) {
    const r = await call<{ token: string; agency_list: { id: number }[] }>('POST', '/api/v1/member/login', {
      body: { mobile: phone, password, login_way: 1, member_type: 3 },
    })
    if (r.code !== 0) throw new Error(`login ${phone} failed: ${r.code} ${r.msg}`)
    return r.data.token
  }

  /** The newest code the local SMS provider "sent" to a phone. */
  async function lastSmsCode(phone: string) {
    const [row] = await ctx.db
      .select()
      .from(smsOutbox)
      .where(eq(smsOutbox.phone, phone))
      .orderBy(desc(smsOutbox.id))
      .limit(1)
    return row ? /(\d{6})/.exec(row.content)![1] : null
  }

  return {
    app,
    ctx,
    db: ctx.db,
    call,
    login,
    lastSmsCode,
    async close() {
      await app.close()
      await database.close()
      await drop()
    },
  }
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>
