import http from 'node:http'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { signDeviceRequest } from '../../plugins/auth/device.ts'
import { type deviceLink, deviceTestApp } from '../../test/device-link.ts'
import type { TestApp } from '../../test/harness.ts'

// The HTTPS gateway over a real socket, as a device's HTTP stack meets it: a body over the
// request limit is answered HTTP 413 in the envelope, whatever its size, never a reset.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
let t: TestApp
let d: Awaited<ReturnType<typeof deviceLink>>
let port = 0

beforeAll(async () => {
  const env = await deviceTestApp(clock)
  t = env.t
  d = await env.registered()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as { port: number }).port
})
afterAll(async () => {
  t.app.server.closeAllConnections()
  await t.close()
})

/** POSTs a signed body, with a Content-Length or chunked; answers the status and body, or the socket error. */
function post(body: Buffer, chunked: boolean): Promise<string> {
  const path = '/device-api/v1/messages'
  const headers = signDeviceRequest(d.sn, d.secret, { method: 'POST', path, body, ts: clock.now().getTime() })
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: {
          ...headers,
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': body.length }),
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () => resolve(`${res.statusCode} ${text}`))
      },
    )
    req.on('error', (e) => resolve(`error ${e.message}`))
    if (chunked) {
      for (let i = 0; i < body.length; i += 1 << 20) req.write(body.subarray(i, i + (1 << 20)))
      req.end()
    } else req.end(body)
  })
}

const TOO_LARGE = '413 {"code":1,"msg":"请求体不能超过1048576字节","data":null}'

it('answers HTTP 413 in the envelope for bodies of 2, 10 and 30 MB, announced or chunked', async () => {
  for (const mb of [2, 10, 30]) {
    const body = Buffer.alloc(mb * 1024 * 1024, 0x20)
    expect(await post(body, false), `${mb} MB`).toBe(TOO_LARGE)
    expect(await post(body, true), `${mb} MB chunked`).toBe(TOO_LARGE)
  }
  expect(await many(t.db, sql`SELECT id FROM device_inbox WHERE sender_id = ${d.id}`)).toEqual([])
})

it('still takes a body just under the limit on the same server', async () => {
  const m = d.msg('heartbeat', { battery: 77, pad: 'z'.repeat(60_000) })
  const batch = Array.from({ length: 16 }, (_, i) => ({ ...m, id: `${m.id}-${i}`, seq: m.seq + i }))
  const body = Buffer.from(JSON.stringify(batch))
  expect(body.length).toBeLessThan(1024 * 1024)
  const answer = await post(body, false)
  expect(answer.startsWith('200 {"code":0')).toBe(true)
  expect(JSON.parse(answer.slice(4)).data.acked).toHaveLength(16)
})
