import { deviceCommandApi } from '@aed/contracts/device-command'
import { settingsApi } from '@aed/contracts/settings'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { createJobRunner } from '../../jobs/runner.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceLink, deviceTestFile, keptFailure } from '../../test/device-link.ts'
import { deviceJobs } from '../device/device.jobs.ts'
import { engineJobs, recheckWarnings, SWEEP_EVERY_MS } from './engine.jobs.ts'
import { retryInbox } from './engine.service.ts'
import { failed } from './inbox.ts'

// The engine's jobs on a clock the test moves: the offline sweep (and the platform's own
// outage), expiry re-checks after a settings change, the retry of messages kept after a
// failure, and commands riding on HTTPS answers.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

const runner = () =>
  createJobRunner(env.t.ctx, [...engineJobs, ...deviceJobs], { log: pino({ level: 'silent' }) })
const state = (id: number) =>
  one<{ status: number; readiness: string }>(
    env.t.db,
    sql`SELECT status, readiness FROM devices WHERE id = ${id}`,
  )
const openKinds = async (id: number) =>
  (
    await many<{ kind: string; code: string }>(
      env.t.db,
      sql`SELECT kind, code FROM device_events WHERE device_id = ${id} AND closed_at IS NULL ORDER BY kind, code`,
    )
  ).map((e) => (e.code ? `${e.kind}:${e.code}` : e.kind))

/** Moves the clock in sweep-sized steps, ticking the jobs each time, as a running server would. */
async function live(ms: number) {
  const r = runner()
  for (let left = ms; left > 0; left -= SWEEP_EVERY_MS) {
    clock.advance(Math.min(SWEEP_EVERY_MS, left))
    await r.tick()
  }
}

describe('offline sweep', () => {
  it('marks a silent device offline after interval × 3 + grace, and its next message brings it back', async () => {
    const d = await env.registered()
    const hello = d.msg('hello', { report_interval_s: 600 })
    const pass = d.msg('selftest', { report_type: 0, result: 'pass' })
    await d.send(hello, pass, d.msg('heartbeat', { battery: 80 }))
    await live(30 * 60_000) // 3 × 10 min = 30 min: not yet (grace 5 min)
    expect(await openKinds(d.id)).toEqual([])
    await live(6 * 60_000)
    expect(await openKinds(d.id)).toEqual(['offline'])
    expect(await state(d.id)).toEqual({ status: 4, readiness: 'unknown' })
    const ev = await one<{ event_time: Date }>(
      env.t.db,
      sql`SELECT event_time FROM device_events WHERE device_id = ${d.id} AND kind = 'offline'`,
    )
    // Offline since the deadline it missed (35 min after the heartbeat), not since the sweep saw it.
    expect(ev?.event_time.getTime()).toBeLessThanOrEqual(clock.now().getTime())
    await d.send(d.msg('heartbeat', { battery: 79 }))
    expect(await openKinds(d.id)).toEqual([])
    expect(await state(d.id)).toEqual({ status: 0, readiness: 'ready' })
  })

  it('does not mark devices offline for the time the platform itself was down', async () => {
    const d = await env.registered()
    await d.send(d.msg('hello', { report_interval_s: 600 }), d.msg('heartbeat', { battery: 80 }))
    await live(SWEEP_EVERY_MS)
    clock.advance(4 * 3600_000) // the server was away for four hours
    await runner().tick()
    expect(await openKinds(d.id)).toEqual([])
    // Its deadline moved by the outage: silence after the restart still counts.
    await live(40 * 60_000)
    expect(await openKinds(d.id)).toEqual(['offline'])
  })
})

describe('offline sweep edge cases', () => {
  it('a deleted device that stopped reporting does not hold up the sweep for the others', async () => {
    const gone = await env.registered()
    await gone.send(gone.msg('hello', { report_interval_s: 600 }))
    await env.t.db.execute(sql`UPDATE devices SET deleted_at = now() WHERE id = ${gone.id}`)
    const d = await env.registered()
    await d.send(d.msg('hello', { report_interval_s: 600 }))
    await live(40 * 60_000)
    expect(await openKinds(d.id)).toEqual(['offline'])
    expect(await openKinds(gone.id)).toEqual([])
  })

  it('a rescue with no step for an hour ends even when the device says nothing more', async () => {
    const d = await env.registered()
    await d.send(
      d.msg('hello', { report_interval_s: 86_400 }),
      d.msg('selftest', { report_type: 0, result: 'pass' }),
    )
    await d.send(
      d.msg('usage', { rescue_event_id: 'Q1', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    expect((await state(d.id))?.readiness).toBe('not_ready')
    await live(61 * 60_000)
    expect((await state(d.id))?.readiness).toBe('ready')
    const r = await one<{ ended_at: Date | null }>(
      env.t.db,
      sql`SELECT ended_at FROM rescue_events WHERE device_id = ${d.id}`,
    )
    expect(r?.ended_at).not.toBeNull()
  })

  it('an old step of another rescue files into history and leaves the rescue under way alone', async () => {
    const d = await env.registered()
    const at = clock.now().getTime()
    await d.send(
      d.msg('usage', { rescue_event_id: 'R2', event_time: at, event_desc: 'power_on' }, { seq: 30 }),
    )
    await d.send(
      d.msg('usage', { rescue_event_id: 'R1', event_time: at - 60_000, event_desc: 'power_on' }, { seq: 20 }),
    )
    const rescues = await many<{ rescue_event_id: string; ended: boolean }>(
      env.t.db,
      sql`SELECT rescue_event_id, ended_at IS NOT NULL AS ended FROM rescue_events WHERE device_id = ${d.id} ORDER BY rescue_event_id`,
    )
    expect(rescues).toEqual([
      { rescue_event_id: 'R1', ended: true },
      { rescue_event_id: 'R2', ended: false },
    ])
  })
})

describe('warnings follow the settings and the site', () => {
  it('a longer reminder opens the pads warning at once; a shorter one closes it', async () => {
    const soon = new Date(clock.now().getTime() + 50 * 86_400_000).toISOString().slice(0, 10)
    const dev = await env.f.registeredDevice(env.admin, env.branch, { electrode_sheet_expire: soon })
    const d = await deviceLink(env.t, dev.device_sn)
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }))
    expect(await openKinds(d.id)).toEqual([]) // 50 days is beyond the default 1 month
    const base = (await env.t.api(settingsApi.get, { token: env.admin })).data
    const { agency_id: _a, ...settings } = base as typeof base & { agency_id: number }
    const remindMonths = (months: number) =>
      env.t.api(settingsApi.save, { token: env.admin, body: { ...settings, electrode_sheet_expire: months } })
    expect((await remindMonths(2)).code).toBe(0)
    expect(await openKinds(d.id)).toEqual(['warning:pads_expiring'])
    expect(await state(d.id)).toEqual({ status: 1, readiness: 'ready' })
    expect((await remindMonths(1)).code).toBe(0)
    expect(await openKinds(d.id)).toEqual([])
  })

  it('the daily re-check opens an expired warning once the day passes', async () => {
    const tomorrow = new Date(clock.now().getTime() + 86_400_000).toISOString().slice(0, 10)
    const dev = await env.f.registeredDevice(env.admin, env.branch, { battery_expire: tomorrow })
    const d = await deviceLink(env.t, dev.device_sn)
    await d.send(d.msg('heartbeat', { battery: 90 }))
    expect(await openKinds(d.id)).toEqual(['warning:battery_expiring'])
    clock.advance(3 * 86_400_000)
    await recheckWarnings(env.t.ctx)
    expect(await openKinds(d.id)).toEqual(['warning:battery_expired'])
    expect((await state(d.id))?.readiness).not.toBe('ready')
  })
})

describe('nothing acknowledged is lost', () => {
  it('a message whose processing failed is kept, acknowledged, and applied once by the retry', async () => {
    const d = await env.registered()
    // The engine broken for this device only (its detections cannot be written), then repaired.
    const m = await keptFailure(env.t, d, 'E04')
    const kept = await one<{ outcome: string; error: string }>(
      env.t.db,
      sql`SELECT outcome, error FROM device_inbox WHERE msg_id = ${m.id}`,
    )
    expect(kept).toMatchObject({ outcome: 'failed' })
    expect(kept?.error).toContain('disk full')
    expect(await openKinds(d.id)).toEqual([])
    await retryInbox(env.t.ctx)
    await retryInbox(env.t.ctx)
    expect(await openKinds(d.id)).toEqual(['fault:E04'])
    const tests = await many(env.t.db, sql`SELECT id FROM device_detections WHERE device_id = ${d.id}`)
    expect(tests).toHaveLength(1)
  })

  it('a failure recorded after the message was applied elsewhere leaves it applied: it is not applied twice', async () => {
    const d = await env.registered()
    const m = await keptFailure(env.t, d, 'E06')
    const row = await one<{ id: number }>(env.t.db, sql`SELECT id FROM device_inbox WHERE msg_id = ${m.id}`)
    await retryInbox(env.t.ctx)
    // The first attempt's failure, recorded late (its connection was reset after another path applied it).
    await failed(env.t.ctx, row!.id, 'read ECONNRESET')
    await retryInbox(env.t.ctx)
    const after = await one<{ outcome: string }>(
      env.t.db,
      sql`SELECT outcome FROM device_inbox WHERE id = ${row!.id}`,
    )
    expect(after).toEqual({ outcome: 'applied' })
    const tests = await many(env.t.db, sql`SELECT id FROM device_detections WHERE device_id = ${d.id}`)
    expect(tests).toHaveLength(1)
  })
})

describe('a deleted device', () => {
  it('a message kept after a failure is not applied once its device is deleted: ignored by the retry', async () => {
    const d = await env.registered()
    const m = await keptFailure(env.t, d, 'E05')
    await env.t.db.execute(sql`UPDATE devices SET deleted_at = now() WHERE id = ${d.id}`)
    await retryInbox(env.t.ctx)
    const row = await one<{ outcome: string }>(
      env.t.db,
      sql`SELECT outcome FROM device_inbox WHERE msg_id = ${m.id}`,
    )
    expect(row).toEqual({ outcome: 'ignored' })
    expect(await openKinds(d.id)).toEqual([])
  })
})

describe('order after a failure', () => {
  it('a message kept after a failure is applied before the next one of its device', async () => {
    const d = await env.registered()
    await keptFailure(env.t, d, 'E09')
    // The next message (a heartbeat) would make the self-test stale if it went first.
    await d.send(d.msg('heartbeat', { battery: 90 }))
    expect(await openKinds(d.id)).toEqual(['fault:E09'])
  })
})

describe('commands', () => {
  it('a self-test asked from the console rides on the next HTTPS answer and its ack is recorded', async () => {
    const dev = await env.f.registeredDevice(env.admin, env.branch)
    const d = await deviceLink(env.t, dev.device_sn)
    const sent = await env.t.api(deviceCommandApi.send, {
      token: env.admin,
      params: { id: d.id },
      body: { name: 'selftest' },
    })
    expect(sent.code).toBe(0)
    expect(sent.data.state).toBe('pending')
    const answer = await d.send(d.msg('heartbeat', { battery: 88 }))
    expect(answer.cmds).toEqual([expect.objectContaining({ cmd_id: sent.data.cmd_id, name: 'selftest' })])
    await d.send(d.msg('ack', { cmd_id: sent.data.cmd_id, ok: true }))
    const list = await env.t.api(deviceCommandApi.list, { token: env.admin, params: { id: d.id } })
    expect(list.data[0]).toMatchObject({ cmd_id: sent.data.cmd_id, state: 'done' })
    expect(list.data[0].sent_at).not.toBeNull()
    expect(list.data[0].ack_time).not.toBeNull()
    // Answered once: the next check-in carries nothing.
    expect((await d.send(d.msg('heartbeat', { battery: 88 }))).cmds).toEqual([])
  })

  it('only a super administrator sends commands; unanswered ones expire', async () => {
    const dev = await env.f.registeredDevice(env.admin, env.branch)
    const editor = (await env.f.signedIn(env.branch, { role_type: 1, permissions: { device: 'EDIT' } })).token
    const refused = await env.t.api(deviceCommandApi.send, {
      token: editor,
      params: { id: dev.id },
      body: { name: 'locate' },
    })
    expect(refused.code).toBe(-2)
    const ok = await env.t.api(deviceCommandApi.send, {
      token: env.admin,
      params: { id: dev.id },
      body: { name: 'locate' },
    })
    expect(ok.code).toBe(0)
    clock.advance(25 * 3600_000)
    await live(60_000)
    const list = await env.t.api(deviceCommandApi.list, { token: env.admin, params: { id: dev.id } })
    expect(list.data[0]).toMatchObject({ cmd_id: ok.data.cmd_id, state: 'expired' })
  })
})
