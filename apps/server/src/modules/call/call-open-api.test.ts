import { Code } from '@aed/contracts'
import { callApi } from '@aed/contracts/call'
import type { OpenCall } from '@aed/contracts/open-api'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { testIntegrator } from '../../test/open-api.ts'
import { toGcj02 } from '../engine/gcj02.ts'

// Calls from integrators (the 120 centre, an SOS button): signed, scoped to the configuration's
// organisation, once per external_id however often it is sent, closed by their sender.
const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ t, agent, branch }) => ({
  integrator: await testIntegrator(t, branch.id, ['open_api']),
  pushOnly: await testIntegrator(t, agent.id, ['event_push']),
}))

const body = (over: Record<string, unknown> = {}) => ({
  phone: '13812340000',
  lat: 30.2741,
  lon: 120.1318,
  location: '文三路120号',
  external_id: `120-${Math.random().toString(36).slice(2)}`,
  ...over,
})

const count = async (externalId: string) =>
  (
    await one<{ n: number }>(
      env.t.db,
      sql`SELECT count(*) AS n FROM call_events WHERE external_id = ${externalId}`,
    )
  )?.n

describe('the open API’s call intake', () => {
  it('records a call once per external_id, answering the same id, with one message', async () => {
    const b = body()
    const first = await env.integrator.send<{ id: number; created: boolean }>(
      'POST',
      '/open-api/v1/call-event/',
      b,
    )
    expect([first.status, first.code, first.data.created]).toEqual([200, 0, true])
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        env.integrator.send<{ id: number; created: boolean }>('POST', '/open-api/v1/call-event/', b),
      ),
    )
    expect(answers.map((a) => [a.data.id, a.data.created])).toEqual(answers.map(() => [first.data.id, false]))
    expect(await count(b.external_id)).toBe(1)
    const messages = await one<{ n: number }>(
      env.t.db,
      sql`SELECT count(*) AS n FROM messages WHERE msg_type = 1 AND event_id = ${first.data.id}`,
    )
    expect(messages?.n).toBe(1)
    // The branch's admin sees it, recorded by the configuration's organisation.
    const detail = await env.t.api(callApi.detail, { token: env.admin, params: { id: first.data.id } })
    expect(detail.data).toMatchObject({ source: 'open_api', recorder: env.branch.name, phone: '13812340000' })
  })

  it('stores a WGS-84 place as GCJ-02', async () => {
    const b = body({ coord: 'wgs84', lat: 30.27, lon: 120.12 })
    const r = await env.integrator.send<{ id: number }>('POST', '/open-api/v1/call-event/', b)
    const row = await one<{ lat: number; lon: number }>(
      env.t.db,
      sql`SELECT lat, lon FROM call_events WHERE id = ${r.data.id}`,
    )
    const g = toGcj02(30.27, 120.12)
    expect(row?.lat).toBeCloseTo(g.lat, 9)
    expect(row?.lon).toBeCloseTo(g.lon, 9)
  })

  it('refuses bad input with a clear message and writes nothing; a configuration without open_api is refused', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: 'abc' }, '请输入正确的呼救电话（手机或带区号的固话）'],
      [{ lat: 0, lon: 0 }, '呼救位置不在中国境内'],
      [{ external_id: 'has space' }, 'external_id须为1-64位字母、数字或_.:-'],
      [{ call_time: new Date(clock.now().getTime() + 3600_000).toISOString() }, '呼救时间不能晚于当前时间'],
    ]
    for (const [over, msg] of cases) {
      const b = body(over)
      const r = await env.integrator.send('POST', '/open-api/v1/call-event/', b)
      expect([r.code, r.msg]).toEqual([Code.INVALID, msg])
      expect(await count(String(b.external_id))).toBe(0)
    }
    const refused = await env.pushOnly.send('POST', '/open-api/v1/call-event/', body())
    expect([refused.status, refused.code]).toEqual([403, Code.FORBIDDEN])
  })

  it('lets the integrator close its own call by external_id, and no other', async () => {
    const b = body()
    await env.integrator.send('POST', '/open-api/v1/call-event/', b)
    const closed = await env.integrator.send<OpenCall>('PUT', `/open-api/v1/call-event/${b.external_id}`, {
      outcome: 'no_aed_needed',
    })
    expect(closed.data).toMatchObject({ external_id: b.external_id, status: 0, outcome: 'no_aed_needed' })
    const again = await env.integrator.send('PUT', `/open-api/v1/call-event/${b.external_id}`, {
      outcome: 'cancelled',
    })
    expect(again.msg).toBe('该呼救事件已结束')
    const unknown = await env.pushOnly.send('PUT', `/open-api/v1/call-event/${b.external_id}`, {
      outcome: 'cancelled',
    })
    expect(unknown.code).toBe(Code.FORBIDDEN)
    const webhook = await one<{ n: number }>(
      env.t.db,
      sql`SELECT count(*) AS n FROM outbox WHERE dedupe_key LIKE 'webhook:call:%:closed'`,
    )
    expect(webhook?.n).toBeGreaterThan(0)
  })
})
