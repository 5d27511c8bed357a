import { type Device, deviceApi } from '@aed/contracts/device'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { type deviceLink, deviceTestApp } from '../../test/device-link.ts'
import type { TestApp } from '../../test/harness.ts'

// The HTTPS transport of the device gateway, end to end: signature, nonce, ts, batch and
// validation rules of docs/device-protocol.md, and what the engine made of what was accepted.

let t: TestApp
let admin: string
let registered: () => Promise<Awaited<ReturnType<typeof deviceLink>>>
const clock = new TestClock('2026-11-22T02:00:00.000Z')

beforeAll(async () => {
  ;({ t, admin, registered } = await deviceTestApp(clock))
})
afterAll(() => t.close())

const inbox = (deviceId: number) =>
  many<{ msg_id: string; outcome: string | null; type: string }>(
    t.db,
    sql`SELECT msg_id, outcome, type FROM device_inbox WHERE sender_id = ${deviceId} ORDER BY id`,
  )

const device = (id: number) =>
  one<{ status: number; readiness: string; readiness_reasons: string[]; battery: number | null }>(
    t.db,
    sql`SELECT status, readiness, readiness_reasons, battery FROM devices WHERE id = ${id}`,
  )

describe('signed HTTPS', () => {
  it('accepts a signed batch, answers the ids after commit, and the engine applies them', async () => {
    const d = await registered()
    const hello = d.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 3600 })
    const beat = d.msg('heartbeat', { battery: 87, rssi: -71 })
    const r = await d.post([hello, beat])
    expect(r.status).toBe(200)
    expect(r.code).toBe(0)
    expect(r.data).toEqual({ acked: [hello.id, beat.id], duplicates: [], cmds: [] })
    expect((await inbox(d.id)).map((x) => x.outcome)).toEqual(['applied', 'applied'])
    expect(await device(d.id)).toMatchObject({
      status: 0,
      readiness: 'ready',
      readiness_reasons: [],
      battery: 87,
    })
  })

  it('refuses a bad signature, a stale ts, an unknown serial and a replayed nonce with 401 code -1', async () => {
    const d = await registered()
    const m = d.msg('heartbeat', { battery: 50 })
    const bad = await d.post([m], { secret: 'f'.repeat(64) })
    expect([bad.status, bad.code]).toEqual([401, -1])
    const stale = await d.post([m], { ts: clock.now().getTime() - 16 * 60_000 })
    expect([stale.status, stale.code]).toEqual([401, -1])
    const nonce = 'n'.repeat(20) + Date.now()
    expect((await d.post([m], { nonce })).code).toBe(0)
    const replay = await d.post([d.msg('heartbeat', { battery: 50 })], { nonce })
    expect([replay.status, replay.code]).toEqual([401, -1])
    const { signDeviceRequest } = await import('../../plugins/auth/device.ts')
    const payload = JSON.stringify([m])
    const headers = signDeviceRequest('A64NOSUCH01', d.secret, {
      method: 'POST',
      path: '/device-api/v1/messages',
      body: payload,
      ts: clock.now().getTime(),
    })
    const ghost = await t.app.inject({ method: 'POST', url: '/device-api/v1/messages', headers, payload })
    expect([ghost.statusCode, ghost.json().code]).toEqual([401, -1])
    expect((await inbox(d.id)).length).toBe(1)
  })

  it('refuses a malformed message by id and field, and stores nothing of the request', async () => {
    const d = await registered()
    const good = d.msg('heartbeat', { battery: 40 })
    const bad = d.msg('heartbeat', { battery: 140 })
    const r = await d.post([good, bad])
    expect(r.code).toBe(1)
    expect(r.msg).toContain(bad.id)
    expect(r.msg).toContain('data.battery')
    const nul = await d.post([d.msg('heartbeat', { battery: 40, note: 'a\u0000b' })])
    expect(nul.code).toBe(1)
    expect(nul.msg).toContain('data')
    const noEnvelope = await d.post([{ id: 'x1', type: 'heartbeat' }])
    expect(noEnvelope.code).toBe(1)
    expect(await inbox(d.id)).toEqual([])
  })

  it('takes at most 100 messages in a batch', async () => {
    const d = await registered()
    const many101 = Array.from({ length: 101 }, () => d.msg('heartbeat', { battery: 60 }))
    expect((await d.post(many101)).code).toBe(1)
    expect((await d.post([])).code).toBe(1)
    const r = await d.post(many101.slice(0, 100))
    expect(r.code).toBe(0)
    expect(r.data.acked).toHaveLength(100)
  })

  it('acknowledges a duplicate and processes it once', async () => {
    const d = await registered()
    const st = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] })
    expect((await d.send(st)).acked).toEqual([st.id])
    expect((await d.send(st)).duplicates).toEqual([st.id])
    const faults = await many(
      t.db,
      sql`SELECT id FROM device_events WHERE device_id = ${d.id} AND kind = 'fault'`,
    )
    const tests = await many(t.db, sql`SELECT id FROM device_detections WHERE device_id = ${d.id}`)
    expect([faults.length, tests.length]).toEqual([1, 1])
  })

  it('stores an unknown type and ignores it', async () => {
    const d = await registered()
    const odd = d.msg('thermometer', { celsius: 21 })
    expect((await d.send(odd)).acked).toEqual([odd.id])
    expect(await inbox(d.id)).toEqual([{ msg_id: odd.id, outcome: 'ignored', type: 'thermometer' }])
  })
})

describe('the engine through the gateway', () => {
  it('a failed self-test makes the device fault and not ready; a passed one makes it ready again', async () => {
    const d = await registered()
    await d.send(d.msg('heartbeat', { battery: 90 }))
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02', 'E05'] }))
    expect(await device(d.id)).toMatchObject({
      status: 2,
      readiness: 'not_ready',
      readiness_reasons: ['fault'],
    })
    const open = await many<{ code: string; content: string }>(
      t.db,
      sql`SELECT code, content FROM device_events WHERE device_id = ${d.id} AND kind = 'fault' AND closed_at IS NULL ORDER BY code`,
    )
    expect(open).toEqual([
      { code: 'E02', content: '电池故障' },
      { code: 'E05', content: '心电采集电路故障' },
    ])
    // The list and the detail show it as the operator reads it.
    const shown = await t.api(deviceApi.detail, { token: admin, params: { id: d.id } })
    expect(shown.data).toMatchObject({
      status: 2,
      readiness: 'not_ready',
      readiness_text: '不可用',
      readiness_reasons_text: ['自检故障'],
      last_pass_time: null,
    })
    expect(shown.data.last_report_time).not.toBeNull()
    clock.advance(60_000)
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }))
    expect(await device(d.id)).toMatchObject({ status: 0, readiness: 'ready' })
    const listed = await t.api(deviceApi.list, { token: admin, query: { device_sn: d.sn } })
    const row = (listed.data as { resource: Device[] }).resource[0]
    expect(row).toMatchObject({ readiness: 'ready', readiness_reasons: [] })
    expect(row.last_pass_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    const left = await many(
      t.db,
      sql`SELECT id FROM device_events WHERE device_id = ${d.id} AND closed_at IS NULL`,
    )
    expect(left).toEqual([])
    const pushes = await many<{ payload: { status: number } }>(
      t.db,
      sql`SELECT payload FROM outbox WHERE topic = 'live' AND payload->>'device_id' = ${String(d.id)} ORDER BY id`,
    )
    expect(pushes.map((p) => p.payload.status)).toEqual([0, 2, 0])
  })

  it('a status push carries the status the map shows (normal where the site hides abnormal states) and the site', async () => {
    const d = await registered()
    await t.db.execute(
      sql`UPDATE installations SET disable_abnormal_display = 1
          WHERE id = (SELECT installation_id FROM devices WHERE id = ${d.id})`,
    )
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
    const site = await one<{ lon: number; lat: number }>(
      t.db,
      sql`SELECT i.lon, i.lat FROM installations i JOIN devices d ON d.installation_id = i.id WHERE d.id = ${d.id}`,
    )
    const push = await one<{ payload: Record<string, unknown> }>(
      t.db,
      sql`SELECT payload FROM outbox WHERE topic = 'live' AND payload->>'device_id' = ${String(d.id)}
          ORDER BY id DESC LIMIT 1`,
    )
    expect(push?.payload).toMatchObject({ status: 2, shown_status: 0, lon: site?.lon, lat: site?.lat })
  })

  it('an older (boot, seq) is stored but does not roll the state back', async () => {
    const d = await registered()
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }, { seq: 10 }))
    const old = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }, { seq: 5 })
    await d.send(old)
    expect(await device(d.id)).toMatchObject({ status: 0, readiness: 'ready' })
    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual(['applied', 'stale'])
    const tests = await many(t.db, sql`SELECT id FROM device_detections WHERE device_id = ${d.id}`)
    expect(tests).toHaveLength(2)
  })

  it('a rescue starts on the first usage step, logs its steps, and leaves its message (the alarm goes with it), SMS and webhook in the outbox', async () => {
    const d = await registered()
    const at = clock.now().getTime()
    await d.send(
      d.msg('usage', { rescue_event_id: 'R1', event_time: at, event_desc: 'power_on' }),
      d.msg('usage', { rescue_event_id: 'R1', event_time: at + 30_000, event_desc: 'pads_on_patient' }),
      d.msg('usage', {
        rescue_event_id: 'R1',
        event_time: at + 90_000,
        event_desc: 'shock_delivered',
        event_para: { joules: 150 },
      }),
    )
    const rescues = await many<{ id: number; ended_at: Date | null }>(
      t.db,
      sql`SELECT id, ended_at FROM rescue_events WHERE device_id = ${d.id}`,
    )
    expect(rescues).toHaveLength(1)
    expect(rescues[0].ended_at).toBeNull()
    const steps = await many<{ event_desc: string; event_para: string | null }>(
      t.db,
      sql`SELECT event_desc, event_para FROM device_usage_logs WHERE device_id = ${d.id} ORDER BY event_time`,
    )
    expect(steps.map((s) => s.event_desc)).toEqual(['power_on', 'pads_on_patient', 'shock_delivered'])
    expect(steps[2].event_para).toBe('{"joules":150}')
    expect((await device(d.id))?.readiness_reasons).toContain('in_use')
    const told = await many<{ topic: string; payload: Record<string, unknown> }>(
      t.db,
      sql`SELECT topic, payload FROM outbox WHERE dedupe_key LIKE ${`%rescue:${rescues[0].id}`} ORDER BY topic`,
    )
    expect(
      told.map((x) => [
        x.topic,
        x.payload.data_type ?? x.payload.msg_type ?? x.payload.sms ?? x.payload.event,
      ]),
    ).toEqual([
      ['message', 2],
      ['sms', 'aid'],
      ['webhook', 'device.rescue.started'],
    ])
  })

  it('an ECG upload attaches to its rescue', async () => {
    const d = await registered()
    await d.send(
      d.msg('usage', { rescue_event_id: 'R9', event_time: clock.now().getTime(), event_desc: 'power_on' }),
    )
    const bytes = Buffer.from('ECG'.repeat(1000))
    const path = '/device-api/v1/files?kind=ecg&rescue_event_id=R9'
    const { signDeviceRequest } = await import('../../plugins/auth/device.ts')
    const headers = signDeviceRequest(d.sn, d.secret, {
      method: 'POST',
      path,
      body: bytes,
      ts: clock.now().getTime(),
    })
    const res = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: bytes,
    })
    const body = res.json() as { code: number; data: { file_id: string; sha256: string } }
    expect(body.code).toBe(0)
    expect(body.data.sha256).toMatch(/^[0-9a-f]{64}$/)
    const r = await one<{ ecg_file_url: string | null }>(
      t.db,
      sql`SELECT ecg_file_url FROM rescue_events WHERE device_id = ${d.id} AND rescue_event_id = 'R9'`,
    )
    expect(r?.ecg_file_url).toBeTruthy()
  })
})
