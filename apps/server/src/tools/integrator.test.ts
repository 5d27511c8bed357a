import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { eq } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../db/schema.ts'
import { deviceLink } from '../test/device-link.ts'
import { factories } from '../test/factories.ts'
import { createTestApp, demo, type TestApp } from '../test/harness.ts'
import { runCli } from './integrator/cli.ts'
import { asSent, callOpenApi, requestOf, signWithTrace } from './integrator/client.ts'
import { formatDelivery, judge, startReceiver, summarize } from './integrator/receiver.ts'

// The command-line client against the real app listening on a random port: its signed calls
// pass the integrator guard, a wrong secret is refused as signature_mismatch; its receiver
// verifies a Standard Webhooks delivery and refuses a tampered one. The open API's read routes
// are another module's: two routes registered here answer who called and what was posted.

let t: TestApp
let url: string
let key: string
let secret: string
let westLakeId: number

beforeAll(async () => {
  t = await createTestApp()
  // In the envelope every answer has: code 0, msg, data.
  const who = (req: FastifyRequest) => ({
    code: 0,
    msg: '',
    data: { agency_id: req.integrator?.agency_id ?? null, query: req.query, body: req.body ?? null },
  })
  t.app.get('/open-api/v1/test/integrator', async (req) => who(req))
  t.app.post('/open-api/v1/test/integrator', async (req) => who(req))
  const token = await t.login(demo.superAdmin)
  const [westLake] = await t.db.select().from(agencies).where(eq(agencies.name, '杭州市西湖区急救中心'))
  westLakeId = westLake.id
  // As an administrator of the system organisation creates it in 系统管理 → 机构服务配置.
  const created = await t.call<ServiceConfig>('POST', '/api/v1/agency/app-service/config', {
    token,
    body: { agency_id: westLakeId, service: ['open_api'], state: 1 },
  })
  expect(created.code).toBe(0)
  key = created.data.access_token!
  secret = created.data.secret!
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(() => t.close())

/** Runs the tool's command line, collecting what it prints. */
async function cli(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, env, { out: (s) => out.push(s), err: (s) => err.push(s) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('signed calls', () => {
  it('pass the guard, with a query the server reads as sent', async () => {
    const a = await callOpenApi(
      { url, key, secret },
      { method: 'GET', target: '/open-api/v1/test/integrator?b=2&a=x%20y&t=2026-11-26T08:00:00%2B08:00' },
    )
    expect(a.status).toBe(200)
    expect(a.json?.data).toEqual({
      agency_id: westLakeId,
      query: { a: 'x y', b: '2', t: '2026-11-26T08:00:00+08:00' },
      body: null,
    })
  })

  it('sign a POST body', async () => {
    const body = JSON.stringify({ sn: 'AED20260001', note: '巡检' })
    const a = await callOpenApi(
      { url, key, secret },
      { method: 'POST', target: '/open-api/v1/test/integrator', body },
    )
    expect(a.status).toBe(200)
    expect(a.json?.data).toMatchObject({ agency_id: westLakeId, body: { sn: 'AED20260001', note: '巡检' } })
  })

  it('with a wrong secret are refused as signature_mismatch, the server telling the string it signed', async () => {
    const a = await callOpenApi(
      { url, key, secret: `${secret}x` },
      { method: 'GET', target: '/open-api/v1/test/integrator?z=1' },
    )
    expect(a.status).toBe(401)
    expect(a.json).toMatchObject({ code: -1, data: { error: 'signature_mismatch' } })
    expect((a.json!.data as { string_to_sign: string }).string_to_sign).toBe(a.trace.stringToSign)
  })

  it('from the command line: exit 0 on code 0, 1 on a refusal; --verbose prints the signing', async () => {
    const ok = await cli(['--url', url, '--verbose', 'get', '/open-api/v1/test/integrator?lat=30.27'], {
      AED_KEY: key,
      AED_SECRET: secret,
    })
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.out)).toMatchObject({
      code: 0,
      data: { agency_id: westLakeId, query: { lat: '30.27' } },
    })
    expect(ok.err).toContain('string to sign:')
    expect(ok.err).toContain('  /open-api/v1/test/integrator\\n')
    expect(ok.err).toContain(`X-AED-Key: ${key}`)

    const bad = await cli([
      '--url',
      url,
      '--key',
      key,
      '--secret',
      'wrong-secret',
      'get',
      '/open-api/v1/test/integrator',
    ])
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.out)).toMatchObject({ code: -1, data: { error: 'signature_mismatch' } })
    expect(bad.err).toContain('the server signed the same string: the secret is wrong')

    const unknown = await cli([
      '--url',
      url,
      '--key',
      'k'.repeat(48),
      '--secret',
      secret,
      '--lang',
      'en',
      'status',
    ])
    expect(unknown.code).toBe(1)
    expect(JSON.parse(unknown.out)).toMatchObject({
      msg: 'Unknown X-AED-Key',
      data: { error: 'key_unknown' },
    })
  })

  it('exit 1 on an envelope code other than 0, on an HTTP error and on an answer that is not JSON', async () => {
    const answering = (status: number, text: string) =>
      runCli(
        ['--url', 'http://x', '--key', key, '--secret', secret, 'aed', 'AED20260001'],
        {},
        {
          out: () => {},
          err: () => {},
          fetch: async () => ({ status, headers: { get: () => null }, text: async () => text }),
        },
      )
    expect(await answering(200, '{"code":0,"msg":"","data":{}}')).toBe(0)
    expect(await answering(200, '{"code":2,"msg":"No such device","data":null}')).toBe(1)
    expect(await answering(500, '{"code":0,"msg":"","data":{}}')).toBe(1)
    expect(await answering(502, '<html>Bad gateway</html>')).toBe(1)
    const down = await cli(['--url', 'http://127.0.0.1:9', '--key', key, '--secret', secret, 'status'])
    expect(down.code).toBe(1)
  })

  it('need a key and a secret, and a known command', async () => {
    expect((await cli(['nearby', '30.27', '120.15'])).code).toBe(2)
    expect((await cli(['--key', key, '--secret', secret, 'fly'])).err).toContain('unknown command: fly')
    expect((await cli(['--key', key, '--secret', secret, 'post', '/x', '{no'])).err).toContain('not JSON')
  })
})

describe('the named commands against the open API', () => {
  const run = (...words: string[]) => cli(['--url', url, '--key', key, '--secret', secret, ...words])
  const json = (r: { out: string }) => JSON.parse(r.out) as { code: number; data: Record<string, unknown> }
  let sn: string

  beforeAll(async () => {
    // An AED of the organisation by the West Lake, made ready by its own hello and passed self-test.
    const [westLake] = await t.db.select().from(agencies).where(eq(agencies.id, westLakeId))
    const d = await factories(t).registeredDevice(await t.login(demo.superAdmin), westLake, {
      lat: 30.2741,
      lon: 120.1307,
    })
    sn = d.device_sn
    const link = await deviceLink(t, sn)
    await link.send(
      link.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 86_400 }),
      link.msg('selftest', { report_type: 0, result: 'pass' }),
    )
  })

  it('nearby finds it, with its distance', async () => {
    const r = await run('nearby', '30.27', '120.15', '--radius', '5000', '--limit', '50')
    expect(r.code).toBe(0)
    const found = (json(r).data.resource as { sn: string; distance: number; readiness: string }[]).find(
      (a) => a.sn === sn,
    )
    expect(found).toMatchObject({ readiness: 'ready', distance: expect.any(Number) })
  })

  it('aed, status and events answer it; a time with an offset is sent as %2B', async () => {
    const aed = await run('aed', sn, '--coord', 'wgs84')
    expect(aed.code).toBe(0)
    expect(json(aed).data).toMatchObject({ sn, agency_id: westLakeId, coord: 'wgs84' })

    const status = await run('status', '--since', '2020-01-01T08:00:00+08:00', '--page-size', '500')
    expect(status.code).toBe(0)
    expect((json(status).data.resource as { sn: string }[]).map((a) => a.sn)).toContain(sn)

    const events = await run('events', '--since', '2020-01-01T08:00:00+08:00', '--page-size', '5')
    expect(events.code).toBe(0)
    expect(json(events).data).toMatchObject({ count: expect.any(Number), resource: expect.any(Array) })
  })

  it('bad input, an unknown serial and a missing service exit 1', async () => {
    const far = await run('nearby', '30.27', '120.15', '--radius', '5001')
    expect([far.code, json(far).code]).toEqual([1, 1])
    const unknown = await run('aed', 'NOPE0000')
    expect([unknown.code, json(unknown).code]).toEqual([1, 2])
    // The configuration has open_api only; the classroom needs mini_program.
    const classroom = await run('--verbose', 'classroom')
    expect(classroom.code).toBe(1)
    expect(json(classroom).data).toEqual({ error: 'service_denied' })
    expect(classroom.err).toContain('< HTTP 403')
  })
})

describe("docs/open-api.md's curl and openssl block", () => {
  const shellOk = spawnSync('bash', ['-c', 'command -v openssl && command -v curl']).status === 0
  it.skipIf(!shellOk)('signs a call the guard accepts', async () => {
    const doc = fs.readFileSync(
      fileURLToPath(new URL('../../../../docs/open-api.md', import.meta.url)),
      'utf8',
    )
    const section = doc.slice(doc.indexOf('## 4. Trying it'))
    const block = /```sh\n(AED_URL=[^\n]*)\n([\s\S]*?)\n```/.exec(section)
    if (!block) throw new Error('docs/open-api.md: section 4 has no curl block')
    // Its first line names the server and credentials; here the test app's.
    const script = [`AED_URL=${url} KEY='${key}' SECRET='${secret}'`, block[2]].join('\n')
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn('bash', ['-c', script])
      let out = ''
      p.stdout.on('data', (c) => {
        out += c
      })
      p.on('close', (code) => resolve({ code, out }))
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ code: 0, data: { resource: expect.any(Array) } })
  })
})

describe('the commands', () => {
  it('build the open API targets, percent-encoded', () => {
    expect(requestOf(['nearby', '30.27', '120.15'], { radius: '2000', coord: 'wgs84' }).target).toBe(
      '/open-api/v1/aed/nearby?lat=30.27&lon=120.15&radius=2000&coord=wgs84',
    )
    expect(requestOf(['aed', 'AED 1']).target).toBe('/open-api/v1/aed/AED%201')
    expect(requestOf(['status'], { since: '2026-11-26T08:00:00+08:00' }).target).toBe(
      '/open-api/v1/aed/status?changed_since=2026-11-26T08%3A00%3A00%2B08%3A00',
    )
    expect(requestOf(['events'], { 'page-size': '500' }).target).toBe('/open-api/v1/event/?page_size=500')
    expect(requestOf(['classroom']).target).toBe('/open-api/v1/classroom/')
    expect(requestOf(['post', '/open-api/v1/x', '{"a":1}'])).toEqual({
      method: 'POST',
      target: '/open-api/v1/x',
      body: '{"a":1}',
    })
  })

  it('sign the target as it goes out', async () => {
    expect(asSent('/open-api/v1/aed/status?page_size=1#top')).toBe('/open-api/v1/aed/status?page_size=1')
    expect(asSent('/open-api/v1/x/../aed/a b?q=西湖 1')).toBe(
      '/open-api/v1/aed/a%20b?q=%E8%A5%BF%E6%B9%96%201',
    )
    const a = await callOpenApi(
      { url, key, secret },
      { method: 'GET', target: '/open-api/v1/test/../test/integrator?q=西湖 1#top' },
    )
    expect(a.status).toBe(200)
    expect(a.json?.data).toMatchObject({ query: { q: '西湖 1' } })
  })

  it('trace what signOpenApiRequest signs', () => {
    const tr = signWithTrace(
      { key, secret },
      { method: 'GET', target: '/p?b=1&a=2' },
      { timestamp: 1, nonce: 'n'.repeat(16) },
    )
    expect(tr.canonicalQuery).toBe('a=2&b=1')
    expect(tr.stringToSign).toBe(`GET\n/p\na=2&b=1\n1\n${'n'.repeat(16)}\n${tr.bodySha256}`)
  })
})

describe('the webhook receiver', () => {
  const whsec = `whsec_${Buffer.from('a test webhook secret 24b').toString('base64')}`
  const payload = JSON.stringify({
    type: 'device.event.opened',
    timestamp: new Date().toISOString(),
    data: { id: 7, kind: 'fault', code: 'E03', sn: 'AED20260001', state: 'open' },
  })
  const signed = (body: string, id = 'msg_2kXyTest') => {
    const at = new Date()
    return {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(whsec).sign(id, at, body),
    }
  }
  let server: http.Server
  let port: number
  const lines: string[] = []

  beforeAll(async () => {
    ;({ server, port } = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      secret: whsec,
      log: (l) => lines.push(l),
    }))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const post = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/webhook`, { method: 'POST', body, headers })

  it('verifies a delivery signed by standardwebhooks and answers 204, one line printed', async () => {
    const res = await post(payload, signed(payload))
    expect(res.status).toBe(204)
    expect(lines.at(-1)).toMatch(
      /^\d{4}-\d\d-\d\dT.*Z {2}msg_2kXyTest {2}device\.event\.opened {2}verified=yes {2}→ 204 {2}sn=AED20260001 kind=fault code=E03 state=open id=7$/,
    )
  })

  it('refuses a tampered body, a wrong secret and a missing signature with 401', async () => {
    const headers = signed(payload)
    expect((await post(payload.replace('E03', 'E04'), headers)).status).toBe(401)
    expect(lines.at(-1)).toContain('verified=no (No matching signature found)')
    const other = `whsec_${Buffer.from('another secret').toString('base64')}`
    const forged = {
      ...headers,
      'webhook-signature': new Webhook(other).sign('msg_2kXyTest', new Date(), payload),
    }
    expect((await post(payload, forged)).status).toBe(401)
    const { 'webhook-signature': _, ...unsigned } = headers
    expect((await post(payload, unsigned)).status).toBe(401)
    expect(lines.at(-1)).toContain('verified=no (Missing required headers)')
  })

  it('answers --fail-with to verified deliveries, with Retry-After for 429 and 503', async () => {
    const failing = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      secret: whsec,
      failWith: 503,
      retryAfter: 30,
      log: () => {},
    })
    try {
      const res = await fetch(`http://127.0.0.1:${failing.port}/`, {
        method: 'POST',
        body: payload,
        headers: signed(payload),
      })
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('30')
    } finally {
      failing.server.close()
    }
  })

  it('summarizes each event type by what it names', () => {
    const at = new Date()
    const status = {
      type: 'device.status.changed',
      data: { aed: { sn: 'A1', readiness: 'not_ready', status: 1 } },
    }
    expect(summarize(status)).toBe('sn=A1 readiness=not_ready status=1')
    expect(summarize({ type: 'cabinet.door.alarm', data: { id: 3, cabinet_sn: 'CAB1', sn: null } })).toBe(
      'cabinet=CAB1 id=3',
    )
    const test = {
      type: 'webhook.test',
      data: { config_id: 1, agency_id: 4, message: 'AED Cloud test event' },
    }
    expect(summarize(test)).toBe('message=AED Cloud test event')
    const d = judge(Buffer.from(payload), {}, {}, at)
    expect(formatDelivery(d)).toContain('-  device.event.opened  verified=skipped  → 204')
  })
})
