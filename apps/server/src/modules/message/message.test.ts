import { Code } from '@aed/contracts'
import { messageApi } from '@aed/contracts/message'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceLink, deviceTestFile } from '../../test/device-link.ts'
import { drainOutbox } from '../engine/outbox.ts'

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ t, f, agent, branch }) => {
  // The outbox is drained by hand here.
  t.ctx.drainOnCommit = false
  const sibling = await f.agency(agent)
  return {
    colleague: (await f.signedIn(branch)).token,
    sibling,
    other: (await f.signedIn(sibling)).token,
  }
})

/** A device of the branch starts a rescue; the outbox is drained: answers its rescue row id. */
async function rescue(sn?: string) {
  const d = await deviceLink(env.t, sn ?? (await env.f.registeredDevice(env.admin, env.branch)).device_sn)
  const id = `R${Math.random().toString(36).slice(2, 8)}`
  await d.send(
    d.msg('usage', { rescue_event_id: id, event_time: clock.now().getTime(), event_desc: 'power_on' }),
  )
  await drainOutbox(env.t.ctx)
  const r = await one<{ id: number }>(
    env.t.db,
    sql`SELECT id::int FROM rescue_events WHERE device_id = ${d.id} AND rescue_event_id = ${id}`,
  )
  return { device: d, rescueId: r?.id as number }
}

const list = (token: string, query: Record<string, number> = {}) =>
  env.t.api(messageApi.list, { token, query: { page: 1, page_size: 10, ...query } })
const amount = async (token: string) => (await env.t.api(messageApi.unconfirmedAmount, { token })).data.amount

describe('the message centre', () => {
  it('a rescue leaves one message for the organisation and those above it, none for a sibling', async () => {
    const before = await amount(env.admin)
    const { device, rescueId } = await rescue()
    // A second drain, and the rescue's next step, add nothing.
    await device.send(
      device.msg('usage', {
        rescue_event_id: 'x',
        event_time: clock.now().getTime(),
        event_desc: 'power_on',
      }),
    )
    await drainOutbox(env.t.ctx)
    const page = await list(env.admin)
    const mine = page.data.resource.filter((m) => m.device_sn === device.sn)
    expect(mine.map((m) => [m.msg_type, m.event_type])).toEqual([
      [2, 2],
      [2, 2],
    ])
    const first = mine.find((m) => m.event_id === rescueId)
    expect(first).toMatchObject({
      msg_title: `急救事件：设备 ${device.sn} 开始使用`,
      is_confirm: 0,
      confirmed_name: null,
      agency_name: env.branch.name,
    })
    expect(first?.msg_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(await amount(env.admin)).toBe(before + 2)
    expect(JSON.stringify((await list(env.other, { page_size: 100 })).data)).not.toContain(device.sn)
    const en = await env.t.api(messageApi.list, {
      token: env.admin,
      query: { page: 1, page_size: 10 },
      lang: 'en-US',
    })
    expect(en.data.resource.find((m) => m.event_id === rescueId)?.msg_title).toBe(
      `First aid: device ${device.sn} is in use`,
    )
    // An alarm waits for its escalation; the message is due for it after the organisation's minutes.
    const [row] = await many<{ escalate_at: Date; msg_time: Date }>(
      env.t.db,
      sql`SELECT escalate_at, msg_time FROM messages WHERE event_id = ${rescueId} AND msg_type = 2`,
    )
    expect(row.escalate_at.getTime()).toBeGreaterThan(row.msg_time.getTime())
  })

  it('one confirmation confirms it for everyone who sees it, records who and when, and stops escalation', async () => {
    const { rescueId } = await rescue()
    const msg = (await list(env.admin)).data.resource.find((m) => m.event_id === rescueId && m.msg_type === 2)
    if (!msg) throw new Error('no message')
    const before = await amount(env.colleague)
    const crossed = await env.t.api(messageApi.confirm, {
      token: env.other,
      params: { id: msg.id },
      body: {},
    })
    expect(crossed.code).not.toBe(Code.OK)
    expect(await amount(env.colleague)).toBe(before)
    const r = await env.t.api(messageApi.confirm, { token: env.admin, params: { id: msg.id }, body: {} })
    expect(r).toMatchObject({
      code: Code.OK,
      msg: '已确认',
      data: { success: true, message: { is_confirm: 1 } },
    })
    const seen = await env.t.api(messageApi.detail, { token: env.colleague, params: { id: msg.id } })
    expect(seen.data).toMatchObject({ is_confirm: 1, confirmed_name: r.data.message.confirmed_name })
    expect(seen.data.confirm_time).toMatch(/^\d{4}-/)
    expect(await amount(env.colleague)).toBe(before - 1)
    // Again: nothing changes, the first confirmation stands.
    const again = await env.t.api(messageApi.confirm, {
      token: env.colleague,
      params: { id: msg.id },
      body: {},
    })
    expect(again.data).toMatchObject({
      success: true,
      message: { confirmed_name: r.data.message.confirmed_name },
    })
    const [row] = await many<{ escalate_at: Date | null }>(
      env.t.db,
      sql`SELECT escalate_at FROM messages WHERE id = ${msg.id}`,
    )
    expect(row.escalate_at).toBeNull()
    expect((await env.t.api(messageApi.detail, { token: env.other, params: { id: msg.id } })).code).not.toBe(
      Code.OK,
    )
  })

  it('pages newest first, filters by confirmation, and the unconfirmed count follows', async () => {
    const rescues = []
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000)
      rescues.push((await rescue()).rescueId)
    }
    const p1 = await list(env.admin, { page: 1, page_size: 2 })
    const p2 = await list(env.admin, { page: 2, page_size: 2 })
    expect(p1.data.resource).toHaveLength(2)
    expect(p1.data.count).toBe(p2.data.count)
    const times = [...p1.data.resource, ...p2.data.resource].map((m) => m.msg_time)
    expect([...times].sort().reverse()).toEqual(times)
    // One of the three confirmed: the unconfirmed list holds the other two and not it, the
    // confirmed list holds it; together they are the whole list.
    const all = (await list(env.admin, { page_size: 100 })).data
    const ofRescue = (id: number) => all.resource.find((m) => m.event_id === id && m.msg_type === 2)!
    const [done, ...waiting] = rescues.map(ofRescue)
    const confirmed = await env.t.api(messageApi.confirm, {
      token: env.admin,
      params: { id: done.id },
      body: {},
    })
    expect(confirmed.code).toBe(Code.OK)
    const ids = (page: Awaited<ReturnType<typeof list>>) => page.data.resource.map((m) => m.id)
    const open = await list(env.admin, { is_confirm: 0, page_size: 100 })
    const closed = await list(env.admin, { is_confirm: 1, page_size: 100 })
    expect(ids(open)).toEqual(expect.arrayContaining(waiting.map((m) => m.id)))
    expect(ids(open)).not.toContain(done.id)
    expect(ids(closed)).toContain(done.id)
    expect(new Set(open.data.resource.map((m) => m.is_confirm))).toEqual(new Set([0]))
    expect(new Set(closed.data.resource.map((m) => m.is_confirm))).toEqual(new Set([1]))
    expect(open.data.count + closed.data.count).toBe(all.count)
    expect(open.data.count).toBe(await amount(env.admin))
  })
})
