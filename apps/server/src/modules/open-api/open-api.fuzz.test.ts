/**
 * Property-based test of the open API's reads: whatever an integrator sends (any query string,
 * path parameter and extra or broken header on each /open-api route, signed or not) is answered
 * with the envelope and never an HTTP 5xx, and writes nothing but the guard's own bookkeeping (a
 * nonce, the request bucket): the device, event, classroom, log, outbox and delivery tables keep
 * their counts.
 *
 * The seed is fixed: a failure names its shrunk counterexample, and a rerun repeats it.
 */

import { openApi } from '@aed/contracts/open-api'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signOpenApiRequest } from '../../lib/open-api-signing.ts'
import { deviceLink } from '../../test/device-link.ts'
import { factories } from '../../test/factories.ts'
import { createTestApp, type TestApp } from '../../test/harness.ts'
import { recordCounts, type TestIntegrator, testIntegrator } from '../../test/open-api.ts'

/** Fixed, so a failure reproduces; FUZZ_SEED=n explores another stream of runs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126)
const RUNS = 300

let t: TestApp
let me: TestIntegrator
let sn: string

beforeAll(async () => {
  t = await createTestApp({ env: { OPEN_API_BURST: '1000000' } })
  const f = factories(t)
  const agency = await f.agency(await f.agency(await f.root()))
  const admin = (await f.signedIn(agency)).token
  const d = await f.registeredDevice(admin, agency, { lat: 31.23, lon: 121.47 })
  sn = d.device_sn
  const link = await deviceLink(t, sn)
  await link.send(
    link.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 86_400 }),
    link.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }),
  )
  await f.classroom(admin)
  me = await testIntegrator(t, agency.id)
})
afterAll(() => t?.close())

const counts = () => recordCounts(t)

// Arbitraries

/** Text a query value may hold: digits, signs, exponents, ISO times, CJK, emoji, NUL, RTL, '%', '&', '='. */
const CHARS = [...'0123456789-+.eE:TZ ,abcxyz_/%&=#?', '中', '🚑', '\u0000', '\u202e', '\ud800', '\t']
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 }),
  fc.constantFrom(
    '',
    '91',
    '-90.0000001',
    '1e400',
    '-0',
    'NaN',
    'Infinity',
    '0x10',
    '5001',
    '51',
    'wgs84',
    'gcj02',
    'bd09',
    '2026-11-23T10:00:00+08:00',
    '2026-02-30T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '1',
    '500',
    '501',
    'true',
    '[]',
    '{}',
  ),
  fc.double().map(String),
  fc.integer().map(String),
)

/** Percent-encoded; a lone surrogate (no UTF-8 of its own) as the bytes of its WTF-8, which no decoder takes. */
const enc = (s: string) =>
  s
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('')

/** A query value as sent: percent-encoded, or raw with a broken escape. */
const sent = fc.oneof(
  { weight: 4, arbitrary: text.map(enc) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4', '%00', '+', '%2B', '%FF') },
)

const KEYS = [
  'lat',
  'lon',
  'radius',
  'limit',
  'coord',
  'changed_since',
  'page',
  'page_size',
  'category',
  'sn',
  '__proto__',
  'constructor',
  '',
]
const query = fc.array(fc.tuple(fc.constantFrom(...KEYS), sent), { maxLength: 8 })

/** A path parameter: the real serial, one of nobody, or anything. */
const snParam = fc.oneof(
  fc.constant('REAL'),
  fc.constantFrom('A64NOSUCH99', '..', '%2e%2e', 'a'.repeat(65), 'x%2Fy', '%00', 'nearby', 'status'),
  text.filter((s) => s.length > 0).map(enc),
)

/** What is done to the headers: nothing, an extra one, or one of the signature's broken. */
const PRINTABLE = fc.string({
  unit: fc.constantFrom(...'abcXYZ019 -_=/+.;,:'),
  maxLength: 40,
})
const tamper = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      name: fc.constantFrom(
        'accept-language',
        'content-type',
        'x-aed-content-sha256',
        'x-forwarded-host',
        'x-forwarded-proto',
        'cookie',
        'authorization',
      ),
      value: PRINTABLE,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('broken' as const),
      name: fc.constantFrom('x-aed-key', 'x-aed-timestamp', 'x-aed-nonce', 'x-aed-signature'),
      value: fc.option(PRINTABLE, { nil: undefined }),
    }),
  },
)

const ROUTES = [...Object.values(openApi).map((e) => e.path), '/open-api/docs']

describe('the open API under arbitrary input', () => {
  it('answers every request without a 5xx and writes nothing', async () => {
    const before = await counts()
    // How the runs were answered by envelope code: the generator must reach the handlers too.
    const answered = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        snParam,
        query,
        tamper,
        fc.constantFrom('GET', 'GET', 'GET', 'POST', 'DELETE'),
        async (path, param, q, change, method) => {
          const p = path.replace(':sn', param === 'REAL' ? sn : param)
          const qs = q.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')
          const target = qs ? `${p}?${qs}` : p
          const headers: Record<string, string> = signOpenApiRequest(me.token, me.secret, {
            method,
            target,
            timestamp: Math.floor(t.ctx.clock.now().getTime() / 1000),
          })
          if (change?.kind === 'extra') headers[change.name] = change.value
          if (change?.kind === 'broken') {
            if (change.value === undefined) delete headers[change.name]
            else headers[change.name] = change.value
          }
          const res = await t.app.inject({ method, url: target, headers })
          expect(res.statusCode, `${method} ${target}: ${res.body.slice(0, 300)}`).toBeLessThan(500)
          if (path !== '/open-api/docs' || res.statusCode !== 200) {
            const body = res.json() as { code?: unknown; msg?: unknown }
            expect(typeof body.code, `${method} ${target}: ${res.body.slice(0, 300)}`).toBe('number')
            expect(typeof body.msg).toBe('string')
            answered.set(body.code as number, (answered.get(body.code as number) ?? 0) + 1)
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
    expect(await counts()).toEqual(before)
    // Answered (0), refused as bad input (1), not found (2), and refused by the signature check (-1).
    for (const code of [0, 1, 2, -1]) expect(answered.get(code), `code ${code}`).toBeGreaterThan(5)
  })
})
