import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { MsgType, messageApi } from '@aed/contracts/message'
import { sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { METRICS_CONTENT_TYPE } from '../../lib/metrics.ts'
import { breakDetections, deviceTestFile, keptFailure } from '../../test/device-link.ts'
import { createTestApp } from '../../test/harness.ts'
import { retryInbox } from './engine.service.ts'
import { drainOutbox } from './outbox.ts'
import { reportUnapplied } from './unapplied.ts'

// A stored device message the engine cannot apply is loud: an error line and a count on every
// attempt, and at the last one message (type 5) in the system organisation's message centre,
// seen by nobody below it.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ f }) => ({
  /** A token of a member of the system organisation (the root). */
  system: (await f.signedIn(await f.root())).token,
}))

/** A device of the branch whose failing self-test is stored as 'failed': the device and the inbox row. */
async function failedMessage() {
  const d = await env.registered()
  const m = await keptFailure(env.t, d, 'E04')
  const row = await one<{ id: number; outcome: string }>(
    env.t.db,
    sql`SELECT id, outcome FROM device_inbox WHERE sender_id = ${d.id} AND msg_id = ${m.id}`,
  )
  if (!row) throw new Error('the failed message was not kept')
  return { device: d, msgId: m.id, inboxId: row.id }
}

/** GET /metrics without a token: the status, content type and text. */
async function scrape(app = env.t.app) {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  return { status: res.statusCode, type: res.headers['content-type'], text: res.body }
}

/** One series' value in the exposition text (null when the series is not there). */
function seriesValue(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : null
}
const failures = (text: string, kind = 'aed') =>
  seriesValue(text, `aed_engine_apply_failures_total{sender_kind="${kind}"}`)
const dead = (text: string, kind = 'aed') =>
  seriesValue(text, `aed_engine_messages_dead_total{sender_kind="${kind}"}`)

/** The type-5 messages a member sees, for one stored message (or all of them). */
async function unappliedSeenBy(token: string, inboxId?: number) {
  const r = await env.t.api(messageApi.list, { token, query: { page: 1, page_size: 100 } })
  expect(r.code).toBe(0)
  return r.data.resource.filter(
    (m) =>
      m.msg_type === MsgType.DEVICE_MESSAGE_UNAPPLIED && (inboxId === undefined || m.event_id === inboxId),
  )
}

describe('GET /metrics', () => {
  it('answers the text format without a token, every counter listed from the start', async () => {
    const r = await scrape()
    expect(r.status).toBe(200)
    expect(r.type).toBe(METRICS_CONTENT_TYPE)
    expect(r.text).toContain('# TYPE aed_engine_apply_failures_total counter')
    expect(r.text).toContain('# TYPE aed_engine_messages_dead_total counter')
    expect(failures(r.text, 'cabinet')).toBe(0)
    expect(dead(r.text, 'cabinet')).toBe(0)
    // A member's token changes nothing: no guard on /metrics.
    const signed = await env.t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'JWT junk' },
    })
    expect(signed.statusCode).toBe(200)
    // Not in the OpenAPI document: it answers text, not the envelope.
    const doc = env.t.app.swagger() as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).not.toContain('/metrics')
  })

  it('is answered by the route, not by the console fallback, when the console is built', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-web-'))
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>console</title>')
    const withConsole = await createTestApp({ env: { WEB_DIST: web } })
    try {
      const r = await scrape(withConsole.app)
      expect(r.status).toBe(200)
      expect(r.type).toBe(METRICS_CONTENT_TYPE)
      expect(r.text).toContain('# TYPE aed_engine_apply_failures_total counter')
      // The fallback still serves the console elsewhere.
      const page = await withConsole.app.inject({ method: 'GET', url: '/watchBoard/dashboard' })
      expect(page.body).toContain('console')
    } finally {
      await withConsole.close()
      fs.rmSync(web, { recursive: true, force: true })
    }
  })
})

describe('reportUnapplied', () => {
  it('logs and counts every attempt; at the last one tells the system organisation once', async () => {
    const { device, msgId, inboxId } = await failedMessage()
    const before = (await scrape()).text
    const errors = vi.spyOn(env.t.ctx.log, 'error')
    try {
      const attempt = {
        inboxId,
        sender_kind: 'aed',
        sender_id: device.id,
        msg_id: msgId,
        type: 'selftest',
      } as const
      await reportUnapplied(env.t.ctx, { ...attempt, attempts: 2, dead: false, error: 'disk full' })

      // A failure with retries left: an error line naming the device, message, type, attempt and
      // error; counted; nothing in the message centre.
      expect(errors).toHaveBeenCalledTimes(1)
      const [fields, line] = errors.mock.calls[0] as unknown as [Record<string, unknown>, string]
      expect(fields).toMatchObject({
        inbox: inboxId,
        device: device.sn,
        msg_id: msgId,
        type: 'selftest',
        attempts: 2,
        dead: false,
      })
      for (const part of [device.sn, msgId, 'selftest', 'attempt 2', 'disk full'])
        expect(line).toContain(part)
      let now = (await scrape()).text
      expect(failures(now)).toBe((failures(before) ?? 0) + 1)
      // The series is there (at 0 from the start), and unchanged.
      expect(dead(now)).toEqual(expect.any(Number))
      expect(dead(now)).toBe(dead(before))
      expect(await unappliedSeenBy(env.system, inboxId)).toEqual([])

      // The last attempt: counted as a failure and as dead, and one message for the system organisation.
      await reportUnapplied(env.t.ctx, { ...attempt, attempts: 10, dead: true, error: 'disk full' })
      // Told twice (a second report of the same row): still one message.
      await reportUnapplied(env.t.ctx, { ...attempt, attempts: 10, dead: true, error: 'disk full' })
      await drainOutbox(env.t.ctx)
      expect(errors).toHaveBeenCalledTimes(3)
      expect(errors.mock.calls[1][1]).toContain('given up')
      now = (await scrape()).text
      expect(failures(now)).toBe((failures(before) ?? 0) + 3)
      expect(dead(now)).toBe((dead(before) ?? 0) + 2)

      const seen = await unappliedSeenBy(env.system, inboxId)
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({
        msg_type: 5,
        event_type: 5,
        event_id: inboxId,
        msg_title: `设备消息无法处理：设备 ${device.sn} 的消息 ${msgId}（selftest）`,
        device_sn: device.sn,
        cabinet_sn: null,
        is_confirm: 0,
      })
      const en = await env.t.api(messageApi.list, {
        token: env.system,
        query: { page: 1, page_size: 100 },
        lang: 'en-US',
      })
      expect(en.data.resource.find((m) => m.msg_type === 5 && m.event_id === inboxId)?.msg_title).toBe(
        `Device message not processed: selftest message ${msgId} of device ${device.sn}`,
      )
      // The branch the device belongs to sees nothing of it.
      expect(await unappliedSeenBy(env.admin)).toEqual([])
      // One row in the outbox and in the message centre; no alarm: no escalation due.
      const outbox = await many(
        env.t.db,
        sql`SELECT id FROM outbox WHERE dedupe_key = ${`msg:unapplied:${inboxId}`}`,
      )
      expect(outbox).toHaveLength(1)
      const stored = await many<{ escalate_at: Date | null; index_link: string }>(
        env.t.db,
        sql`SELECT escalate_at, index_link FROM messages WHERE msg_type = 5 AND event_id = ${inboxId}`,
      )
      expect(stored).toEqual([{ escalate_at: null, index_link: (await env.f.root()).index_link }])
    } finally {
      errors.mockRestore()
    }
  })

  it('a cabinet that is unknown is named by kind and id', async () => {
    const errors = vi.spyOn(env.t.ctx.log, 'error')
    const before = (await scrape()).text
    try {
      await reportUnapplied(env.t.ctx, {
        inboxId: 2_000_000_001,
        sender_kind: 'cabinet',
        sender_id: 987654,
        msg_id: 'c1',
        type: 'door',
        attempts: 1,
        dead: false,
        error: 'boom',
      })
      expect(errors.mock.calls[0][1]).toContain('cabinet#987654')
      expect(failures((await scrape()).text, 'cabinet')).toBe((failures(before, 'cabinet') ?? 0) + 1)
    } finally {
      errors.mockRestore()
    }
  })
})

describe('a message that never applies', () => {
  it('is retried to the last attempt, then dead, counted and told to the system organisation once', async () => {
    const { device, msgId, inboxId } = await failedMessage()
    const repair = await breakDetections(env.t, device.id)
    const before = (await scrape()).text
    try {
      for (let i = 0; i < 12; i++) await retryInbox(env.t.ctx)
    } finally {
      await repair()
    }
    const row = await one<{ outcome: string; attempts: number }>(
      env.t.db,
      sql`SELECT outcome, attempts FROM device_inbox WHERE id = ${inboxId}`,
    )
    expect(row).toEqual({ outcome: 'dead', attempts: 10 })
    const now = (await scrape()).text
    // The first attempt was before `before`; nine more, the last one dead.
    expect(failures(now)).toBe((failures(before) ?? 0) + 9)
    expect(dead(now)).toBe((dead(before) ?? 0) + 1)
    await drainOutbox(env.t.ctx)
    const seen = await unappliedSeenBy(env.system, inboxId)
    expect(seen.map((m) => m.msg_title)).toEqual([
      `设备消息无法处理：设备 ${device.sn} 的消息 ${msgId}（selftest）`,
    ])
    // A dead message is not tried again.
    await retryInbox(env.t.ctx)
    expect(dead((await scrape()).text)).toBe((dead(before) ?? 0) + 1)
  })
})
