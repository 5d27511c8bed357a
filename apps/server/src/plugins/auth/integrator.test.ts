import crypto from 'node:crypto'
import { canonicalQuery, openApiStringToSign } from '@aed/contracts/open-api'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { serviceConfigApi } from '@aed/contracts/service-config'
import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../../db/schema.ts'
import { one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { openApiSignature, sha256Hex, signOpenApiRequest } from '../../lib/open-api-signing.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

// The integrator guard, one refusal at a time: each reason has its own error, HTTP status and
// message, and a refused request writes nothing (its nonce stays usable, no request is counted).

let t: TestApp
let admin: string
let config: ServiceConfig
let westLakeId: number
const clock = new TestClock(Date.parse('2026-11-26T08:00:00+08:00'))
const nowS = () => Math.floor(clock.now().getTime() / 1000)
let hits = 0

beforeAll(async () => {
  t = await createTestApp({ env: { OPEN_API_RATE: '1', OPEN_API_BURST: '3' } })
  t.ctx.clock = clock
  const who = (req: FastifyRequest) => {
    hits++
    return { agency_id: req.integrator?.agency_id ?? null, body: req.body ?? null }
  }
  t.app.get('/open-api/v1/test/who', async (req) => who(req))
  t.app.post('/open-api/v1/test/who', async (req) => who(req))
  t.app.get('/open-api/v1/test/mini', { config: { openApiService: 'mini_program' } }, async (req) => who(req))
  admin = await t.login(demo.superAdmin)
  const [westLake] = await t.db.select().from(agencies).where(eq(agencies.name, '杭州市西湖区急救中心'))
  westLakeId = westLake.id
  const created = await t.api(serviceConfigApi.create, {
    token: admin,
    body: { agency_id: westLakeId, service: ['open_api'], state: 1 },
  })
  expect(created.code).toBe(0)
  config = created.data
})
afterAll(() => t.close())

/** Fills the bucket again: the tests after a rate test start with a full burst. */
const refill = () => t.db.execute(sql`DELETE FROM open_api_buckets`)

async function send(method: 'GET' | 'POST', target: string, headers: Record<string, string>, body?: string) {
  const res = await t.app.inject({
    method,
    url: target,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: body } : {}),
  })
  return { status: res.statusCode, headers: res.headers, json: res.json() }
}

const sign = (
  method: 'GET' | 'POST',
  target: string,
  o: { body?: string; timestamp?: number; nonce?: string; key?: string; secret?: string } = {},
) =>
  signOpenApiRequest(o.key ?? config.access_token!, o.secret ?? config.secret!, {
    method,
    target,
    body: o.body,
    timestamp: o.timestamp ?? nowS(),
    nonce: o.nonce,
  })

const nonceRows = () => one<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM open_api_nonces`)

describe('the canonical string', () => {
  it('sorts the query by key then value and percent-encodes it per RFC 3986', () => {
    expect(canonicalQuery('lon=120.1&lat=30.2&b=2&b=1&q=a%20b+c&x=%E4%B8%AD&s=(*)!')).toBe(
      'b=1&b=2&lat=30.2&lon=120.1&q=a%20b%20c&s=%28%2A%29%21&x=%E4%B8%AD',
    )
    expect(canonicalQuery('')).toBe('')
    expect(
      openApiStringToSign({
        method: 'get',
        path: '/open-api/v1/aed/nearby',
        query: 'lon=1&lat=2',
        timestamp: '1764115200',
        nonce: 'abcdefghijklmnop',
        bodySha256: sha256Hex(''),
      }),
    ).toBe(
      'GET\n/open-api/v1/aed/nearby\nlat=2&lon=1\n1764115200\nabcdefghijklmnop\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
  })

  it('signs with the HMAC-SHA256 of the secret text, lowercase hex (a known value)', () => {
    // Computed independently: printf 'GET\n/p\n\n1\nn\nx' | openssl dgst -sha256 -hmac 'key' -hex
    expect(openApiSignature('key', 'GET\n/p\n\n1\nn\nx')).toBe(
      'edf059f853615281a94dd493bb729312e4779688d40d83ab16489abe2f8ac97e',
    )
    expect(openApiSignature('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    )
  })

  it('is the same whatever order and encoding a client gives the same query (property)', () => {
    const pair = fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }))
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 6 }), fc.func(fc.integer()), (pairs, rank) => {
        const enc = (s: string) => encodeURIComponent(s)
        const a = pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')
        const shuffled = [...pairs].sort((x, y) => rank(x.join()) - rank(y.join()))
        const b = shuffled.map(([k, v]) => `${enc(k)}=${enc(v).replace(/%20/g, '+')}`).join('&')
        expect(canonicalQuery(b)).toBe(canonicalQuery(a))
      }),
      { seed: 20261126, numRuns: 200 },
    )
  })
})

describe('a signed call', () => {
  it('opens for a GET with a query and a POST with a body; the body reaches the route as sent', async () => {
    await refill()
    const target = '/open-api/v1/test/who?lon=120.15&lat=30.27&name=%E8%A5%BF%E6%B9%96'
    const r = await send('GET', target, sign('GET', target))
    expect(r).toMatchObject({ status: 200, json: { agency_id: westLakeId } })
    const body = JSON.stringify({ phone: '13800000000', note: '西湖' })
    const p = await send(
      'POST',
      '/open-api/v1/test/who',
      sign('POST', '/open-api/v1/test/who', { body }),
      body,
    )
    expect(p).toMatchObject({ status: 200, json: { body: { phone: '13800000000', note: '西湖' } } })
  })
})

describe('each refusal has its own reason and writes nothing', () => {
  const path = '/open-api/v1/test/who'
  const body = '{"a":1}'

  const cases: [string, () => Record<string, string>, number, string, string?][] = [
    ['no key', () => ({ ...sign('POST', path, { body }), 'x-aed-key': '' }), 401, 'key_missing'],
    ['an unknown key', () => sign('POST', path, { body, key: 'k'.repeat(48) }), 401, 'key_unknown'],
    [
      'a timestamp in ms',
      () => ({ ...sign('POST', path, { body }), 'x-aed-timestamp': 'x1' }),
      401,
      'timestamp_invalid',
    ],
    [
      'a timestamp 301 s old',
      () => sign('POST', path, { body, timestamp: nowS() - 301 }),
      401,
      'timestamp_expired',
    ],
    [
      'a timestamp 301 s ahead',
      () => sign('POST', path, { body, timestamp: nowS() + 301 }),
      401,
      'timestamp_expired',
    ],
    ['a nonce of 15', () => sign('POST', path, { body, nonce: 'a'.repeat(15) }), 401, 'nonce_invalid'],
    [
      'a nonce with a dash',
      () => sign('POST', path, { body, nonce: `${'a'.repeat(16)}-` }),
      401,
      'nonce_invalid',
    ],
    [
      'no signature',
      () => ({ ...sign('POST', path, { body }), 'x-aed-signature': '' }),
      401,
      'signature_missing',
    ],
    [
      'an upper-case signature',
      () => {
        const h = sign('POST', path, { body })
        return { ...h, 'x-aed-signature': h['x-aed-signature'].toUpperCase() }
      },
      401,
      'signature_missing',
    ],
    [
      'a wrong secret',
      () => sign('POST', path, { body, secret: 'not-the-secret' }),
      401,
      'signature_mismatch',
    ],
    [
      'a changed body, no content hash',
      () => {
        const { 'x-aed-content-sha256': _hash, ...h } = sign('POST', path, { body: '{"a":2}' })
        return h
      },
      401,
      'signature_mismatch',
    ],
    [
      'a changed body with its content hash',
      () => sign('POST', path, { body: '{"a":2}' }),
      400,
      'body_mismatch',
    ],
    ['another path', () => sign('POST', '/open-api/v1/test/other', { body }), 401, 'signature_mismatch'],
  ]

  it.each(cases)('%s', async (_name, headers, status, error) => {
    await refill()
    const before = await nonceRows()
    const hitsBefore = hits
    const r = await send('POST', path, headers(), body)
    expect(r.status).toBe(status)
    expect(r.json.data.error).toBe(error)
    expect(r.json.msg).toMatch(/\S/)
    expect(r.json.code).toBe(status === 400 ? 1 : -1)
    expect(await nonceRows()).toEqual(before)
    expect(hits).toBe(hitsBefore)
  })

  it('shows what the server signed on a mismatch (no secret in it), so the integrator can compare', async () => {
    await refill()
    const h = sign('POST', path, { body, secret: 'wrong' })
    const r = await send('POST', path, h, body)
    expect(r.json.data.string_to_sign).toBe(
      `POST\n${path}\n\n${h['x-aed-timestamp']}\n${h['x-aed-nonce']}\n${sha256Hex(body)}`,
    )
    expect(JSON.stringify(r.json)).not.toContain(config.secret!)
  })

  it('takes a nonce once per key: a replay, even newly signed, is refused', async () => {
    await refill()
    const nonce = crypto.randomBytes(12).toString('hex')
    expect((await send('GET', path, sign('GET', path, { nonce }))).status).toBe(200)
    const again = await send('GET', path, sign('GET', path, { nonce, timestamp: nowS() + 1 }))
    expect(again).toMatchObject({ status: 401, json: { data: { error: 'nonce_reused' } } })
  })

  it('answers in English when asked', async () => {
    const r = await t.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'en-US' } })
    expect(r.json()).toMatchObject({ msg: 'The X-AED-Key header is missing' })
  })
})

describe('services, limits and rotation', () => {
  it('requires the route’s service: without mini_program the mini-program route is refused (403)', async () => {
    await refill()
    const r = await send('GET', '/open-api/v1/test/mini', sign('GET', '/open-api/v1/test/mini'))
    expect(r).toMatchObject({ status: 403, json: { code: -2, data: { error: 'service_denied' } } })
    expect(r.json.msg).toContain('mini_program')
  })

  it('limits each configuration to its bucket: HTTP 429 with Retry-After, then refills with time', async () => {
    await refill()
    const path = '/open-api/v1/test/who'
    for (let i = 0; i < 3; i++) expect((await send('GET', path, sign('GET', path))).status).toBe(200)
    const limited = await send('GET', path, sign('GET', path))
    expect(limited.status).toBe(429)
    expect(limited.json).toMatchObject({ code: 4, data: { error: 'rate_limited', retry_after: 1 } })
    expect(limited.headers['retry-after']).toBe('1')
    clock.advance(1000)
    expect((await send('GET', path, sign('GET', path))).status).toBe(200)
  })

  it('keeps the previous key and secret for 24 hours after a regeneration', async () => {
    await refill()
    const path = '/open-api/v1/test/who'
    const old = { key: config.access_token!, secret: config.secret! }
    const r = await t.api(serviceConfigApi.update, {
      token: admin,
      params: { id: config.id },
      body: { service: ['open_api'], state: 1, regenerate: true },
    })
    expect(r.code).toBe(0)
    expect(r.data.access_token).not.toBe(old.key)
    expect(Date.parse(r.data.previous_secret_until!)).toBe(clock.now().getTime() + 24 * 3_600_000)
    const fresh = { key: r.data.access_token!, secret: r.data.secret! }
    expect((await send('GET', path, sign('GET', path, fresh))).status).toBe(200)
    expect((await send('GET', path, sign('GET', path, old))).status).toBe(200)
    // The old key with the new secret is not a pair.
    expect(
      (await send('GET', path, sign('GET', path, { key: old.key, secret: fresh.secret }))).json.data.error,
    ).toBe('signature_mismatch')
    clock.advance(24 * 3_600_000 + 1000)
    await refill()
    expect((await send('GET', path, sign('GET', path, old))).json.data.error).toBe('key_unknown')
    expect((await send('GET', path, sign('GET', path, fresh))).status).toBe(200)
    config = { ...config, ...fresh }
  })
})
