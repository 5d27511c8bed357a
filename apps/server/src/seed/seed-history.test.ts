import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../db/sql.ts'
import { TestClock } from '../lib/clock.ts'
import { factories } from '../test/factories.ts'
import { fileTestApp } from '../test/harness.ts'
import { historyWanted, seedHistory } from './seed-history.ts'

// The demo history goes through the real engine: a short one (three devices, two days) must
// leave the statuses, events, detections and rescue the seeded statuses ask for.

const t = fileTestApp()

describe('demo history', () => {
  it('runs the behaviour model through the engine and the offline sweep', async () => {
    // Three registered devices; the status the demo seed gave each is where its history ends.
    const f = factories(t)
    const branch = await f.agency(await f.agency(await f.root()))
    const admin = (await f.signedIn(branch)).token
    const pick = async (status: number) => {
      const d = await f.registeredDevice(admin, branch)
      await t.db.execute(sql`UPDATE devices SET status = ${status}, battery = 70 WHERE id = ${d.id}`)
      await t.db.execute(
        sql`UPDATE installations SET register_time = now() - interval '30 days' WHERE device_id = ${d.id}`,
      )
      return d.id as number
    }
    const normal = await pick(0)
    const fault = await pick(2)
    const offline = await pick(4)
    const end = new Date()
    t.ctx.clock = new TestClock(end)
    const r = await seedHistory(t.ctx, { days: 2, deviceIds: [normal, fault, offline], rescues: 1 })
    expect(r.devices).toBe(3)
    expect(r.messages).toBeGreaterThan(20)
    // The clock it ran on is the caller's again.
    expect(t.ctx.clock.now().getTime()).toBe(end.getTime())

    const devices = await many<{ id: number; status: number; readiness: string; battery: number | null }>(
      t.db,
      sql`SELECT id::int, status::int, readiness, battery::int FROM devices WHERE id IN (${normal}, ${fault}, ${offline})`,
    )
    const byId = new Map(devices.map((d) => [d.id, d]))
    expect(byId.get(fault)).toMatchObject({ status: 2, readiness: 'not_ready' })
    expect(byId.get(offline)).toMatchObject({ status: 4, readiness: 'unknown' })
    expect(byId.get(normal)!.battery).not.toBeNull()
    expect([0, 1]).toContain(byId.get(normal)!.status)

    const events = await many<{ device_id: number; kind: string; open: boolean }>(
      t.db,
      sql`SELECT device_id::int, kind, closed_at IS NULL AS open FROM device_events
          WHERE device_id IN (${normal}, ${fault}, ${offline})`,
    )
    expect(events).toContainEqual({ device_id: fault, kind: 'fault', open: true })
    expect(events).toContainEqual({ device_id: offline, kind: 'offline', open: true })

    const inbox = await many<{ type: string; n: number }>(
      t.db,
      sql`SELECT type, count(*)::int AS n FROM device_inbox WHERE sender_id IN (${normal}, ${fault}, ${offline}) GROUP BY type`,
    )
    const n = Object.fromEntries(inbox.map((x) => [x.type, x.n]))
    expect(n.hello).toBeGreaterThanOrEqual(3)
    expect(n.heartbeat).toBeGreaterThan(5)
    expect(n.selftest).toBeGreaterThanOrEqual(2)
    expect(n.usage).toBeGreaterThanOrEqual(4)

    const detections = await one<{ failed: number }>(
      t.db,
      sql`SELECT count(*) FILTER (WHERE check_result = 0)::int AS failed FROM device_detections WHERE device_id = ${fault}`,
    )
    expect(detections!.failed).toBeGreaterThan(0)

    // The rescue went on a normal device, ended, and has its ECG.
    const rescue = await one<{ ended: boolean; ecg: string | null; steps: number }>(
      t.db,
      sql`SELECT r.ended_at IS NOT NULL AS ended, r.ecg_file_url AS ecg,
            (SELECT count(*)::int FROM device_usage_logs u WHERE u.rescue_id = r.id) AS steps
          FROM rescue_events r WHERE r.device_id = ${normal}`,
    )
    expect(rescue).toMatchObject({ ended: true })
    expect(rescue!.steps).toBeGreaterThanOrEqual(5)
    expect(rescue!.ecg).toBeTruthy()

    // Nothing of the past is pushed or texted now.
    const pending = await one<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM outbox WHERE done_at IS NULL AND topic IN ('sms', 'live', 'webhook')`,
    )
    expect(pending!.n).toBe(0)
  })
})

describe('historyWanted', () => {
  it('is off under the test runner and with SEED_HISTORY=false', () => {
    expect(historyWanted({ SEED_HISTORY: true }, {})).toBe(true)
    expect(historyWanted({ SEED_HISTORY: true }, { VITEST: 'true' })).toBe(false)
    expect(historyWanted({ SEED_HISTORY: false }, {})).toBe(false)
  })
})
