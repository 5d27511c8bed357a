import { Code } from '@aed/contracts'
import { callApi } from '@aed/contracts/call'
import { dashboardApi } from '@aed/contracts/dashboard'
import { MsgType } from '@aed/contracts/message'
import { responderApi } from '@aed/contracts/responder'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceLink, deviceTestFile } from '../../test/device-link.ts'
import { drainOutbox } from '../engine/outbox.ts'
import { closeDueCalls, linkRescuesToCalls } from './call.jobs.ts'

// Calls recorded by the 登记呼救 form on a clock the test moves: the record and what it sets
// going (message, alarm, SMS plan), the page's reads, a rescue nearby linking to it, and closing
// by hand and by the clock. The open API's intake is in call-open-api.test.ts.
const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ t, f, agent, branch }) => {
  // The branch's contact is a mobile: the call's first-aid SMS goes there.
  await t.db.execute(sql`UPDATE agencies SET phone = '13900001111' WHERE id = ${branch.id}`)
  const sibling = await f.agency(agent)
  const siblingAdmin = (await f.signedIn(sibling)).token
  // A registered device at 文三路: the nearest installation names the calls' district.
  await f.registeredDevice(siblingAdmin, sibling)
  return { sibling, siblingAdmin }
})

/** A place beside the test devices' installation (文三路, 30.2741 120.1307): about 110 m east. */
const near = { lat: 30.2741, lon: 120.1318 }

const form = (over: Record<string, unknown> = {}) => ({
  phone: '13812345678',
  ...near,
  location: '浙江省杭州市西湖区文三路120号',
  description: '男性倒地，无意识',
  ...over,
})

const record = async (over: Record<string, unknown> = {}, token = env.admin) => {
  const r = await env.t.api(callApi.create, { token, body: form(over) })
  expect([r.code, r.msg]).toEqual([0, '登记成功！'])
  return r.data.id
}

const messageOf = (id: number) =>
  one<{ id: number; msg_type: number; escalate_at: Date | null; location: string }>(
    env.t.db,
    sql`SELECT id, msg_type, escalate_at, location FROM messages WHERE msg_type = 1 AND event_id = ${id}`,
  )

describe('recording a call', () => {
  it('records it with its message, first-aid alarm and escalation, SMS plan and webhook row, in one go', async () => {
    const id = await record()
    const m = await messageOf(id)
    expect(m).toMatchObject({ msg_type: MsgType.CALL, location: '浙江省杭州市西湖区文三路120号' })
    // An alarm: it escalates if nobody confirms (5 minutes by default).
    expect(m!.escalate_at!.getTime() - clock.now().getTime()).toBe(5 * 60_000)
    const alarm = await one<{ data_type: number; data: { event_type: number; event_id: number } }>(
      env.t.db,
      sql`SELECT data_type, data FROM live_pushes WHERE data->>'event_type' = '1' AND (data->>'event_id')::int = ${id}`,
    )
    expect(alarm).toMatchObject({ data_type: 2, data: { event_type: 1, event_id: id } })
    await drainOutbox(env.t.ctx)
    const sms = await many<{ phone: string; line: string }>(
      env.t.db,
      sql`SELECT phone, line FROM sms_alerts WHERE dedupe_key LIKE ${`call:${id}:%`}`,
    )
    expect(sms).toEqual([
      {
        phone: '13900001111',
        line: '浙江省杭州市西湖区文三路120号有人呼救（13812345678），请立即关注并组织救援',
      },
    ])
    const webhook = await one<{ payload: unknown }>(
      env.t.db,
      sql`SELECT payload FROM outbox WHERE dedupe_key = ${`webhook:call:${id}:created`}`,
    )
    expect(webhook?.payload).toEqual({ event: 'call.created', call_id: id })
  })

  it('refuses a bad phone, a place outside China, a future time and no place, writing nothing', async () => {
    const before = await one<{ n: number }>(env.t.db, sql`SELECT count(*) AS n FROM call_events`)
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: '12345' }, '请输入正确的呼救电话（手机或带区号的固话）'],
      [{ phone: '' }, '请输入呼救电话'],
      [{ lat: 48.85, lon: 2.35 }, '呼救位置不在中国境内'],
      [{ lat: undefined }, '请在地图上选择呼救位置'],
      [{ location: ' ' }, '请输入呼救地址'],
      [
        { call_time: new Date(clock.now().getTime() + 10 * 60_000).toISOString() },
        '呼救时间不能晚于当前时间',
      ],
      [{ call_time: 'yesterday' }, '呼救时间格式不正确'],
    ]
    for (const [over, msg] of cases) {
      const r = await env.t.api(callApi.create, { token: env.admin, body: form(over) as never })
      expect([r.code, r.msg]).toEqual([Code.INVALID, msg])
    }
    const after = await one<{ n: number }>(env.t.db, sql`SELECT count(*) AS n FROM call_events`)
    expect(after?.n).toBe(before?.n)
  })

  it('takes a landline, and a time a minute ago as given', async () => {
    const at = new Date(clock.now().getTime() - 60_000)
    const id = await record({ phone: '0571-87654321', call_time: at.toISOString() })
    const r = await env.t.api(callApi.detail, { token: env.admin, params: { id } })
    expect(r.data).toMatchObject({
      phone: '0571-87654321',
      status: 1,
      source: 'console',
      address_code: '330106',
    })
    expect(r.data.call_time).toBe('2026-11-26 09:59:00')
  })

  it('lets members with aid_event read, and only those who edit devices record or close', async () => {
    const id = await record()
    const reader = (
      await env.f.signedIn(env.branch, { role_type: 2, permissions: { aid_event: 'READ_ONLY' } })
    ).token
    const list = await env.t.api(callApi.list, { token: reader })
    expect(list.code).toBe(0)
    expect(list.data.can).toEqual({ create: false })
    expect(list.data.resource.find((c) => c.id === id)?.can).toEqual({ close: false })
    expect((await env.t.api(callApi.create, { token: reader, body: form() })).code).toBe(Code.FORBIDDEN)
    const close = await env.t.api(callApi.close, {
      token: reader,
      params: { id },
      body: { outcome: 'cancelled' },
    })
    expect(close.code).toBe(Code.FORBIDDEN)
    const none = (await env.f.signedIn(env.branch, { role_type: 2, permissions: { device: 'READ_ONLY' } }))
      .token
    expect((await env.t.api(callApi.list, { token: none })).code).toBe(Code.FORBIDDEN)
  })
})

describe('the call tab and its detail', () => {
  it('lists the scope’s calls newest first with masked phones, filtered, and nothing of a sibling', async () => {
    const mine = await record({ phone: '13700000001' })
    const theirs = await record({ phone: '13700000002' }, env.siblingAdmin)
    const list = await env.t.api(callApi.list, { token: env.admin, query: { page_size: 100 } })
    const ids = list.data.resource.map((c) => c.id)
    expect(ids).toContain(mine)
    expect(ids).not.toContain(theirs)
    expect(list.data.resource.find((c) => c.id === mine)).toMatchObject({
      phone: '137****0001',
      region: '浙江省杭州市西湖区',
    })
    const byPhone = await env.t.api(callApi.list, { token: env.admin, query: { phone: '0000001' } })
    expect(byPhone.data.resource.map((c) => c.id)).toEqual([mine])
    const later = new Date(clock.now().getTime() + 60_000).toISOString()
    const none = await env.t.api(callApi.list, { token: env.admin, query: { start_time: later } })
    expect(none.data.count).toBe(0)
    const order = await env.t.api(callApi.list, {
      token: env.admin,
      query: { start_time: later, end_time: clock.now().toISOString() },
    })
    expect(order.msg).toBe('开始时间不能大于结束时间！')
    expect((await env.t.api(callApi.detail, { token: env.admin, params: { id: theirs } })).code).toBe(
      Code.NOT_FOUND,
    )
  })

  it('pages newest first, the pages past the middle read from the oldest end alike', async () => {
    for (const n of [1, 2, 3]) await record({ phone: `1370000100${n}` })
    const all = (await env.t.api(callApi.list, { token: env.admin, query: { page_size: 100 } })).data
    expect(all.count).toBeGreaterThan(2)
    for (let page = 2; page <= all.count + 1; page++) {
      const p = await env.t.api(callApi.list, { token: env.admin, query: { page, page_size: 2 } })
      expect(p.data.count).toBe(all.count)
      expect(p.data.resource).toEqual(all.resource.slice(page * 2 - 2, page * 2))
    }
  })

  it('shows the normal devices and the responders within the radius, and the timeline', async () => {
    const d = await env.registered()
    await d.send(d.msg('hello', { report_interval_s: 600 }), d.msg('heartbeat', { battery: 90 }))
    const responder = await env.t.api(responderApi.create, {
      token: env.admin,
      body: {
        account: {
          phone: '13912398765',
          name: '附近急救员',
          birth: '1990-01-01',
          gender: 1,
          ...near,
          location: '文三路',
        },
        aid_aptitude: 0,
        agency_id: env.branch.id,
        status: 0,
      },
    })
    expect(responder.code).toBe(0)
    const id = await record()
    const r = await env.t.api(callApi.detail, { token: env.admin, params: { id } })
    expect(r.data.radius).toBe(1000)
    const device = r.data.devices.find((x) => x.device_sn === d.sn)
    expect(device?.distance).toBeGreaterThan(90)
    expect(device?.distance).toBeLessThan(130)
    expect(r.data.responders.find((x) => x.name === '附近急救员')).toMatchObject({
      distance: 0,
      dispatch_state: 'ready',
    })
    expect(r.data.timeline.map((s) => s.kind).filter((k) => !k.startsWith('dispatch_'))).toEqual([
      'recorded',
      'message',
    ])
    expect(r.data.timeline[0].text).toContain('登记呼救')
    // The sibling's admin sees neither the device nor the responder around its own call here.
    const theirs = await record({}, env.siblingAdmin)
    const other = await env.t.api(callApi.detail, { token: env.siblingAdmin, params: { id: theirs } })
    expect(other.data.devices.map((x) => x.device_sn)).not.toContain(d.sn)
    expect(other.data.responders.map((x) => x.name)).not.toContain('附近急救员')
  })

  it('draws open and recent calls on the dashboard layer, and opens a call message’s details there', async () => {
    const id = await record()
    const layer = await env.t.api(callApi.location, { token: env.admin, query: { address_code: '330100' } })
    expect(layer.data.resource.map((c) => c.id)).toContain(id)
    const focus = await env.t.api(dashboardApi.eventFocus, {
      token: env.admin,
      query: { event_type: 1, event_id: id },
    })
    expect(focus.data).toMatchObject({
      event_type: 1,
      event_id: id,
      ...near,
      title: '呼救事件：浙江省杭州市西湖区文三路120号',
    })
    expect(focus.data.message?.msg_type).toBe(1)
  })
})

describe('a rescue answers the call, and calls close', () => {
  it('links the nearest rescue that starts within 30 minutes after the call: AED used', async () => {
    // The calls of the tests before are over half an hour old now: outside the window.
    clock.advance(60 * 60_000)
    const d = await env.registered()
    const id = await record()
    clock.advance(4 * 60_000)
    await d.send(
      d.msg('usage', {
        rescue_event_id: 'CALL-R1',
        event_time: clock.now().getTime(),
        event_desc: 'power_on',
      }),
    )
    const linked = await linkRescuesToCalls(env.t.ctx, clock.now())
    expect(linked.map((l) => l.call_id)).toContain(id)
    expect(await linkRescuesToCalls(env.t.ctx, clock.now())).toEqual([])
    // The consoles that see the call are told once (live frame 15): the call shows its AED at once.
    const pushes = await many<{ data: { call_id: number; rescue_id: number } }>(
      env.t.db,
      sql`SELECT data FROM live_pushes WHERE data_type = 15 AND (data->>'call_id')::int = ${id}`,
    )
    expect(pushes.map((p) => p.data)).toEqual([
      { call_id: id, rescue_id: linked.find((l) => l.call_id === id)?.rescue_id },
    ])
    const r = await env.t.api(callApi.detail, { token: env.admin, params: { id } })
    expect(r.msg).toBe('成功')
    expect(r.data).toMatchObject({
      outcome: 'aed_used',
      status: 1,
      rescue: { device_sn: d.sn, rescue_event_id: 'CALL-R1' },
    })
    expect(r.data.rescue?.event_lat).toBeCloseTo(30.2741, 4)
    expect(r.data.timeline.map((s) => s.kind)).toContain('rescue')
  })

  it('does not link a rescue that started before the call, or one too far away', async () => {
    clock.advance(60 * 60_000)
    const before = await env.registered()
    await before.send(
      before.msg('usage', {
        rescue_event_id: 'EARLY-R1',
        event_time: clock.now().getTime(),
        event_desc: 'power_on',
      }),
    )
    clock.advance(60_000)
    const id = await record()
    // 3 km north-east: outside the 1,000 m radius.
    const far = await deviceLink(
      env.t,
      (await env.f.registeredDevice(env.admin, env.branch, { lat: 30.3, lon: 120.15 })).device_sn,
    )
    clock.advance(60_000)
    await far.send(
      far.msg('usage', {
        rescue_event_id: 'FAR-R1',
        event_time: clock.now().getTime(),
        event_desc: 'power_on',
      }),
    )
    await linkRescuesToCalls(env.t.ctx, clock.now())
    const r = await env.t.api(callApi.detail, { token: env.admin, params: { id } })
    expect(r.data.rescue).toBeNull()
  })

  it('closes by a member with an outcome once, and by the clock after call_close_minutes', async () => {
    const id = await record()
    const closed = await env.t.api(callApi.close, {
      token: env.admin,
      params: { id },
      body: { outcome: 'cancelled', remark: '误报' },
    })
    expect([closed.msg, closed.data.status, closed.data.outcome, closed.data.close_reason]).toEqual([
      '操作成功！',
      0,
      'cancelled',
      'member',
    ])
    const again = await env.t.api(callApi.close, {
      token: env.admin,
      params: { id },
      body: { outcome: 'no_aed_needed' },
    })
    expect(again.msg).toBe('该呼救事件已结束')

    const open = await record()
    clock.advance(119 * 60_000)
    await closeDueCalls(env.t.ctx, clock.now())
    expect((await env.t.api(callApi.detail, { token: env.admin, params: { id: open } })).data.status).toBe(1)
    clock.advance(2 * 60_000)
    expect(await closeDueCalls(env.t.ctx, clock.now())).toBeGreaterThan(0)
    const timedOut = await env.t.api(callApi.detail, { token: env.admin, params: { id: open } })
    expect(timedOut.data).toMatchObject({ status: 0, close_reason: 'timeout', outcome: null })
    expect(timedOut.data.timeline.filter((s) => !s.kind.startsWith('dispatch_')).at(-1)?.kind).toBe('closed')
  })
})
