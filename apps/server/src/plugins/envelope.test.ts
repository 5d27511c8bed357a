import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app.ts'
import { accounts, agencies, classrooms } from '../db/schema.ts'
import { createLogger } from '../lib/logger.ts'
import { hashPassword } from '../lib/passwords.ts'
import { localSms } from '../providers/sms/local-sms.ts'
import { demo, fileTestApp } from '../test/harness.ts'

const t = fileTestApp()

describe('envelope', () => {
  it('answers malformed JSON with an envelope, not a stack trace', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/member/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"mobile":',
    })
    const body = res.json()
    expect(body).toMatchObject({ code: 1, msg: '参数错误', data: null })
    expect(res.body).not.toMatch(/at .*\.ts/)
  })

  it('answers unknown API routes with code 2 and HTTP 404', async () => {
    const r = await t.call('GET', '/api/v1/nope')
    expect(r).toMatchObject({ status: 404, code: 2, msg: '接口不存在' })
  })

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    const doc = res.json() as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/member/login', '/api/v1/system/sms-code/', '/api/v1/system/menu']),
    )
  })

  it('health answers code 0 when the database answers', async () => {
    expect((await t.call('GET', '/api/health')).code).toBe(0)
  })
})

describe('operation log', () => {
  it('records a sign-in with operator, type and readable content', async () => {
    await t.login('13800000001')
    const { operationLogs } = await import('../db/schema.ts')
    const rows = await t.db.select().from(operationLogs)
    expect(rows.at(-1)).toMatchObject({
      operator: '系统管理员',
      operation_type: '登录',
      content: '登录方式：密码',
    })
  })

  it('refuses at start-up a changing route that declares no log entry', async () => {
    const Fastify = (await import('fastify')).default
    const { oplogPlugin } = await import('./oplog.ts')
    const app = Fastify()
    await app.register(oplogPlugin, { ctx: t.ctx })
    expect(() => app.post('/api/v1/unlogged', async () => ({}))).toThrow(/declares no config.oplog/)
  })
})

describe('paths', () => {
  it('accepts a path with or without the trailing slash, as the spec writes both', async () => {
    const token = await t.login('13800000000')
    expect((await t.call('GET', '/api/v1/agency', { token })).code).toBe(0)
    expect((await t.call('GET', '/api/v1/agency/', { token })).code).toBe(0)
    expect((await t.call('GET', '/api/v1/system/menu/', { token })).code).toBe(0)
  })
})

describe('NUL characters', () => {
  const NUL_MSG = /^参数不能包含空字符（\\u0000）：/

  async function counts() {
    const [a] = await t.db.select({ n: sql<number>`count(*)::int` }).from(agencies)
    const [c] = await t.db.select({ n: sql<number>`count(*)::int` }).from(classrooms)
    return { agencies: a.n, classrooms: c.n }
  }

  it('are refused in any query, body or path parameter with code 1, never a 500', async () => {
    const token = await t.login(demo.superAdmin)
    const before = await counts()
    const cases: [
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      o: { query?: Record<string, string>; body?: unknown },
      field: string,
    ][] = [
      ['GET', '/api/v1/agency/', { query: { name: 'a\u0000b' } }, 'query.name'],
      ['GET', '/api/v1/member/', { query: { name: '\u0000' } }, 'query.name'],
      ['GET', '/api/v1/aid-classroom/', { query: { title: 'x\u0000' } }, 'query.title'],
      ['GET', '/api/v1/sys-mgmt/operation-log', { query: { operator: '\u0000' } }, 'query.operator'],
      ['GET', '/api/v1/sys-mgmt/operation-log', { query: { 'a\u0000': '1' } }, 'query.a'],
      ['POST', '/api/v1/agency/', { body: { name: '机构\u0000', agency_type: 2 } }, 'body.name'],
      [
        'PUT',
        '/api/v1/aid-classroom/1',
        { body: { title: 'ok', nested: [{ deep: 'x\u0000' }] } },
        'body.nested.0.deep',
      ],
      ['GET', '/api/v1/account/1380000%000', {}, 'params.phone'],
    ]
    for (const [method, url, o, field] of cases) {
      const r = await t.call(method, url, { token, ...o })
      expect(r, `${method} ${url}`).toMatchObject({ status: 200, code: 1, data: null })
      expect(r.msg, `${method} ${url}`).toMatch(NUL_MSG)
      expect(r.msg, `${method} ${url}`).toContain(field)
    }
    expect(await counts()).toEqual(before)
  })

  it('are refused before authentication matters on public routes, in the asked language', async () => {
    const r = await t.call('POST', '/api/v1/member/login', {
      body: { mobile: '13800000000\u0000', password: 'x', login_way: 1, member_type: 3 },
      lang: 'en-US',
    })
    expect(r).toMatchObject({
      code: 1,
      msg: 'Parameters cannot contain the NUL character (\\u0000): body.mobile',
    })
  })

  it('are not looked for inside the bytes of an uploaded file', async () => {
    const { findNul } = await import('./envelope.ts')
    const file = { filename: 'a.png', mimetype: 'image/png', data: Buffer.from([0, 0, 0]) }
    expect(findNul({ file, allow_suffix: 'png' }, 'body')).toBeNull()
    expect(findNul({ file: { ...file, filename: 'a\u0000.png' } }, 'body')).toBe('body.file.filename')
  })
})

describe('requests the router refuses', () => {
  it('answers an over-long path parameter and a malformed %-escape in the envelope', async () => {
    const token = await t.login(demo.superAdmin)
    for (const url of [`/api/v1/agency/${'9'.repeat(500)}`, '/api/v1/agency/%E0%A4%A', '/api/v1/member/%']) {
      const r = await t.call('GET', url, { token })
      expect(r, url).toEqual({ status: 200, code: 1, msg: '参数错误', data: null })
    }
    const en = await t.call('DELETE', `/api/v1/member/${'x'.repeat(200)}`, { token, lang: 'en-US' })
    expect(en).toMatchObject({ code: 1, msg: 'Invalid parameters' })
  })
})

describe('requests the HTTP parser refuses', () => {
  let port: number
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
  })

  /** Sends raw bytes on a fresh connection and reads the whole answer. */
  function raw(request: string) {
    return new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1')
      let got = ''
      socket.setEncoding('utf8')
      socket.on('data', (d) => {
        got += d
      })
      socket.on('error', (e) => (got ? resolve(got) : reject(e)))
      socket.on('close', () => resolve(got))
      socket.write(request)
    })
  }

  function parse(answer: string) {
    const [head, body] = answer.split('\r\n\r\n')
    return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) }
  }

  it('answers a 100,000-character query string with 431 in the envelope', async () => {
    const res = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: `/api/v1/agency/?name=${'a'.repeat(100_000)}` },
        (r) => {
          let body = ''
          r.setEncoding('utf8')
          r.on('data', (d) => {
            body += d
          })
          r.on('end', () =>
            resolve({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), body }),
          )
        },
      )
      req.on('error', reject)
    })
    expect(res.status).toBe(431)
    expect(res.type).toMatch(/^application\/json/)
    expect(JSON.parse(res.body)).toEqual({ code: 1, msg: '请求过大：网址或请求头过长', data: null })
  })

  it('answers a malformed request in the envelope, in English when the raw request asks', async () => {
    const bad = parse(await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'))
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ code: 1, msg: '参数错误', data: null })
    const en = parse(
      await raw(
        'GET /api/health HTTP/1.1\r\nHost: x\r\nAccept-Language: en-US\r\nContent-Length: abc\r\n\r\n',
      ),
    )
    expect(en.body.msg).toBe('Invalid parameters')
  })

  it('still serves ordinary requests on the listening server', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { code: number }).code).toBe(0)
  })
})

describe('server log', () => {
  it('carries no password hash, phone, email or query parameter of a failed query', async () => {
    const lines: string[] = []
    const log = createLogger('info', { write: (s: string) => void lines.push(s) })
    const app = await buildApp(t.ctx, { logger: log })
    const hash = await hashPassword('Secret12345')
    const email = 'wangwu.secret@example.com'
    app.get('/test/failing-query', { config: { public: true } }, async () => {
      // The demo administrator's phone is taken: the insert fails on the unique phone.
      await t.db.insert(accounts).values({ phone: demo.admin, name: '王五', email, password_hash: hash })
      return { code: 0, msg: '', data: null }
    })
    try {
      const failed = await app.inject({ method: 'GET', url: '/test/failing-query' })
      expect(failed.statusCode).toBe(500)
      expect(failed.json()).toMatchObject({ code: 500, data: null })
      // Query strings and paths carrying phones are logged by Fastify's request lines.
      await app.inject({
        method: 'GET',
        url: `/api/v1/member/?phone=${demo.hzAdmin}&name=${encodeURIComponent(email)}`,
      })
      await app.inject({ method: 'GET', url: `/api/v1/account/${demo.njAdmin}` })
      await app.inject({
        method: 'GET',
        url: '/api/v1/system/menu',
        headers: { authorization: 'JWT eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl' },
      })
      // The development SMS provider writes its line through the same logger.
      await localSms(t.db, log).sendCode(demo.szAdmin, '123456')
    } finally {
      await app.close()
    }
    const text = lines.join('')
    // The failure itself is in the log, so the checks below look at a real error line.
    const errorLine = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error')
    expect(errorLine?.err?.message).toMatch(/Failed query: insert into "accounts"/)
    expect(errorLine?.err?.message).toContain('params: [redacted]')
    expect(text).toContain('/api/v1/member/?phone=[redacted]&name=[redacted]')
    expect(text).toContain('verification code 123456')
    for (const secret of [
      hash,
      hash.split('$').at(-1)!,
      '$argon2',
      email,
      'example.com',
      demo.admin,
      demo.hzAdmin,
      demo.njAdmin,
      demo.szAdmin,
      'eyJhbGciOiJIUzI1NiJ9',
    ]) {
      expect(text, secret).not.toContain(secret)
    }
    // What the row would have been is not quoted by the driver's detail either.
    expect(text).not.toMatch(/Key \(phone\)/)
  })
})
