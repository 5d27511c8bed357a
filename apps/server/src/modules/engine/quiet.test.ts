import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { retryInbox } from './engine.service.ts'
import { hintFault } from './quiet.ts'

// The quiet batch: heartbeats and passing self-tests written together, and every case where a
// passing self-test changes something handed to the engine instead.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

const inbox = (deviceId: number) =>
  many<{ type: string; outcome: string | null }>(
    env.t.db,
    sql`SELECT type, outcome FROM device_inbox WHERE sender_kind = 'aed' AND sender_id = ${deviceId} ORDER BY id`,
  )
const detections = (deviceId: number) =>
  many<{ check_result: number; battery: number | null; check_time: Date; installation_id: number | null }>(
    env.t.db,
    sql`SELECT check_result, battery, check_time, installation_id FROM device_detections
        WHERE device_id = ${deviceId} ORDER BY id`,
  )
const device = (deviceId: number) =>
  one<{
    status: number
    readiness: string
    battery: number | null
    last_pass_at: Date | null
    installation_id: number
  }>(
    env.t.db,
    sql`SELECT status, readiness, battery, last_pass_at, installation_id FROM devices WHERE id = ${deviceId}`,
  )
const openFaults = async (deviceId: number) =>
  (
    await many<{ code: string }>(
      env.t.db,
      sql`SELECT code FROM device_events WHERE device_id = ${deviceId} AND kind = 'fault' AND closed_at IS NULL`,
    )
  ).map((e) => e.code)

describe('quiet batch', () => {
  it('writes a passing self-test of a healthy device in the batch: its record and last pass, nothing else', async () => {
    const d = await env.registered()
    // The first message of a device that never reported goes to the engine (it makes its state),
    // and so does its first passing self-test (it makes its readiness known): here they are one.
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }))
    const before = await device(d.id)
    clock.advance(60_000)
    const test = d.msg('selftest', { report_type: 2, result: 'pass', battery: 88 })
    expect((await d.send(test)).acked).toEqual([test.id])

    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual(['applied', 'coalesced'])
    const records = (await detections(d.id)).slice(1)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({
      check_result: 1,
      battery: 88,
      installation_id: before?.installation_id,
    })
    expect(records[0].check_time.getTime()).toBe(test.ts)
    const after = await device(d.id)
    expect(after).toMatchObject({ status: 0, readiness: 'ready', battery: 88 })
    expect(after?.last_pass_at?.getTime()).toBe(test.ts)
  })

  it('hands the engine a pass that closes a fault, even when this process did not see the fault open', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))
    expect(await openFaults(d.id)).toEqual(['E02'])
    // As if another server instance had opened it: this one holds no hint.
    hintFault(env.t.ctx, d.id, false)
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }))
    expect(await openFaults(d.id)).toEqual([])
    expect(await device(d.id)).toMatchObject({ status: 0, readiness: 'ready' })
    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual(['applied', 'applied'])
    expect((await detections(d.id)).map((r) => r.check_result)).toEqual([0, 1])
  })

  it('hands the engine a pass that brings new pads dates, and the site takes them', async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 90 }))
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass', electrode_sheet_expire: '2029-03-01' }))
    const installation = await one<{ pads: string }>(
      env.t.db,
      sql`SELECT i.electrode_sheet_expire::text AS pads FROM installations i JOIN devices d ON d.installation_id = i.id
          WHERE d.id = ${d.id}`,
    )
    expect(installation?.pads).toBe('2029-03-01')
    expect((await inbox(d.id)).at(-1)?.outcome).toBe('applied')
    expect(await detections(d.id)).toHaveLength(1)
  })

  it("writes a device's batch of heartbeats and self-tests together, a record for each self-test", async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }))
    clock.advance(60_000)
    const first = d.msg('selftest', { report_type: 1, result: 'pass', battery: 89 })
    const beat = d.msg('heartbeat', { battery: 88, rssi: -60, cable_voltage: 12.5 })
    const second = d.msg('selftest', { report_type: 2, result: 'pass' }, { ts: clock.now().getTime() + 1000 })
    const last = d.msg('heartbeat', { battery: 87 })
    expect((await d.send(first, beat, second, last)).acked).toHaveLength(4)
    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual([
      'applied',
      'coalesced',
      'coalesced',
      'coalesced',
      'coalesced',
    ])
    expect((await detections(d.id)).map((r) => [r.check_result, r.battery])).toEqual([
      [1, 90],
      [1, 89],
      [1, null],
    ])
    const after = await device(d.id)
    expect(after).toMatchObject({ battery: 87, status: 0 })
    expect(after?.last_pass_at?.getTime()).toBe(second.ts)
    const st = await one<{ last_seq: number; rssi: number; cable_voltage: number }>(
      env.t.db,
      sql`SELECT last_seq, rssi, cable_voltage FROM device_states WHERE device_id = ${d.id}`,
    )
    expect(st).toEqual({ last_seq: last.seq, rssi: -60, cable_voltage: 12.5 })
  })

  it("hands the engine all of a device's rows when they are out of order or cross a battery band", async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 90 }))
    // Low battery (9% and below) opens a warning: the batch must not carry it through.
    const test = d.msg('selftest', { report_type: 1, result: 'pass', battery: 8 })
    const beat = d.msg('heartbeat', { battery: 50 })
    await d.send(test, beat)
    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual(['applied', 'applied', 'applied'])
    const warned = await many<{ code: string; closed: boolean }>(
      env.t.db,
      sql`SELECT code, closed_at IS NOT NULL AS closed FROM device_events WHERE device_id = ${d.id} AND kind = 'warning'`,
    )
    expect(warned).toEqual([{ code: 'battery_low', closed: true }])
    // Sent out of their own order: the older one is stale for the engine.
    const older = d.msg('selftest', { report_type: 1, result: 'pass' })
    const newer = d.msg('heartbeat', { battery: 60 })
    await d.send(newer, older)
    expect((await inbox(d.id)).slice(-2).map((r) => r.outcome)).toEqual(['applied', 'stale'])
    expect(await detections(d.id)).toHaveLength(2)
  })

  it('answers a resent message as a duplicate and still applies the new one beside it', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }))
    const first = d.msg('selftest', { report_type: 1, result: 'pass' })
    await d.send(first)
    const next = d.msg('heartbeat', { battery: 89 })
    const answer = await d.send(first, next)
    expect(answer).toMatchObject({ acked: [next.id], duplicates: [first.id] })
    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual(['applied', 'coalesced', 'applied'])
    expect(await detections(d.id)).toHaveLength(2)
    expect((await device(d.id))?.battery).toBe(89)
  })

  it('keeps and acknowledges a passing self-test whose record cannot be written, and the retry applies it once', async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 90 }))
    await env.t.db.execute(
      sql.raw(`CREATE FUNCTION refuse_quiet() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.device_id = ${d.id} THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`),
    )
    await env.t.db.execute(
      sql.raw(
        'CREATE TRIGGER refuse_quiet BEFORE INSERT ON device_detections FOR EACH ROW EXECUTE FUNCTION refuse_quiet()',
      ),
    )
    const test = d.msg('selftest', { report_type: 1, result: 'pass' })
    try {
      expect((await d.send(test)).acked).toEqual([test.id])
      expect((await inbox(d.id)).at(-1)?.outcome).toBe('failed')
      expect(await detections(d.id)).toHaveLength(0)
    } finally {
      await env.t.db.execute(sql.raw('DROP TRIGGER refuse_quiet ON device_detections'))
      await env.t.db.execute(sql.raw('DROP FUNCTION refuse_quiet()'))
    }
    await retryInbox(env.t.ctx)
    await retryInbox(env.t.ctx)
    expect((await inbox(d.id)).at(-1)?.outcome).toBe('applied')
    expect(await detections(d.id)).toHaveLength(1)
  })
})
