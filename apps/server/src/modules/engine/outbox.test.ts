import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { LIVE_PUSH_CHANNEL } from '../live/live.service.ts'
import { backoffMs, drainOutbox, type OutboxHandler } from './outbox.ts'

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ t }) => {
  // These tests drain by hand.
  t.ctx.drainOnCommit = false
  return {}
})

it('live rows become stored pushes announced on the event bus once, at commit, and are marked done', async () => {
  type Push = { id: number; data_type: number; data: { device_id: number; status: number } }
  const heard: Push[] = []
  let deviceId = 0
  let arrived: () => void = () => {}
  const first = new Promise<void>((r) => {
    arrived = r
  })
  const off = await env.t.ctx.events.subscribe<Push>(LIVE_PUSH_CHANNEL, (p) => {
    heard.push(p)
    if (p.data_type === 11 && p.data?.device_id === deviceId) arrived()
  })
  const d = await env.registered()
  deviceId = d.id
  await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
  expect(await drainOutbox(env.t.ctx)).toBeGreaterThan(0)
  expect(await drainOutbox(env.t.ctx)).toBe(0)
  // NOTIFY is delivered after the commit, asynchronously; the second drain found nothing, so
  // nothing more can come.
  await first
  const mine = heard.filter((h) => h.data?.device_id === d.id)
  // The status push, and the fault's event opened (frame 16) beside it.
  expect(mine.map((h) => [h.data_type, h.data.status])).toEqual([
    [16, undefined],
    [11, 2],
  ])
  const events = await many<{ n: number }>(
    env.t.db,
    sql`SELECT count(*)::int AS n FROM live_pushes WHERE data_type = 16 AND (data->>'device_id')::int = ${d.id}`,
  )
  expect(events).toEqual([{ n: 1 }])
  const stored = await many<{ data_type: number }>(
    env.t.db,
    sql`SELECT data_type FROM live_pushes WHERE id = ${mine[1].id}`,
  )
  expect(stored).toEqual([{ data_type: 11 }])
  const rows = await many<{ done: number }>(
    env.t.db,
    sql`SELECT count(*)::int AS done FROM outbox WHERE topic = 'live' AND done_at IS NULL
        AND payload->>'device_id' = ${String(d.id)}`,
  )
  expect(rows).toEqual([{ done: 0 }])
  await off()
})

it('a failing handler is retried with backoff and delivered once it works', async () => {
  const d = await env.registered()
  await d.send(
    d.msg('usage', { rescue_event_id: 'R1', event_time: clock.now().getTime(), event_desc: 'power_on' }),
  )
  let fail = true
  const seen: number[] = []
  const sms: OutboxHandler = async (_ctx, _tx, row) => {
    if (fail) throw new Error('vendor down')
    seen.push(row.id)
  }
  expect(await drainOutbox(env.t.ctx, { sms })).toBe(0)
  const [row] = await many<{ id: number; attempts: number; last_error: string; available_at: Date }>(
    env.t.db,
    sql`SELECT id, attempts, last_error, available_at FROM outbox WHERE topic = 'sms' AND done_at IS NULL
        AND payload->>'device_id' = ${String(d.id)}`,
  )
  expect(row).toMatchObject({ attempts: 1, last_error: 'vendor down' })
  expect(row.available_at.getTime()).toBe(clock.now().getTime() + backoffMs(1))
  fail = false
  expect(await drainOutbox(env.t.ctx, { sms })).toBe(0) // not due yet
  clock.advance(backoffMs(1))
  await drainOutbox(env.t.ctx, { sms })
  await drainOutbox(env.t.ctx, { sms })
  expect(seen.filter((id) => id === row.id)).toEqual([row.id])
})
