import { sql } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import type { SmsProvider } from '../../providers/sms/sms-provider.ts'
import { deviceLink, deviceTestFile } from '../../test/device-link.ts'
import type { AgencyRow } from '../../test/factories.ts'
import { drainOutbox, type OutboxRecord } from '../engine/outbox.ts'
import { smsOutboxHandler } from './alert-sms.service.ts'
import { escalateDue } from './escalation.ts'
import { planDueSms, SMS_MAX_ATTEMPTS, sendPendingSms } from './sms-dispatch.ts'

// Alert SMS on a clock the test moves: schedules, the window and its hold, one per device and
// condition a day, digests, recipients, retries; and one path through the engine end to end.

// Shanghai is UTC+8: 2026-11-27 is a Friday, 11-28 a Saturday, 11-30 a Monday.
const at = (local: string) => new Date(`${local}+08:00`)
const clock = new TestClock(at('2026-11-27T10:00:00'))

type Sent = { phone: string; text: string; key: string }
const sent: Sent[] = []
/** Sends to come that fail, and whether a failing send reached the phone anyway (a timeout after acceptance). */
let failures = 0
let failAfterSending = false

const fake: SmsProvider = {
  name: 'fake',
  async sendCode() {},
  async sendText(phone, text, key) {
    if (failures > 0) {
      failures--
      if (failAfterSending) sent.push({ phone, text, key })
      throw new Error('vendor unavailable')
    }
    sent.push({ phone, text, key })
  },
}

const env = deviceTestFile(clock, async ({ t }) => {
  t.ctx.sms = fake
  // The test drains the outbox itself, at the moments it chooses.
  t.ctx.drainOnCommit = false
  return {}
})
beforeEach(() => {
  failures = 0
  failAfterSending = false
})

let phoneNo = 0
const mobile = () => `177${String(++phoneNo).padStart(8, '0')}`

/** An organisation under the test branch with a mobile contact and these settings. */
async function org(settings: Record<string, unknown> = {}) {
  const a = await env.f.agency(env.branch, { phone: mobile() })
  await env.t.db.execute(
    sql`INSERT INTO agency_settings (agency_id, config) VALUES (${a.id}, ${{
      aid_sms: 1,
      exec_status_sms: 1,
      exec_status_sms_time_period: ['08:00', '20:00'],
      location_offset: 1,
      alarm_sound: 1,
      electrode_sheet_expire: 1,
      battery_expire: 1,
      ...settings,
    }})`,
  )
  return a
}

async function device(a: AgencyRow, over: { manager?: number; smsOff?: boolean } = {}) {
  const d = await env.f.registeredDevice(env.admin, a)
  const link = await deviceLink(env.t, d.device_sn)
  if (over.manager)
    await env.t.db.execute(
      sql`UPDATE installations SET device_manager_id = ${over.manager} WHERE device_id = ${link.id}`,
    )
  if (over.smsOff)
    await env.t.db.execute(
      sql`UPDATE installations SET disable_abnormal_sms_notify = 1 WHERE device_id = ${link.id}`,
    )
  return link
}

let outboxId = 1_000_000
/** Plans an engine `sms` outbox row as the drain would hand it over. */
async function plan(payload: Record<string, unknown>) {
  const row: OutboxRecord = {
    id: ++outboxId,
    topic: 'sms',
    dedupe_key: `test:${outboxId}`,
    agency_id: null,
    index_link: null,
    payload,
    attempts: 0,
    create_time: clock.now(),
  }
  await env.t.db.transaction((tx) => smsOutboxHandler(env.t.ctx, tx, row))
}
let eventId = 0
const fault = (deviceId: number, code = 'E02') =>
  plan({ sms: 'status', event_id: ++eventId, device_id: deviceId, device_sn: 'x', kind: 'fault', code })
const rescueSms = (deviceId: number) =>
  plan({ sms: 'aid', rescue_id: ++eventId, device_id: deviceId, device_sn: 'x' })

/** One tick of the dispatcher at the clock's time. */
async function dispatch() {
  await planDueSms(env.t.ctx, clock.now())
  await sendPendingSms(env.t.ctx, clock.now())
}
const to = (phone: string) => sent.filter((s) => s.phone === phone)
const queued = (phone: string) =>
  many<{ kind: string; line: string; due_at: Date; sms_id: number | null }>(
    env.t.db,
    sql`SELECT kind, line, due_at, sms_id FROM sms_alerts WHERE phone = ${phone} ORDER BY id`,
  )
const outbox = (phone: string) =>
  many<{
    kind: string
    status: string
    attempts: number
    content: string
    idempotency_key: string
    last_error: string | null
    provider: string | null
  }>(
    env.t.db,
    sql`SELECT kind, status, attempts, content, idempotency_key, last_error, provider FROM sms_outbox WHERE phone = ${phone} ORDER BY id`,
  )

describe('first-aid SMS', () => {
  it('goes at once every day, skips a Saturday under Monday to Friday, and never under never', async () => {
    clock.set(at('2026-11-28T03:00:00')) // Saturday, outside any window: first aid does not wait
    const daily = await org({ aid_sms: 1, exec_status_sms: 0 })
    const weekdays = await org({ aid_sms: 2 })
    const never = await org({ aid_sms: 0 })
    for (const a of [daily, weekdays, never]) await rescueSms((await device(a)).id)
    await dispatch()
    expect(to(daily.phone!)).toEqual([
      expect.objectContaining({
        text: expect.stringMatching(/^【AED云】设备A64\d{7}（浙江省杭州市西湖区.*）正在急救使用/),
      }),
    ])
    expect(await outbox(daily.phone!)).toEqual([
      expect.objectContaining({ kind: 'aid', status: 'sent', provider: 'fake' }),
    ])
    expect(await queued(weekdays.phone!)).toEqual([])
    expect(await queued(never.phone!)).toEqual([])
    // On a Monday the weekday organisation is told.
    clock.set(at('2026-11-30T03:00:00'))
    await rescueSms((await device(weekdays)).id)
    await dispatch()
    expect(to(weekdays.phone!)).toHaveLength(1)
  })

  it('goes even for a device whose abnormal SMS are off, and alone beside a held digest', async () => {
    clock.set(at('2026-11-27T10:00:00'))
    const a = await org()
    const d = await device(a, { smsOff: true })
    await fault(d.id)
    await rescueSms(d.id)
    await dispatch()
    expect((await queued(a.phone!)).map((q) => q.kind)).toEqual(['aid'])
    expect(to(a.phone!)).toHaveLength(1)
  })
})

describe('abnormal-status SMS', () => {
  it('inside the window: one per device and condition a day, after a minute’s gathering', async () => {
    clock.set(at('2026-11-27T10:00:00'))
    const a = await org()
    const d = await device(a)
    await fault(d.id, 'E02')
    await fault(d.id, 'E02') // the fault closed and opened again the same day
    expect(await queued(a.phone!)).toHaveLength(1)
    await dispatch()
    expect(to(a.phone!)).toEqual([])
    clock.advance(60_000)
    await dispatch()
    expect(to(a.phone!).map((s) => s.text)).toEqual([
      expect.stringMatching(/^【AED云】设备A64\d{7}（.*）故障：电池故障$/),
    ])
    clock.advance(3600_000)
    await fault(d.id, 'E02')
    await dispatch()
    clock.advance(60_000)
    await dispatch()
    expect(to(a.phone!)).toHaveLength(1)
    // The next day it may be told again.
    clock.set(at('2026-11-28T10:00:00'))
    await fault(d.id, 'E02')
    clock.advance(60_000)
    await dispatch()
    expect(to(a.phone!)).toHaveLength(2)
  })

  it('an event at 22:00 on a Friday is held to 08:00 on Monday under Monday to Friday, not before', async () => {
    clock.set(at('2026-11-27T22:00:00'))
    const weekdays = await org({ exec_status_sms: 2 })
    const daily = await org({ exec_status_sms: 1 })
    await fault((await device(weekdays)).id)
    await fault((await device(daily)).id)
    const tick = async (local: string) => {
      clock.set(at(local))
      await dispatch()
    }
    await tick('2026-11-28T07:59:59')
    expect(to(daily.phone!)).toEqual([])
    await tick('2026-11-28T08:00:00')
    expect(to(daily.phone!)).toHaveLength(1)
    await tick('2026-11-29T12:00:00')
    await tick('2026-11-30T07:59:59')
    expect(to(weekdays.phone!)).toEqual([])
    clock.set(at('2026-11-30T08:00:00'))
    await dispatch()
    expect(to(weekdays.phone!)).toHaveLength(1)
    expect(await outbox(weekdays.phone!)).toEqual([
      expect.objectContaining({ kind: 'status', status: 'sent' }),
    ])
  })

  it('several lines for one person in one window go as one digest', async () => {
    clock.set(at('2026-11-30T06:00:00'))
    const a = await org()
    const one = await device(a)
    const two = await device(a)
    await fault(one.id, 'E02')
    await fault(one.id, 'E04')
    await fault(two.id, 'E01')
    clock.set(at('2026-11-30T08:00:00'))
    await dispatch()
    const texts = to(a.phone!).map((s) => s.text)
    expect(texts).toHaveLength(1)
    expect(texts[0]).toMatch(
      /^【AED云】3条设备告警：1\. 设备.*故障：电池故障；2\. 设备.*故障：放电电路故障；3\. 设备.*故障：电极片未连接或损坏$/,
    )
    const lines = await queued(a.phone!)
    expect(new Set(lines.map((l) => l.sms_id)).size).toBe(1)
    expect(await outbox(a.phone!)).toEqual([expect.objectContaining({ kind: 'digest', status: 'sent' })])
  })

  it('goes to the device’s manager, else the organisation’s contact; nowhere without a mobile', async () => {
    clock.set(at('2026-11-30T09:00:00'))
    const a = await org()
    const manager = await env.f.member(a, { role_type: 2 })
    const managed = await device(a, { manager: manager.id })
    const unmanaged = await device(a)
    await fault(managed.id)
    await fault(unmanaged.id)
    expect(await queued(manager.phone)).toHaveLength(1)
    expect(await queued(a.phone!)).toHaveLength(1)
    // An expired manager no longer hears of it: the organisation does.
    await env.t.db.execute(
      sql`UPDATE members SET use_expire = ${at('2026-11-01T00:00:00').toISOString()}::timestamptz WHERE id = ${manager.id}`,
    )
    await fault(managed.id, 'E05')
    expect(await queued(manager.phone)).toHaveLength(1)
    expect(await queued(a.phone!)).toHaveLength(2)
    // A landline contact and no manager: nothing is queued.
    const landline = await env.f.agency(env.branch, { phone: '057100000001' })
    const d = await device(landline)
    await fault(d.id)
    const any = await many(env.t.db, sql`SELECT 1 FROM sms_alerts WHERE device_id = ${d.id}`)
    expect(any).toEqual([])
  })

  it('none for a device with disable_abnormal_sms_notify, none when the schedule is never', async () => {
    clock.set(at('2026-11-30T09:00:00'))
    const a = await org()
    await fault((await device(a, { smsOff: true })).id)
    const never = await org({ exec_status_sms: 0 })
    await fault((await device(never)).id)
    expect(await queued(a.phone!)).toEqual([])
    expect(await queued(never.phone!)).toEqual([])
  })
})

describe('sending', () => {
  it('a provider failure is retried with backoff and the SMS sent once, with one key', async () => {
    clock.set(at('2026-11-30T09:00:00'))
    const a = await org()
    await rescueSms((await device(a)).id)
    failures = 2
    failAfterSending = true // the vendor took it but the answer was lost: the resend carries the same key
    await dispatch()
    expect(await outbox(a.phone!)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, last_error: 'vendor unavailable' }),
    ])
    clock.advance(4_000) // before the 5 s backoff
    await dispatch()
    expect(to(a.phone!)).toHaveLength(1)
    clock.advance(1_000)
    await dispatch()
    expect(to(a.phone!)).toHaveLength(2)
    clock.advance(9_000) // the second backoff is 10 s
    await dispatch()
    expect(to(a.phone!)).toHaveLength(2)
    clock.advance(1_000)
    await dispatch()
    const sends = to(a.phone!)
    expect(sends).toHaveLength(3)
    expect(new Set(sends.map((s) => s.key)).size).toBe(1)
    const [row] = await outbox(a.phone!)
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null })
    expect(row.idempotency_key).toBe(sends[0].key)
    clock.advance(3600_000)
    await dispatch()
    expect(to(a.phone!)).toHaveLength(3)
  })

  it('after the last attempt the SMS is failed and left alone', async () => {
    clock.set(at('2026-11-30T09:00:00'))
    const a = await org()
    await rescueSms((await device(a)).id)
    failures = SMS_MAX_ATTEMPTS + 5
    for (let i = 0; i < SMS_MAX_ATTEMPTS + 2; i++) {
      await dispatch()
      clock.advance(3600_000)
    }
    expect(await outbox(a.phone!)).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: SMS_MAX_ATTEMPTS,
        last_error: 'vendor unavailable',
      }),
    ])
  })
})

describe('through the engine', () => {
  it('a failed self-test and a rescue reach the organisation by SMS through the outbox drain', async () => {
    clock.set(at('2026-11-30T10:00:00'))
    const a = await org()
    const d = await device(a)
    await d.send(d.msg('hello', { report_interval_s: 86_400 }))
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E04'] }))
    await drainOutbox(env.t.ctx, { sms: smsOutboxHandler })
    expect(await queued(a.phone!)).toEqual([expect.objectContaining({ kind: 'status' })])
    await d.send(
      d.msg('usage', { rescue_event_id: 'R1', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    await drainOutbox(env.t.ctx, { sms: smsOutboxHandler })
    await dispatch()
    // First aid at once; the fault after its gathering minute.
    expect(to(a.phone!).map((s) => s.text)).toEqual([expect.stringContaining('正在急救使用')])
    clock.advance(60_000)
    await dispatch()
    expect(to(a.phone!).map((s) => s.text)).toEqual([
      expect.stringContaining('正在急救使用'),
      expect.stringMatching(/^【AED云】设备A64\d{7}（.*）故障：放电电路故障$/),
    ])
  })

  it('an unconfirmed rescue alarm escalates to the organisation’s administrators by SMS', async () => {
    clock.set(at('2026-11-30T11:00:00'))
    const a = await org({ alarm_escalate_minutes: 3 })
    const boss = await env.f.member(a, { role_type: 1, permissions: {} })
    const d = await device(a)
    await d.send(d.msg('hello', { report_interval_s: 86_400 }))
    await d.send(
      d.msg('usage', { rescue_event_id: 'R9', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    await drainOutbox(env.t.ctx) // every handler: the message centre's alarm and the aid SMS
    const [msg] = await many<{ id: number; escalate_at: Date }>(
      env.t.db,
      sql`SELECT id, escalate_at FROM messages WHERE device_id = ${d.id} AND msg_type = 2`,
    )
    expect(msg.escalate_at).toEqual(new Date(clock.now().getTime() + 3 * 60_000))
    clock.advance(3 * 60_000)
    await escalateDue(env.t.ctx, clock.now())
    await dispatch()
    expect(to(boss.phone).map((s) => s.text)).toEqual([
      expect.stringMatching(/^【AED云】急救告警未确认：设备A64\d{7}（.*）已3分钟无人确认/),
    ])
  })
})
