import crypto from 'node:crypto'
import fs from 'node:fs'
import { authApi, type DataOf, type Endpoint, type ParamsIn, pathOf } from '@aed/contracts'
import { desc, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll } from 'vitest'
import { buildApp } from '../app.ts'
import { createContext } from '../bootstrap.ts'
import { loadConfig } from '../config.ts'
import { smsOutbox } from '../db/schema.ts'
import type { WechatProvider } from '../providers/wechat/wechat-provider.ts'
import { DEMO_PASSWORD } from '../seed/seed.ts'
import { tempDataDir, templateDatabase } from './databases.ts'

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

type InjectOptions = {
  token?: string
  body?: unknown
  query?: Record<string, string | number | boolean>
  lang?: 'zh-CN' | 'en-US'
}

/** What `api()` sends: the endpoint's path parameters, and a query and body as `call` takes them. */
export type ApiOptions<E extends Endpoint> = InjectOptions & { params?: ParamsIn<E> }

/**
 * Builds the app on its own copy of the seeded template database (test/templates.ts; the
 * migrated one when SEED_DEMO is off) and gives helpers to call it as a member would.
 */
export async function createTestApp(opts: { env?: Record<string, string>; wechat?: WechatProvider } = {}) {
  const config = loadConfig({
    DATA_DIR: tempDataDir(),
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    WEB_DIST: '/nonexistent',
    ...opts.env,
  })
  const { database, drop } = await templateDatabase(config.SEED_DEMO ? 'seeded' : 'migrated', config.dataDir)
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

  /** Calls one endpoint of a contracts table; `data` has the endpoint's response type. */
  function api<E extends Endpoint>(e: E, o: ApiOptions<E> = {}) {
    return call<DataOf<E>>(e.method, pathOf(e, o.params as object | undefined), o)
  }

  async function login(phone: string, password = DEMO_PASSWORD) {
    const r = await api(authApi.login, { body: { mobile: phone, password, login_way: 1, member_type: 3 } })
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
    api,
    login,
    lastSmsCode,
    async close() {
      await app.close()
      await database.close()
      await drop()
      fs.rmSync(config.dataDir, { recursive: true, force: true })
    },
  }
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

/** A promise and the function that resolves it (a test waits for what another path does). */
export function signal() {
  let resolve: () => void = () => {}
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** Signed-in tokens of the demo seed's members, by their name in `demo`. */
export async function demoTokens(t: TestApp) {
  const tokens: Record<string, string> = {}
  for (const [k, phone] of Object.entries(demo)) tokens[k] = await t.login(phone)
  return tokens
}

/**
 * The test file's app: built before its tests (createTestApp), closed after them. Read it in
 * hooks and tests only: before it is built, reading it throws.
 */
export function fileTestApp(opts?: Parameters<typeof createTestApp>[0]): TestApp {
  let app: TestApp | undefined
  beforeAll(async () => {
    app = await createTestApp(opts)
  })
  afterAll(() => app?.close())
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!app) throw new Error('the test app is built in beforeAll: read it inside a test')
      return Reflect.get(app, key)
    },
  })
}
