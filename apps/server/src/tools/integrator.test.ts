import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { eq, inArray } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies, thirdPartyAeds, volunteers } from '../db/schema.ts'
import { deviceLink } from '../test/device-link.ts'
import { factories } from '../test/factories.ts'
import { createTestApp, demo, type TestApp } from '../test/harness.ts'
import { testIntegrator } from '../test/open-api.ts'
import { joinOptionValues, runCli } from './integrator/cli.ts'
import { asSent, callOpenApi, requestOf, signWithTrace } from './integrator/client.ts'
import { formatDelivery, judge, startReceiver, summarize } from './integrator/receiver.ts'
import { uploadRequest } from './integrator/upload.ts'

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

describe('submissions (mini_program)', () => {
  /** A 1×1 PNG. */
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  )
  let mini: { url: string; key: string; secret: string }
  let dir: string
  let site: string
  const run = (...words: string[]) =>
    cli(['--url', url, '--key', mini.key, '--secret', mini.secret, ...words])
  const json = (r: { out: string }) =>
    JSON.parse(r.out) as { code: number; msg: string; data: Record<string, unknown> }
  const uploadedUrls = (err: string) => [...err.matchAll(/^uploaded \S+: (\S+)$/gm)].map((m) => m[1])
  const aed = (phone: string, over: Record<string, unknown> = {}) =>
    JSON.stringify({
      brand: '飞利浦',
      location: '浙江省杭州市西湖区文三路90号东部软件园',
      location_desc: '一号楼大堂前台旁',
      lat: 30.2779,
      lon: 120.1312,
      submitter_name: '李提交',
      submitter_phone: phone,
      ...over,
    })

  beforeAll(async () => {
    // A mini-program's configuration (one per organisation: here the general agent's); the
    // open API's submissions need mini_program.
    const [agent] = await t.db.select().from(agencies).where(eq(agencies.name, '华东区域总代理'))
    const i = await testIntegrator(t, agent.id, ['mini_program'])
    mini = { url, key: i.token, secret: i.secret }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'integrator-'))
    site = path.join(dir, 'site.png')
    fs.writeFileSync(site, PNG)
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an image')
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('upload: signed over the exact multipart bytes, stored as sent; a byte changed on the way is refused', async () => {
    const request = uploadRequest({ filename: 'site.png', type: 'image/png', data: PNG })
    const body = request.body as Buffer
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=----AEDIntegrator[0-9a-f]{24}$/)
    expect(body.includes(PNG)).toBe(true)
    const a = await callOpenApi(mini, request)
    expect([a.status, a.json?.code]).toEqual([200, 0])
    expect(a.trace.bodySha256).toBe(crypto.createHash('sha256').update(body).digest('hex'))
    expect(a.trace.headers['content-type']).toBe(request.contentType)
    const accessUrl = (a.json!.data as { access_url: string }).access_url
    expect(accessUrl).toMatch(/\/files\/\S+\.png$/)
    const stored = await fetch(new URL(accessUrl, url))
    expect(Buffer.from(await stored.arrayBuffer()).equals(PNG)).toBe(true)

    // A proxy that changes one byte of the image: the hash no longer matches what arrived.
    const changed = await callOpenApi(mini, request, {
      fetch: (u, init) => {
        const sent = Buffer.from(init.body as Uint8Array)
        sent[sent.indexOf(PNG) + PNG.length - 1] ^= 1
        return fetch(u, { ...init, body: sent })
      },
    })
    expect([changed.status, changed.json?.data]).toMatchObject([400, { error: 'body_mismatch' }])
  })

  it('upload from the command line, --verbose tracing the bytes; a text file is refused with the server’s message', async () => {
    const r = await run('--verbose', 'upload', site)
    expect(r.code).toBe(0)
    expect(json(r).data).toMatchObject({ access_url: expect.stringMatching(/\.png$/), file_name: 'site.png' })
    expect(r.err).toContain('> POST /open-api/v1/file/')
    expect(r.err).toMatch(/^body: {12}\d+ bytes, hashed as sent$/m)
    expect(r.err).toContain('Content-Type: multipart/form-data; boundary=')
    expect(r.err).toContain('< HTTP 200')
    // Relative to where `npm run` was typed (INIT_CWD), not to apps/server.
    const rel = await cli(['--url', url, '--key', mini.key, '--secret', mini.secret, 'upload', 'site.png'], {
      INIT_CWD: dir,
    })
    expect(rel.code).toBe(0)
    const txt = await run('upload', path.join(dir, 'notes.txt'))
    expect(txt.code).toBe(1)
    expect(json(txt).msg).toBe('只能上传jpg/jpeg/png格式的图片！')
    expect((await run('upload')).code).toBe(2)
  })

  it('third-party-aed --image: uploads, then submits in one command; the same again with its URL answers the first', async () => {
    const phone = '13912340001'
    const r = await run('third-party-aed', aed(phone), '--image', site)
    expect(r.code).toBe(0)
    expect(json(r)).toMatchObject({ code: 0, msg: '提交成功！', data: { created: true, audit_status: 1 } })
    const [img] = uploadedUrls(r.err)
    expect(img).toMatch(/\/files\/\S+\.png$/)
    const [row] = await t.db
      .select()
      .from(thirdPartyAeds)
      .where(eq(thirdPartyAeds.id, json(r).data.id as number))
    expect(row).toMatchObject({
      submitter_phone: phone,
      install_imgs: [img],
      audit_status: 1,
      brand: '飞利浦',
    })

    // A retry names the uploaded image: the same submission, created false.
    const again = await run('third-party-aed', aed(phone, { install_imgs: [img] }))
    expect(json(again).data).toEqual({ id: row.id, created: false, audit_status: 1 })
    // --image uploads a new file each time: another submission, refused while the first is in review.
    const other = await run('third-party-aed', aed(phone), '--image', site)
    expect([other.code, json(other).msg]).toEqual([1, '该手机号已有审核中的申请，请等待审核结果'])
  })

  it('volunteer --image: the certificate uploaded and named, has_cert 1; --verbose traces both calls', async () => {
    const body = JSON.stringify({
      submitter_name: '王志愿',
      submitter_phone: '13912340002',
      guard_area: '杭州市西湖区文新街道',
      lat: 30.2856,
      lon: 120.1103,
    })
    const r = await run('--verbose', 'volunteer', body, '--image', site)
    expect(r.code).toBe(0)
    expect(json(r).data).toMatchObject({ created: true, audit_status: 1 })
    expect(r.err.match(/^> POST \S+$/gm)).toEqual([
      '> POST /open-api/v1/file/',
      '> POST /open-api/v1/volunteer/',
    ])
    const [cert] = uploadedUrls(r.err)
    const [row] = await t.db
      .select()
      .from(volunteers)
      .where(eq(volunteers.id, json(r).data.id as number))
    expect(row).toMatchObject({ has_cert: 1, cert_img: cert, guard_area: '杭州市西湖区文新街道' })
  })

  it('checks --image before uploading, and submits nothing when an upload is refused', async () => {
    const calls: string[] = []
    const counting = (words: string[]) =>
      runCli(
        ['--url', url, '--key', mini.key, '--secret', mini.secret, ...words],
        {},
        {
          out: () => {},
          err: () => {},
          fetch: (u, init) => {
            calls.push(u)
            return fetch(u, init as RequestInit)
          },
        },
      )
    expect(await counting(['nearby', '30.27', '120.15', '--image', site])).toBe(2)
    expect(
      await counting(['third-party-aed', aed('13912340003'), ...Array(3).fill(['--image', site]).flat()]),
    ).toBe(2)
    expect(
      await counting([
        'third-party-aed',
        aed('13912340003', { install_imgs: ['/files/a.png', '/files/b.png'] }),
        '--image',
        site,
      ]),
    ).toBe(2)
    expect(await counting(['volunteer', '{"has_cert":0}', '--image', site])).toBe(2)
    expect(await counting(['volunteer', '[1]', '--image', site])).toBe(2)
    expect(calls).toEqual([])

    const phone = '13912340004'
    const refused = await run('third-party-aed', aed(phone), '--image', path.join(dir, 'notes.txt'))
    expect(refused.code).toBe(1)
    expect(json(refused).msg).toBe('只能上传jpg/jpeg/png格式的图片！')
    expect(refused.err).toContain('notes.txt was not uploaded: nothing submitted')
    const rows = await t.db
      .select()
      .from(thirdPartyAeds)
      .where(inArray(thirdPartyAeds.submitter_phone, [phone]))
    expect(rows).toEqual([])
  })

  describe("docs/open-api.md's multipart examples", () => {
    const doc = () =>
      fs.readFileSync(fileURLToPath(new URL('../../../../docs/open-api.md', import.meta.url)), 'utf8')
    const section = () => {
      const d = doc()
      return d.slice(d.indexOf('### 5.8 Uploading an image'), d.indexOf('### 5.9 Volunteers'))
    }
    const shellOk = spawnSync('bash', ['-c', 'command -v openssl && command -v curl']).status === 0

    it.skipIf(!shellOk)('the curl and openssl block uploads an image the guard accepts', async () => {
      const block = /```sh\n(AED_URL=[^\n]*)\n([\s\S]*?)\n```/.exec(section())
      if (!block) throw new Error('docs/open-api.md: section 5.8 has no curl block')
      const script = [`AED_URL=${url} KEY='${mini.key}' SECRET='${mini.secret}' IMG=site.png`, block[2]].join(
        '\n',
      )
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const p = spawn('bash', ['-c', script], { cwd: dir })
        let out = ''
        p.stdout.on('data', (c) => {
          out += c
        })
        p.on('close', (code) => resolve({ code, out }))
      })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.out)).toMatchObject({ code: 0, data: { file_name: 'site.png', size: PNG.length } })
    })

    it('the Node.js upload, with the sign of 3.2, uploads an image the guard accepts', async () => {
      const block = (marker: string) => {
        const m = [...doc().matchAll(/```js\n([\s\S]*?)\n```/g)].find((b) => b[1].includes(marker))
        if (!m) throw new Error(`docs/open-api.md: no js block with ${marker}`)
        return m[1]
      }
      const file = path.join(dir, 'upload.mjs')
      fs.writeFileSync(
        file,
        [block('export function sign('), block('export async function upload(')].join('\n'),
      )
      const { upload } = (await import(file)) as {
        upload: (u: string, k: string, s: string, f: string) => Promise<{ code: number; data: unknown }>
      }
      const answer = await upload(url, mini.key, mini.secret, site)
      expect(answer).toMatchObject({ code: 0, data: { access_url: expect.stringMatching(/\.png$/) } })
    })
  })

  it('--dry-run shows the upload and the submission with the access_url to come', async () => {
    const r = await run(
      '--dry-run',
      '--timestamp',
      '1795672162',
      'volunteer',
      '{"submitter_name":"王"}',
      '--image',
      site,
    )
    expect(r.code).toBe(0)
    const [upload, submission] = r.err.split('\n\n')
    expect(upload).toMatch(/^> POST \/open-api\/v1\/file\/\n/)
    expect(submission).toMatch(/^> POST \/open-api\/v1\/volunteer\/\n/)
    expect(submission).toContain('X-AED-Timestamp: 1795672162')
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

describe('an option value that starts with a dash', () => {
  it('is taken as the value (access tokens are base64url: one in 64 starts with -)', () => {
    expect(
      joinOptionValues(['--key', '-Xy_z', '--secret', 'ab', '--verbose', 'nearby', '30', '120']),
    ).toEqual(['--key=-Xy_z', '--secret=ab', '--verbose', 'nearby', '30', '120'])
    // After --, nothing is an option; a value given with = stays as it is.
    expect(joinOptionValues(['--key=-a', '--', '--secret', 'x'])).toEqual(['--key=-a', '--', '--secret', 'x'])
  })

  it('signs a call with a key that starts with a dash', async () => {
    const r = await cli(['--url', url, '--key', '-notAKey', '--secret', 'x', 'nearby', '30.27', '120.15'])
    // The server's refusal of an unknown key, not the command line's usage error (2).
    expect(r.code, r.err).toBe(1)
    expect(r.err).not.toMatch(/ambiguous/)
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
    expect(requestOf(['volunteer', '{"a":1}'])).toEqual({
      method: 'POST',
      target: '/open-api/v1/volunteer/',
      body: '{"a":1}',
    })
    expect(requestOf(['third-party-aed', '{}']).target).toBe('/open-api/v1/third-party-aed/')
    expect(() => requestOf(['volunteer', '{no'])).toThrow('volunteer: the body is not JSON')
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
    const decided = {
      type: 'review.aed.decided',
      data: {
        kind: 'third_party',
        id: 9,
        submitter_name: '李提交',
        audit_status: 0,
        rejected_reason: '重复',
      },
    }
    expect(summarize(decided)).toBe('kind=third_party audit_status=0 id=9')
    const d = judge(Buffer.from(payload), {}, {}, at)
    expect(formatDelivery(d)).toContain('-  device.event.opened  verified=skipped  → 204')
  })
})
