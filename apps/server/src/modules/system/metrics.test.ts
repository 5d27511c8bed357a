import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile, keptFailure } from '../../test/device-link.ts'
import { createTestApp } from '../../test/harness.ts'
// main.ts starts the webhook sender, whose module defines the webhook metrics; the app alone does not load it.
import '../webhook/webhook.sender.ts'

// GET /metrics on prom-client: every aed_ metric listed from the start, and each moving when
// what it counts happens.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

async function scrape(app = env.t.app) {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  expect(res.statusCode).toBe(200)
  return res.body
}

/** One series' value in the exposition text (null when the series is not there). */
function value(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : null
}

const NAMES = [
  'aed_device_messages_in_total',
  'aed_inbox_lag_seconds',
  'aed_engine_apply_seconds',
  'aed_engine_apply_failures_total',
  'aed_engine_messages_dead_total',
  'aed_outbox_backlog',
  'aed_outbox_oldest_age_seconds',
  'aed_webhook_attempts_failed_total',
  'aed_webhook_deliveries_sent_total',
  'aed_webhook_lag_seconds',
  'aed_sms_failures_total',
  'aed_sms_sent_total',
  'aed_live_sockets',
  'aed_live_pushes_sent_total',
  'aed_nodejs_eventloop_lag_seconds',
  'aed_db_pool_waiting',
  'aed_db_pool_connections',
]

describe('GET /metrics', () => {
  it('lists every aed_ metric from the start, their series at 0 before anything happened', async () => {
    const text = await scrape()
    for (const name of NAMES) expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'))
    expect(value(text, 'aed_device_messages_in_total{transport="mqtt"}')).toBe(0)
    expect(value(text, 'aed_sms_failures_total{final="true"}')).toBe(0)
    expect(value(text, 'aed_live_sockets')).toBe(0)
    // PGlite has no pool: nothing waits.
    expect(value(text, 'aed_db_pool_waiting{pool="main"}')).toBe(0)
    expect(value(text, 'aed_outbox_backlog{topic="webhook"}')).toEqual(expect.any(Number))
  })

  it('counts a device message over HTTPS and times its application', async () => {
    const d = await env.registered()
    const before = await scrape()
    await d.send(d.msg('heartbeat', { battery: 80 }), d.msg('heartbeat', { battery: 79 }))
    const after = await scrape()
    const https = 'aed_device_messages_in_total{transport="https"}'
    expect(value(after, https)).toBe((value(before, https) ?? 0) + 2)
    expect(value(after, 'aed_device_messages_in_total{transport="mqtt"}')).toBe(0)
    const applied = 'aed_engine_apply_seconds_count{sender_kind="aed"}'
    expect(value(after, applied)).toBeGreaterThan(value(before, applied) ?? 0)
  })

  it('reads the inbox lag and the outbox backlog per topic at each scrape', async () => {
    const d = await env.registered()
    await keptFailure(env.t, d, 'E04')
    clock.advance(45_000)
    let text = await scrape()
    expect(value(text, 'aed_inbox_lag_seconds')).toBeGreaterThanOrEqual(45)

    const key = `metrics-test:${Date.now()}`
    const created = new Date(clock.now().getTime() - 120_000)
    const backlog = 'aed_outbox_backlog{topic="dispatch"}'
    const before = value(text, backlog) ?? 0
    await env.t.db.execute(
      sql`INSERT INTO outbox (topic, dedupe_key, payload, create_time, available_at)
          VALUES ('dispatch', ${key}, '{}'::jsonb, ${created}, ${new Date(clock.now().getTime() + 3_600_000)})`,
    )
    try {
      text = await scrape()
      expect(value(text, backlog)).toBe(before + 1)
      expect(value(text, 'aed_outbox_oldest_age_seconds{topic="dispatch"}')).toBeGreaterThanOrEqual(120)
    } finally {
      await env.t.db.execute(sql`DELETE FROM outbox WHERE dedupe_key = ${key}`)
    }
    expect(value(await scrape(), backlog)).toBe(before)
  })

  it('keeps a second app in the same process apart: no "already registered", its own counts', async () => {
    const other = await createTestApp()
    try {
      const text = await scrape(other.app)
      expect(value(text, 'aed_device_messages_in_total{transport="https"}')).toBe(0)
      expect(value(await scrape(), 'aed_device_messages_in_total{transport="https"}')).toBeGreaterThan(0)
    } finally {
      await other.close()
    }
  })
})
