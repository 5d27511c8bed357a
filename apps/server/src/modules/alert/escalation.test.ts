import { sql } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { createJobRunner } from '../../jobs/runner.ts'
import { TestClock } from '../../lib/clock.ts'
import type { SmsProvider } from '../../providers/sms/sms-provider.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import type { AgencyRow } from '../../test/factories.ts'
import { alertJobs } from './alert.jobs.ts'
import { firstEscalationAt } from './alert-sms.service.ts'
import { escalateDue } from './escalation.ts'

// Escalation of unconfirmed first-aid and door alarms on a moved clock: the message's
// organisation's administrators first, then each organisation above, each step recorded; it
// stops when the message is confirmed or the root was told.

const clock = new TestClock('2026-11-30T02:00:00.000Z')
const sent: { phone: string; text: string }[] = []
const fake: SmsProvider = {
  name: 'fake',
  async sendCode() {},
  async sendText(phone, text) {
    sent.push({ phone, text })
  },
}

// The chains below hang from the root organisation: escalation climbs to it.
const env = deviceTestFile(clock, async ({ t, f }) => {
  t.ctx.sms = fake
  return { root: await f.root() }
})

const runner = () => createJobRunner(env.t.ctx, alertJobs, { log: pino({ level: 'silent' }) })
/** Moves the clock and runs the alert jobs once, as a server's tick would. */
async function after(ms: number) {
  clock.advance(ms)
  await runner().tick()
}

let eventNo = 0
/** An unconfirmed first-aid alarm of an organisation, due for escalation as the owner sets it. */
async function alarm(a: AgencyRow, msgType: 2 | 4 = 2) {
  const now = clock.now()
  const escalateAt = await firstEscalationAt(env.t.ctx, env.t.db, a.id, now)
  const row = await one<{ id: number }>(
    env.t.db,
    sql`
    INSERT INTO messages (msg_type, event_type, event_id, device_sn, cabinet_sn, location, agency_id, index_link, msg_time, escalate_at)
    VALUES (${msgType}, ${msgType}, ${900_000 + ++eventNo}, 'A640000042', ${msgType === 4 ? 'C0042' : null}, '文三路100号',
      ${a.id}, ${a.index_link}, ${now.toISOString()}::timestamptz, ${escalateAt?.toISOString() ?? null}::timestamptz)
    RETURNING id`,
  )
  return row!.id
}
const steps = (id: number) =>
  many<{ level: number; agency_id: number; recipients: number }>(
    env.t.db,
    sql`SELECT level, agency_id, recipients FROM message_escalations WHERE message_id = ${id} ORDER BY level`,
  )
const message = (id: number) =>
  one<{ escalation_level: number; escalate_at: Date | null }>(
    env.t.db,
    sql`SELECT escalation_level, escalate_at FROM messages WHERE id = ${id}`,
  )
const told = (id: number) =>
  many<{ phone: string; sent: string | null }>(
    env.t.db,
    sql`SELECT a.phone, o.status AS sent FROM sms_alerts a LEFT JOIN sms_outbox o ON o.id = a.sms_id
        WHERE a.message_id = ${id} ORDER BY a.id`,
  )

/** A chain top → mid → leaf under the root, each with administrators, a general user and an expired admin at the leaf. */
async function tree() {
  const top = await env.f.agency(env.root)
  const mid = await env.f.agency(top)
  const leaf = await env.f.agency(mid)
  const leafSuper = await env.f.member(leaf, { role_type: 0 })
  const leafAdmin = await env.f.member(leaf, { role_type: 1, permissions: {} })
  await env.f.member(leaf, { role_type: 2, permissions: {} })
  await env.f.member(leaf, { role_type: 1, permissions: {}, use_expire: new Date('2026-01-01T00:00:00Z') })
  const midAdmin = await env.f.member(mid, { role_type: 0 })
  return { top, mid, leaf, leafSuper, leafAdmin, midAdmin }
}

describe('alarm escalation', () => {
  it('starts after the organisation’s minutes (default 5)', async () => {
    const { leaf, mid } = await tree()
    await env.t.db.execute(
      sql`INSERT INTO agency_settings (agency_id, config) VALUES (${mid.id}, ${{ alarm_escalate_minutes: 12 }})`,
    )
    const now = clock.now()
    expect((await firstEscalationAt(env.t.ctx, env.t.db, leaf.id, now))?.getTime()).toBe(
      now.getTime() + 5 * 60_000,
    )
    expect((await firstEscalationAt(env.t.ctx, env.t.db, mid.id, now))?.getTime()).toBe(
      now.getTime() + 12 * 60_000,
    )
  })

  it('tells the organisation’s administrators, then the organisation above, recording each step', async () => {
    const { leaf, mid, top, leafSuper, leafAdmin, midAdmin } = await tree()
    const id = await alarm(leaf)
    await after(4 * 60_000 + 45_000)
    expect(await steps(id)).toEqual([])
    await after(15_000) // the job's next tick, at the fifth minute
    expect(await steps(id)).toEqual([{ level: 1, agency_id: leaf.id, recipients: 2 }])
    // Sent in the same tick, each alone; the general user and the expired administrator are not told.
    expect(await told(id)).toEqual(
      [leafSuper.phone, leafAdmin.phone].sort().map((phone) => ({ phone, sent: 'sent' })),
    )
    expect(sent.filter((s) => s.phone === leafSuper.phone).map((s) => s.text)).toEqual([
      '【AED云】急救告警未确认：设备A640000042（文三路100号）已5分钟无人确认，请立即处理',
    ])
    expect(await message(id)).toEqual({
      escalation_level: 1,
      escalate_at: new Date(clock.now().getTime() + 5 * 60_000),
    })
    await after(5 * 60_000)
    expect(await steps(id)).toEqual([
      { level: 1, agency_id: leaf.id, recipients: 2 },
      { level: 2, agency_id: mid.id, recipients: 1 },
    ])
    expect((await told(id)).map((x) => x.phone)).toContain(midAdmin.phone)
    expect(sent.filter((s) => s.phone === midAdmin.phone).map((s) => s.text)).toEqual([
      expect.stringContaining('已10分钟无人确认'),
    ])
    // The next step is the top organisation's.
    await after(5 * 60_000)
    expect((await steps(id)).map((s) => s.agency_id)).toEqual([leaf.id, mid.id, top.id])
  })

  it('stops once the message is confirmed', async () => {
    const { leaf } = await tree()
    const id = await alarm(leaf, 4)
    await after(5 * 60_000)
    expect(await steps(id)).toHaveLength(1)
    expect((await told(id)).length).toBe(2)
    await env.t.db.execute(sql`UPDATE messages SET is_confirm = 1, escalate_at = NULL WHERE id = ${id}`)
    await after(5 * 60_000)
    await after(5 * 60_000)
    expect(await steps(id)).toHaveLength(1)
    expect((await told(id)).length).toBe(2)
    expect(sent.some((s) => s.text.includes('救护箱开门告警未确认：救护箱C0042'))).toBe(true)
  })

  it('stops at the root of the tree', async () => {
    const top = await env.f.agency(env.root)
    await env.f.member(top, { role_type: 0 })
    const id = await alarm(top)
    await after(5 * 60_000)
    await after(5 * 60_000)
    expect((await steps(id)).map((s) => [s.level, s.agency_id])).toEqual([
      [1, top.id],
      [2, env.root.id],
    ])
    expect(await message(id)).toEqual({ escalation_level: 2, escalate_at: null })
    await after(5 * 60_000)
    expect(await steps(id)).toHaveLength(2)
  })

  it('takes a due step once when two instances reach it together', async () => {
    const { leaf } = await tree()
    const id = await alarm(leaf)
    clock.advance(5 * 60_000)
    const now = clock.now()
    expect(await Promise.all([escalateDue(env.t.ctx, now), escalateDue(env.t.ctx, now)])).toEqual(
      expect.arrayContaining([0]),
    )
    await after(0)
    expect(await steps(id)).toHaveLength(1)
    expect((await told(id)).length).toBe(2)
  })
})
