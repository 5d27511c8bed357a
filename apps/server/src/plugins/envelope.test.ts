import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../test/harness.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

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
