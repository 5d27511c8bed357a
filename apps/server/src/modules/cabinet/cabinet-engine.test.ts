import { messageApi } from '@aed/contracts/message'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { createJobRunner } from '../../jobs/runner.ts'
import { TestClock } from '../../lib/clock.ts'
import { cabinetLink, deviceTestFile } from '../../test/device-link.ts'
import { engineJobs } from '../engine/engine.jobs.ts'
import { AED_RETURN_MS } from '../engine/engine.rules.ts'
import { drainOutbox } from '../engine/outbox.ts'
import { cabinetEngineJobs } from './cabinet-engine.jobs.ts'

// The rescue cabinet's engine, on a clock the test moves: the door alarm (message type 4 and
// its popup, data_type 4) through the outbox, the offline sweep, the rescue flow knowing the
// cabinet an AED came from, and the AED's 'not returned' warning.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ t, f, branch }) => {
  // The test drains the outbox itself.
  t.ctx.drainOnCommit = false
  const other = await f.agency({ id: branch.parent_id as number, agency_type: 1 })
  return { sibling: (await f.signedIn(other)).token }
})

const runner = () =>
  createJobRunner(env.t.ctx, [...engineJobs, ...cabinetEngineJobs], { log: pino({ level: 'silent' }) })
/** Moves the clock in steps the sweep takes for a running server, ticking the jobs each time. */
async function live(ms: number, step = 120_000) {
  const r = runner()
  for (let left = ms; left > 0; left -= step) {
    clock.advance(Math.min(step, left))
    await r.tick()
  }
}

async function boundPair(location: string | null = '人民广场东门') {
  const d = await env.registered()
  const c = await cabinetLink(env.t, env.branch.id, { deviceId: d.id, location })
  return { d, c }
}

const doorEvents = (cabinetId: number) =>
  many<{
    id: number
    opened_at: Date
    closed_at: Date | null
    aed_left_at: Date | null
    aed_back_at: Date | null
    return_due_at: Date | null
    not_returned_at: Date | null
  }>(
    env.t.db,
    sql`SELECT id, opened_at, closed_at, aed_left_at, aed_back_at, return_due_at, not_returned_at
        FROM cabinet_door_events WHERE cabinet_id = ${cabinetId} ORDER BY id`,
  )
const openWarnings = async (deviceId: number) =>
  many<{ code: string; content: string }>(
    env.t.db,
    sql`SELECT code, content FROM device_events
        WHERE device_id = ${deviceId} AND kind = 'warning' AND closed_at IS NULL ORDER BY code`,
  )

describe('the door alarm', () => {
  it('door 1 leaves message type 4 and the live alarm data_type 4 for the organisation; door 0 closes the event', async () => {
    const { d, c } = await boundPair()
    const openedAt = clock.now()
    await c.send(c.msg('door', { door_status: 1 }))
    const [event] = await doorEvents(c.id)
    expect(event).toMatchObject({ opened_at: openedAt, closed_at: null })
    expect(await drainOutbox(env.t.ctx)).toBeGreaterThan(0)
    const msg = await one<Record<string, unknown>>(
      env.t.db,
      sql`SELECT msg_type, event_type, event_id, device_sn, cabinet_sn, location, agency_id, is_confirm,
            escalate_at IS NOT NULL AS escalates
          FROM messages WHERE msg_type = 4 AND event_id = ${event.id}`,
    )
    expect(msg).toEqual({
      msg_type: 4,
      event_type: 4,
      event_id: event.id,
      device_sn: d.sn,
      cabinet_sn: c.sn,
      location: '人民广场东门',
      agency_id: env.branch.id,
      is_confirm: 0,
      escalates: true,
    })
    const alarm = await one<{ data: Record<string, unknown>; index_link: string }>(
      env.t.db,
      sql`SELECT data, index_link FROM live_pushes WHERE data_type = 4 AND data->>'event_id' = ${String(event.id)}`,
    )
    expect(alarm?.data).toMatchObject({
      cabinet_sn: c.sn,
      location: '人民广场东门',
      device_sn: d.sn,
      event_type: 4,
      event_id: event.id,
      escalation_level: 0,
    })
    expect(alarm?.data.data_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(alarm?.index_link).toBe(env.branch.index_link)
    // The organisation's members see the message (with its title); a sibling's do not.
    const mine = await env.t.api(messageApi.list, { token: env.admin, query: { page: 1, page_size: 10 } })
    const row = mine.data.resource.find((m) => m.msg_type === 4 && m.event_id === event.id)
    expect(row).toMatchObject({ cabinet_sn: c.sn, msg_title: `救护箱开门：${c.sn}`, is_confirm: 0 })
    const theirs = await env.t.api(messageApi.list, { token: env.sibling, query: { page: 1, page_size: 10 } })
    expect(theirs.data.resource.some((m) => m.msg_type === 4 && m.event_id === event.id)).toBe(false)
    // Draining again tells nothing twice.
    await drainOutbox(env.t.ctx)
    const count = await one<{ n: number }>(
      env.t.db,
      sql`SELECT count(*)::int AS n FROM messages WHERE msg_type = 4 AND event_id = ${event.id}`,
    )
    expect(count?.n).toBe(1)

    clock.advance(90_000)
    await c.send(c.msg('door', { door_status: 0 }))
    expect((await doorEvents(c.id))[0].closed_at).toEqual(clock.now())
    // The next opening is a new event with its own alarm.
    clock.advance(60_000)
    await c.send(c.msg('door', { door_status: 1 }))
    await drainOutbox(env.t.ctx)
    const events = await doorEvents(c.id)
    expect(events).toHaveLength(2)
    const second = await one<{ n: number }>(
      env.t.db,
      sql`SELECT count(*)::int AS n FROM messages WHERE msg_type = 4 AND event_id = ${events[1].id}`,
    )
    expect(second?.n).toBe(1)
  })

  it('a cabinet_status that finds the door open opens the event a lost door message would have', async () => {
    const { c } = await boundPair(null)
    await c.send(c.msg('cabinet_status', { door_status: 1, lat: 31.2304, lon: 121.4737 }))
    const [event] = await doorEvents(c.id)
    expect(event.closed_at).toBeNull()
    await drainOutbox(env.t.ctx)
    // No address: the alarm shows the cabinet's position (GCJ-02).
    const msg = await one<{ location: string }>(
      env.t.db,
      sql`SELECT location FROM messages WHERE msg_type = 4 AND event_id = ${event.id}`,
    )
    expect(msg?.location).toMatch(/^31\.\d{6},121\.\d{6}$/)
    await c.send(c.msg('cabinet_status', { door_status: 0 }))
    expect((await doorEvents(c.id))[0].closed_at).not.toBeNull()
    // The list's location follows the position while the cabinet has no address; an address stays.
    const where = async (id: number) =>
      (await one<{ location: string | null }>(env.t.db, sql`SELECT location FROM cabinets WHERE id = ${id}`))
        ?.location
    expect(await where(c.id)).toBe(msg?.location)
    await c.send(c.msg('cabinet_status', { door_status: 0, lat: 30.5728, lon: 104.0668 }))
    expect(await where(c.id)).toMatch(/^30\.\d{6},104\.\d{6}$/)
    const named = await boundPair('人民广场东门')
    await named.c.send(named.c.msg('cabinet_status', { door_status: 0, lat: 30.5728, lon: 104.0668 }))
    expect(await where(named.c.id)).toBe('人民广场东门')
  })

  it('an old door report keeps its record but does not reopen the door', async () => {
    const { c } = await boundPair()
    await c.send(c.msg('door', { door_status: 0 }, { seq: 10 }))
    await c.send(c.msg('door', { door_status: 1 }, { seq: 5 }))
    expect(await doorEvents(c.id)).toEqual([])
    const recs = await many(env.t.db, sql`SELECT id FROM cabinet_records WHERE cabinet_id = ${c.id}`)
    expect(recs).toHaveLength(2)
  })
})

describe('offline', () => {
  it('a silent cabinet goes offline after interval × 3 + grace; its next message brings it back', async () => {
    const c = await cabinetLink(env.t, env.branch.id)
    await c.send(c.msg('hello', { report_interval_s: 600, fw_version: 'C2.0' }))
    const state = () =>
      one<{ offline: boolean; next_deadline_at: Date | null }>(
        env.t.db,
        sql`SELECT offline, next_deadline_at FROM cabinet_states WHERE cabinet_id = ${c.id}`,
      )
    expect((await state())?.next_deadline_at).toEqual(new Date(clock.now().getTime() + 35 * 60_000))
    await live(30 * 60_000, 30_000)
    expect((await state())?.offline).toBe(false)
    await live(6 * 60_000, 30_000)
    expect(await state()).toEqual({ offline: true, next_deadline_at: null })
    await c.send(c.msg('heartbeat', { battery: 50 }))
    expect((await state())?.offline).toBe(false)
    const row = await one<{ battery_power: number; fw_version: string }>(
      env.t.db,
      sql`SELECT battery_power, fw_version FROM cabinets WHERE id = ${c.id}`,
    )
    expect(row).toEqual({ battery_power: 50, fw_version: 'C2.0' })
    // The cabinet list follows both without a reload (frame 17).
    await drainOutbox(env.t.ctx)
    const pushes = await many<{ data: Record<string, unknown> }>(
      env.t.db,
      sql`SELECT data FROM live_pushes WHERE data_type = 17 AND (data->>'cabinet_id')::int = ${c.id} ORDER BY id`,
    )
    expect(pushes.map((p) => p.data.online)).toEqual([false, true])
  })
})

describe('the AED leaves its cabinet', () => {
  it('aed_present false during an open door marks it left; its rescue names the cabinet and the door event', async () => {
    const { d, c } = await boundPair()
    await c.send(c.msg('door', { door_status: 1 }))
    clock.advance(10_000)
    await c.send(c.msg('cabinet_status', { door_status: 1, aed_present: false }))
    const [event] = await doorEvents(c.id)
    expect(event.aed_left_at).toEqual(clock.now())
    clock.advance(20_000)
    await d.send(
      d.msg('usage', { rescue_event_id: 'RC1', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    const rescue = await one<{ cabinet_id: number; cabinet_door_event_id: number }>(
      env.t.db,
      sql`SELECT cabinet_id, cabinet_door_event_id FROM rescue_events WHERE device_id = ${d.id}`,
    )
    expect(rescue).toEqual({ cabinet_id: c.id, cabinet_door_event_id: event.id })
  })

  it('a rescue that starts while the door is open marks the AED left, in whichever order the messages come', async () => {
    // The door first.
    const a = await boundPair()
    await a.c.send(a.c.msg('door', { door_status: 1 }))
    clock.advance(15_000)
    await a.d.send(
      a.d.msg('usage', { rescue_event_id: 'RA', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    const [ea] = await doorEvents(a.c.id)
    expect(ea.aed_left_at).toEqual(clock.now())
    // The rescue first (the cabinet's message came later).
    const b = await boundPair()
    await b.d.send(
      b.d.msg('usage', { rescue_event_id: 'RB', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    clock.advance(5_000)
    await b.c.send(b.c.msg('door', { door_status: 1 }))
    const [eb] = await doorEvents(b.c.id)
    expect(eb.aed_left_at).toEqual(clock.now())
    const rescue = await one<{ cabinet_id: number; cabinet_door_event_id: number }>(
      env.t.db,
      sql`SELECT cabinet_id, cabinet_door_event_id FROM rescue_events WHERE device_id = ${b.d.id}`,
    )
    expect(rescue).toEqual({ cabinet_id: b.c.id, cabinet_door_event_id: eb.id })
  })

  it('an AED not back two hours after the door closed is warned "not returned" until the cabinet has it again', async () => {
    const { d, c } = await boundPair()
    await d.send(
      d.msg('hello', { report_interval_s: 86400 }),
      d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }),
    )
    await c.send(c.msg('hello', { report_interval_s: 86400 }))
    await c.send(c.msg('door', { door_status: 1 }))
    await c.send(c.msg('cabinet_status', { door_status: 1, aed_present: false }))
    clock.advance(60_000)
    await c.send(c.msg('door', { door_status: 0 }))
    const closedAt = clock.now()
    expect((await doorEvents(c.id))[0].return_due_at).toEqual(new Date(closedAt.getTime() + AED_RETURN_MS))
    await live(AED_RETURN_MS - 4 * 60_000)
    expect(await openWarnings(d.id)).toEqual([])
    await live(6 * 60_000)
    expect(await openWarnings(d.id)).toEqual([
      { code: 'not_returned', content: `AED未归还救护箱（${c.sn}）` },
    ])
    // Its status shows the warning; the AED's own next message keeps it open.
    await d.send(d.msg('heartbeat', { battery: 89 }))
    expect((await openWarnings(d.id)).map((w) => w.code)).toEqual(['not_returned'])
    const status = await one<{ status: number; readiness: string }>(
      env.t.db,
      sql`SELECT status, readiness FROM devices WHERE id = ${d.id}`,
    )
    expect(status).toEqual({ status: 1, readiness: 'ready' })
    // The cabinet has it again: the warning closes.
    clock.advance(60_000)
    await c.send(c.msg('cabinet_status', { door_status: 0, aed_present: true }))
    expect(await openWarnings(d.id)).toEqual([])
    expect((await doorEvents(c.id))[0]).toMatchObject({ aed_back_at: clock.now(), return_due_at: null })
    // Nothing more is raised later.
    await live(10 * 60_000)
    expect(await openWarnings(d.id)).toEqual([])
  })

  it('an AED back before the hours pass is never warned', async () => {
    const { d, c } = await boundPair()
    await c.send(c.msg('door', { door_status: 1 }))
    await c.send(c.msg('cabinet_status', { door_status: 1, aed_present: false }))
    await c.send(c.msg('door', { door_status: 0 }))
    await live(30 * 60_000)
    await c.send(c.msg('cabinet_status', { door_status: 0, aed_present: true }))
    await live(AED_RETURN_MS)
    expect(await openWarnings(d.id)).toEqual([])
    expect((await doorEvents(c.id))[0].not_returned_at).toBeNull()
  })
})
