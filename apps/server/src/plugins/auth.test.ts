import crypto from 'node:crypto'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { eq, sql } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../db/schema.ts'
import { TestClock } from '../lib/clock.ts'
import { signOpenApiRequest } from '../lib/open-api-signing.ts'
import { createTestApp, demo, type TestApp } from '../test/harness.ts'
import { type DeviceCredentials, signDeviceRequest } from './auth.ts'

// Small routes on the real app, one under each prefix and one outside, answering who the
// request was authenticated as.
let t: TestApp
let memberToken: string
let integratorToken: string
let integratorSecret: string
let westLakeId: number
const clock = new TestClock(Date.now())

const SN = 'AED20260001'
const SECRET = crypto.randomBytes(32).toString('hex')
const OLD_SECRET = crypto.randomBytes(32).toString('hex')
const devices: Record<string, DeviceCredentials> = {
  [SN]: { kind: 'aed', id: 7, sn: SN, secrets: [SECRET, OLD_SECRET] },
  CAB0001: { kind: 'cabinet', id: 3, sn: 'CAB0001', secrets: [crypto.randomBytes(32).toString('hex')] },
}

const who = (req: FastifyRequest) => ({
  auth: req.auth ? { member_id: req.auth.member_id } : null,
  device: req.device,
  integrator: req.integrator ? { agency_id: req.integrator.agency_id } : null,
  body: req.body ?? null,
})

beforeAll(async () => {
  t = await createTestApp()
  t.ctx.clock = clock
  t.ctx.deviceCredentials = async (sn) => devices[sn] ?? null
  t.app.get('/api/v1/test/who', async (req) => who(req))
  t.app.post('/device-api/v1/test/who', async (req) => who(req))
  t.app.get('/device-api/v1/test/who', async (req) => who(req))
  t.app.post('/device-api/v1/test/open', { config: { public: true } }, async (req) => who(req))
  t.app.get('/open-api/v1/test/who', async (req) => who(req))
  t.app.get('/elsewhere/test/who', async (req) => who(req))

  memberToken = await t.login(demo.superAdmin)
  const [westLake] = await t.db.select().from(agencies).where(eq(agencies.name, '杭州市西湖区急救中心'))
  westLakeId = westLake.id
  // The credentials an administrator creates in the service configuration page.
  const created = await t.call<ServiceConfig>('POST', '/api/v1/agency/app-service/config', {
    token: memberToken,
    body: { agency_id: westLakeId, service: ['open_api'], state: 1 },
  })
  expect(created.code).toBe(0)
  integratorToken = created.data.access_token!
  integratorSecret = created.data.secret!
})
afterAll(() => t.close())

type Who = ReturnType<typeof who>

async function send(
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; json: { code: number; msg: string; data?: Who } & Partial<Who> }> {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: body } : {}),
  })
  return { status: res.statusCode, json: res.json() }
}

const jwt = () => ({ authorization: `JWT ${memberToken}` })
const signed = (
  path: string,
  body = '',
  o: { sn?: string; secret?: string; ts?: number; nonce?: string } = {},
) =>
  signDeviceRequest(o.sn ?? SN, o.secret ?? SECRET, {
    method: body ? 'POST' : 'GET',
    path,
    body,
    ts: o.ts ?? clock.now().getTime(),
    nonce: o.nonce,
  })
const refused = { status: 401, json: { code: -1, msg: '认证失败', data: null } }

describe('members on /api/v1 (JWT)', () => {
  it('opens with the member token and sets only req.auth; without it code -1 as before', async () => {
    const r = await send('GET', '/api/v1/test/who', jwt())
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ auth: { member_id: expect.any(Number) }, device: null, integrator: null })
    expect(await send('GET', '/api/v1/test/who')).toMatchObject({ status: 200, json: { code: -1 } })
  })

  it('does not open with a device signature or an integrator token', async () => {
    const path = '/api/v1/test/who'
    expect((await send('GET', path, signed(path))).json.code).toBe(-1)
    expect((await send('GET', path, { authorization: `Bearer ${integratorToken}` })).json.code).toBe(-1)
  })
})

describe('devices on /device-api (HMAC signature)', () => {
  const path = '/device-api/v1/test/who'
  const body = JSON.stringify({ v: 1, id: 'm1', type: 'heartbeat', data: { battery: 90 } })

  it('opens with a valid signature over the body and sets only req.device', async () => {
    const r = await send('POST', path, signed(path, body), body)
    expect(r.status).toBe(200)
    expect(r.json).toEqual({
      auth: null,
      device: { kind: 'aed', id: 7, sn: SN },
      integrator: null,
      body: JSON.parse(body),
    })
    // A signed GET: the body hashed is the empty one.
    const g = await send('GET', path, signed(path))
    expect(g.json.device).toEqual({ kind: 'aed', id: 7, sn: SN })
  })

  it('takes the previous secret (the 24 hours after a rotation)', async () => {
    const r = await send('POST', path, signed(path, body, { secret: OLD_SECRET }), body)
    expect(r.json.device?.sn).toBe(SN)
  })

  it('signs the path with its query', async () => {
    const withQuery = `${path}?kind=ecg&rescue_event_id=r1`
    expect((await send('POST', withQuery, signed(withQuery, body), body)).status).toBe(200)
    expect(await send('POST', withQuery, signed(path, body), body)).toMatchObject(refused)
  })

  it('refuses with HTTP 401 and code -1 whatever is wrong, and says nothing more', async () => {
    const ok = () => signed(path, body)
    const cases: [string, Record<string, string>, string?][] = [
      ['no headers', {}],
      ['a member token', jwt()],
      ['an integrator token', { authorization: `Bearer ${integratorToken}` }],
      ['a wrong secret', signed(path, body, { secret: crypto.randomBytes(32).toString('hex') })],
      ["another device's secret", signed(path, body, { secret: devices.CAB0001.secrets[0] })],
      ['a changed body', ok(), body.replace('90', '91')],
      ['an unknown serial', signed(path, body, { sn: 'AED99999999' })],
      ['ts 15 minutes and 1 ms old', signed(path, body, { ts: clock.now().getTime() - 900_001 })],
      ['ts 15 minutes and 1 ms ahead', signed(path, body, { ts: clock.now().getTime() + 900_001 })],
      ['a nonce of 15 characters', signed(path, body, { nonce: 'abcdefghijklmno' })],
      ['a changed signature', { ...ok(), 'x-sig': 'f'.repeat(64) }],
      ['a missing nonce', { ...ok(), 'x-nonce': '' }],
    ]
    for (const [what, headers, b] of cases) {
      expect({ what, ...(await send('POST', path, headers, b ?? body)) }).toMatchObject({ what, ...refused })
    }
  })

  it('takes a ts 15 minutes off, as long as the nonce is new', async () => {
    const r = await send('POST', path, signed(path, body, { ts: clock.now().getTime() - 900_000 }), body)
    expect(r.status).toBe(200)
  })

  it('refuses a replayed nonce, also with a new timestamp and signature', async () => {
    const nonce = crypto.randomBytes(16).toString('hex')
    const first = signed(path, body, { nonce })
    expect((await send('POST', path, first, body)).status).toBe(200)
    expect(await send('POST', path, first, body)).toMatchObject(refused)
    clock.advance(60_000)
    expect(await send('POST', path, signed(path, body, { nonce }), body)).toMatchObject(refused)
    // The same nonce from another device is its own.
    const cab = signed(path, body, { sn: 'CAB0001', secret: devices.CAB0001.secrets[0], nonce })
    expect((await send('POST', path, cab, body)).json.device).toEqual({
      kind: 'cabinet',
      id: 3,
      sn: 'CAB0001',
    })
  })

  it('refuses before reading the body: an unsigned request with bad JSON still gets 401', async () => {
    expect(await send('POST', path, {}, '{not json')).toMatchObject(refused)
    expect(
      await send('POST', path, { ...signed(path, body), 'x-sig': '0'.repeat(64) }, '{not json'),
    ).toMatchObject(refused)
  })

  it('lets a route opt out with config.public (the MQTT broker hooks)', async () => {
    const r = await send('POST', '/device-api/v1/test/open', {}, '{"clientid":"x"}')
    expect(r.json).toMatchObject({ auth: null, device: null, body: { clientid: 'x' } })
  })
})

describe('integrators on /open-api (signed with the service configuration secret)', () => {
  const path = '/open-api/v1/test/who'
  const integrator = (
    target = path,
    o: {
      key?: string
      secret?: string
      timestamp?: number
      nonce?: string
      body?: string
      method?: string
    } = {},
  ) =>
    signOpenApiRequest(o.key ?? integratorToken, o.secret ?? integratorSecret, {
      method: o.method ?? 'GET',
      target,
      body: o.body,
      timestamp: o.timestamp ?? Math.floor(clock.now().getTime() / 1000),
      nonce: o.nonce,
    })
  const refusedAs = (status: number, error: string) => ({ status, json: { data: { error } } })

  it('opens with a signed request and sets only req.integrator', async () => {
    const r = await send('GET', path, integrator())
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ auth: null, device: null, integrator: { agency_id: westLakeId }, body: null })
  })

  it('refuses a member token, a device signature, no key and an unknown key, each by its reason', async () => {
    expect(await send('GET', path, jwt())).toMatchObject(refusedAs(401, 'key_missing'))
    expect(await send('GET', path, signed(path))).toMatchObject(refusedAs(401, 'key_missing'))
    expect(await send('GET', path)).toMatchObject(refusedAs(401, 'key_missing'))
    expect(await send('GET', path, { authorization: `Bearer ${integratorToken}` })).toMatchObject(
      refusedAs(401, 'key_missing'),
    )
    const unknown = integrator(path, { key: crypto.randomBytes(36).toString('base64url') })
    expect(await send('GET', path, unknown)).toMatchObject(refusedAs(401, 'key_unknown'))
  })

  it('refuses a disabled configuration, one without the open_api service, and a disabled organisation', async () => {
    const setConfig = (set: ReturnType<typeof sql>) =>
      t.db.execute(sql`UPDATE app_service_configs SET ${set} WHERE agency_id = ${westLakeId}`)
    await setConfig(sql`state = 0`)
    expect(await send('GET', path, integrator())).toMatchObject(refusedAs(401, 'key_disabled'))
    await setConfig(sql`state = 1, service = '["event_push"]'::jsonb`)
    expect(await send('GET', path, integrator())).toMatchObject(refusedAs(403, 'service_denied'))
    await setConfig(sql`service = '["event_push", "open_api"]'::jsonb`)
    expect((await send('GET', path, integrator())).status).toBe(200)

    const [westLake] = await t.db.select().from(agencies).where(eq(agencies.id, westLakeId))
    await t.db.update(agencies).set({ disabled: true }).where(eq(agencies.id, westLake.parent_id!))
    expect(await send('GET', path, integrator())).toMatchObject(refusedAs(401, 'key_disabled'))
    await t.db.update(agencies).set({ disabled: false }).where(eq(agencies.id, westLake.parent_id!))
    expect((await send('GET', path, integrator())).status).toBe(200)
  })
})

describe('routes outside every prefix', () => {
  it('need no guard and carry no caller', async () => {
    const r = await send('GET', '/elsewhere/test/who')
    expect(r).toMatchObject({ status: 200, json: { auth: null, device: null, integrator: null } })
  })
})
