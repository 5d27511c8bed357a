import fc from 'fast-check'
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { isDatabaseUnreachable } from '../db/sql.ts'
import { demo, fileTestApp } from '../test/harness.ts'
import { switchedLink } from '../test/switched-link.ts'
import { servesWithoutDatabase } from './db-link.ts'
import { envelopePlugin } from './envelope.ts'

// While the database link is down (db/link.ts), requests that need the database are refused at
// once with 503 in the envelope: nginx sends them to another instance, devices send again.

const t = fileTestApp()

let restore: (() => void) | null = null
afterEach(() => {
  restore?.()
  restore = null
})

function linkDown() {
  const saved = t.ctx.database.link
  const s = switchedLink()
  t.ctx.database.link = s.link
  restore = () => {
    t.ctx.database.link = saved
  }
  s.set(false)
  return s
}

describe('a database link found down', () => {
  it('refuses the API, the device gateway and the open API with 503 in the envelope, signed in or not', async () => {
    const token = await t.login(demo.superAdmin)
    linkDown()
    for (const [method, url, auth] of [
      ['GET', '/api/v1/system/menu', true],
      ['POST', '/api/v1/member/login', false],
      ['POST', '/device-api/v1/messages', false],
      ['GET', '/open-api/v1/aeds/nearby?lng=120&lat=30', false],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: auth ? { authorization: `JWT ${token}` } : {},
        payload: method === 'POST' ? {} : undefined,
      })
      expect(res.statusCode, url).toBe(503)
      expect(res.json(), url).toEqual({ code: 500, msg: '数据库不可用', data: null })
    }
  })

  it('answers liveness and says not ready', async () => {
    linkDown()
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json().data.database).toBe('down')
  })

  it('serves again once the link is up', async () => {
    const s = linkDown()
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/member/login', payload: {} })).statusCode,
    ).toBe(503)
    s.set(true)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/member/login', payload: {} })
    expect(res.statusCode).toBe(200)
    expect(res.json().code).toBe(1)
  })
})

describe('servesWithoutDatabase', () => {
  it('lets through the probes, the metrics and the console files only', () => {
    const yes = [
      '/api/health',
      '/api/ready',
      '/metrics',
      '/assets/index-abc.js',
      '/index.html',
      '/favicon.svg',
    ]
    const no = [
      '/api/v1/system/menu',
      '/device-api/v1/messages',
      '/files/a.png',
      '/open-api/v1/x',
      '/api/healthz',
    ]
    for (const url of yes) expect(servesWithoutDatabase({ method: 'GET', url }), url).toBe(true)
    for (const url of no) expect(servesWithoutDatabase({ method: 'GET', url }), url).toBe(false)
    expect(servesWithoutDatabase({ method: 'POST', url: '/assets/x.js' })).toBe(false)
  })

  it('never lets through a path under /api/v1, /device-api, /open-api or /files, whatever follows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('/api/v1/', '/device-api/', '/open-api/', '/files/'),
        fc.string(),
        fc.constantFrom('GET', 'POST', 'HEAD'),
        (prefix, rest, method) => !servesWithoutDatabase({ method, url: prefix + rest }),
      ),
    )
  })
})

describe('an error from a lost connection', () => {
  it('answers 503 in the envelope, where any other error answers 500', async () => {
    const app = Fastify()
    await app.register(envelopePlugin, { spa: false, rescuePage: false })
    app.get('/lost', async () => {
      throw new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') })
    })
    app.get('/bug', async () => {
      throw new Error('Cannot read properties of undefined')
    })
    const lost = await app.inject({ method: 'GET', url: '/lost' })
    expect(lost.statusCode).toBe(503)
    expect(lost.json()).toEqual({ code: 500, msg: '数据库不可用', data: null })
    const bug = await app.inject({ method: 'GET', url: '/bug' })
    expect(bug.statusCode).toBe(500)
    expect(bug.json().msg).not.toBe('数据库不可用')
    await app.close()
  })
})

describe('isDatabaseUnreachable', () => {
  it('knows a lost connection by SQLSTATE, socket code or message, also as a cause', () => {
    const lost = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('x'), { code: '08006' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Failed query: select 1', { cause: new Error('database link down: connection cut') }),
    ]
    const not = [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new Error('Failed query: select 1', { cause: Object.assign(new Error('deadlock'), { code: '40P01' }) }),
      null,
      'text',
    ]
    for (const e of lost) expect(isDatabaseUnreachable(e), String(e)).toBe(true)
    for (const e of not) expect(isDatabaseUnreachable(e), String(e)).toBe(false)
  })
})
