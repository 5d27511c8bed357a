import { type Device, deviceApi } from '@aed/contracts/device'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile, hideAbnormalStates, postSignedAs } from '../../test/device-link.ts'

// The HTTPS transport of the device gateway, end to end: signature, nonce, ts, batch and
// validation rules of docs/device-protocol.md, and what the engine made of what was accepted.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

const inbox = (deviceId: number) =>
  many<{ msg_id: string; outcome: string | null; type: string }>(
    env.t.db,
    sql`SELECT msg_id, outcome, type FROM device_inbox WHERE sender_id = ${deviceId} ORDER BY id`,
  )

const device = (id: number) =>
  one<{ status: number; readiness: string; readiness_reasons: string[]; battery: number | null }>(
    env.t.db,
    sql`SELECT status, readiness, readiness_reasons, battery FROM devices WHERE id = ${id}`,
  )

describe('signed HTTPS', () => {
  it('accepts a signed batch, answers the ids after commit, and the engine applies them', async () => {
    const d = await env.registered()
    const hello = d.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 3600 })
    const pass = d.msg('selftest', { report_type: 0, result: 'pass' })
    const beat = d.msg('heartbeat', { battery: 87, rssi: -71 })
    const r = await d.post([hello, pass, beat])
    expect(r.status).toBe(200)
    expect(r.code).toBe(0)
    expect(r.data).toEqual({
      acked: [hello.id, pass.id, beat.id],
      duplicates: [],
      stale: [],
      refused: [],
      cmds: [],
    })
    expect((await inbox(d.id)).map((x) => x.outcome)).toEqual(['applied', 'applied', 'applied'])
    expect(await device(d.id)).toMatchObject({
      status: 0,
      readiness: 'ready',
      readiness_reasons: [],
      battery: 87,
    })
  })

  it('refuses a bad signature, a stale ts, an unknown serial and a replayed nonce with 401 code -1', async () => {
    const d = await env.registered()
    const m = d.msg('heartbeat', { battery: 50 })
    const bad = await d.post([m], { secret: 'f'.repeat(64) })
    expect([bad.status, bad.code]).toEqual([401, -1])
    const stale = await d.post([m], { ts: clock.now().getTime() - 16 * 60_000 })
    expect([stale.status, stale.code]).toEqual([401, -1])
    const nonce = 'n'.repeat(20) + Date.now()
    expect((await d.post([m], { nonce })).code).toBe(0)
    const replay = await d.post([d.msg('heartbeat', { battery: 50 })], { nonce })
    expect([replay.status, replay.code]).toEqual([401, -1])
    const ghost = await postSignedAs(env.t, 'A64NOSUCH01', d.secret, [m], clock.now().getTime())
    expect([ghost.statusCode, ghost.json().code]).toEqual([401, -1])
    expect((await inbox(d.id)).length).toBe(1)
  })

  it('refuses a malformed message by its place, id and field, and applies its neighbours', async () => {
    const d = await env.registered()
    const good = d.msg('heartbeat', { battery: 40 })
    const bad = d.msg('heartbeat', { battery: 140 })
    const r = await d.post([good, bad])
    expect(r.code).toBe(0)
    expect(r.data.acked).toEqual([good.id])
    expect(r.data.refused).toEqual([
      { index: 1, id: bad.id, code: 'invalid', field: 'data.battery', reason: expect.any(String) },
    ])
    const nul = await d.post([d.msg('heartbeat', { battery: 40, note: 'a\u0000b' })])
    expect(nul.data.refused).toMatchObject([{ index: 0, code: 'invalid', field: 'data.note' }])
    const noEnvelope = await d.post([{ id: 'x1', type: 'heartbeat' }])
    expect(noEnvelope.data.refused).toMatchObject([{ index: 0, id: 'x1', code: 'invalid' }])
    expect(await inbox(d.id)).toEqual([{ msg_id: good.id, outcome: 'applied', type: 'heartbeat' }])
  })

  it('takes at most 100 messages in a batch', async () => {
    const d = await env.registered()
    const many101 = Array.from({ length: 101 }, () => d.msg('heartbeat', { battery: 60 }))
    expect((await d.post(many101)).code).toBe(1)
    expect((await d.post([])).code).toBe(1)
    const r = await d.post(many101.slice(0, 100))
    expect(r.code).toBe(0)
    expect(r.data.acked).toHaveLength(100)
  })

  it('acknowledges a duplicate and processes it once', async () => {
    const d = await env.registered()
    const st = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] })
    expect((await d.send(st)).acked).toEqual([st.id])
    expect((await d.send(st)).duplicates).toEqual([st.id])
    const faults = await many(
      env.t.db,
      sql`SELECT id FROM device_events WHERE device_id = ${d.id} AND kind = 'fault'`,
    )
    const tests = await many(env.t.db, sql`SELECT id FROM device_detections WHERE device_id = ${d.id}`)
    expect([faults.length, tests.length]).toEqual([1, 1])
  })

  it('stores an unknown type and ignores it', async () => {
    const d = await env.registered()
    const odd = d.msg('thermometer', { celsius: 21 })
    expect((await d.send(odd)).acked).toEqual([odd.id])
    expect(await inbox(d.id)).toEqual([{ msg_id: odd.id, outcome: 'ignored', type: 'thermometer' }])
  })
})

describe('the engine through the gateway', () => {
  it('a failed self-test makes the device fault and not ready; a passed one makes it ready again', async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 90 }))
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02', 'E05'] }))
    expect(await device(d.id)).toMatchObject({
      status: 2,
      readiness: 'not_ready',
      readiness_reasons: ['fault'],
    })
    const open = await many<{ code: string; content: string }>(
      env.t.db,
      sql`SELECT code, content FROM device_events WHERE device_id = ${d.id} AND kind = 'fault' AND closed_at IS NULL ORDER BY code`,
    )
    expect(open).toEqual([
      { code: 'E02', content: '电池故障' },
      { code: 'E05', content: '心电采集电路故障' },
    ])
    // The list and the detail show it as the operator reads it.
    const shown = await env.t.api(deviceApi.detail, { token: env.admin, params: { id: d.id } })
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
    const listed = await env.t.api(deviceApi.list, { token: env.admin, query: { device_sn: d.sn } })
    const row = (listed.data as { resource: Device[] }).resource[0]
    expect(row).toMatchObject({ readiness: 'ready', readiness_reasons: [] })
    expect(row.last_pass_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    const left = await many(
      env.t.db,
      sql`SELECT id FROM device_events WHERE device_id = ${d.id} AND closed_at IS NULL`,
    )
    expect(left).toEqual([])
    const pushes = await many<{ payload: { status: number } }>(
      env.t.db,
      sql`SELECT payload FROM outbox WHERE topic = 'live' AND payload->>'device_id' = ${String(d.id)} ORDER BY id`,
    )
    expect(pushes.map((p) => p.payload.status)).toEqual([0, 2, 0])
  })

  it('a status push carries the status the map shows (normal where the site hides abnormal states) and the site', async () => {
    const d = await env.registered()
    await hideAbnormalStates(env.t, d.id)
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
    const installation = await one<{ lon: number; lat: number }>(
      env.t.db,
      sql`SELECT i.lon, i.lat FROM installations i JOIN devices d ON d.installation_id = i.id WHERE d.id = ${d.id}`,
    )
    const push = await one<{ payload: Record<string, unknown> }>(
      env.t.db,
      sql`SELECT payload FROM outbox WHERE topic = 'live' AND payload->>'device_id' = ${String(d.id)}
          ORDER BY id DESC LIMIT 1`,
    )
    expect(push?.payload).toMatchObject({
      status: 2,
      shown_status: 0,
      lon: installation?.lon,
      lat: installation?.lat,
    })
  })

  it('an older (boot, seq) is stored but does not roll the state back', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }, { seq: 10 }))
    const old = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }, { seq: 5 })
    // Answered as stale, not as applied: the device learns its message changed nothing current.
    expect(await d.send(old)).toMatchObject({ acked: [], stale: [old.id] })
    expect(await device(d.id)).toMatchObject({ status: 0, readiness: 'ready' })
    expect((await inbox(d.id)).map((r) => r.outcome)).toEqual(['applied', 'stale'])
    const tests = await many(env.t.db, sql`SELECT id FROM device_detections WHERE device_id = ${d.id}`)
    expect(tests).toHaveLength(2)
  })

  it('a rescue starts on the first usage step, logs its steps, and leaves its message (the alarm goes with it), SMS and webhook in the outbox', async () => {
    const d = await env.registered()
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
      env.t.db,
      sql`SELECT id, ended_at FROM rescue_events WHERE device_id = ${d.id}`,
    )
    expect(rescues).toHaveLength(1)
    expect(rescues[0].ended_at).toBeNull()
    const steps = await many<{ event_desc: string; event_para: string | null }>(
      env.t.db,
      sql`SELECT event_desc, event_para FROM device_usage_logs WHERE device_id = ${d.id} ORDER BY event_time`,
    )
    expect(steps.map((s) => s.event_desc)).toEqual(['power_on', 'pads_on_patient', 'shock_delivered'])
    expect(steps[2].event_para).toBe('{"joules":150}')
    expect((await device(d.id))?.readiness_reasons).toContain('in_use')
    const told = await many<{ topic: string; payload: Record<string, unknown> }>(
      env.t.db,
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
    const d = await env.registered()
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
    const res = await env.t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: bytes,
    })
    const body = res.json() as { code: number; data: { file_id: string; sha256: string } }
    expect(body.code).toBe(0)
    expect(body.data.sha256).toMatch(/^[0-9a-f]{64}$/)
    const r = await one<{ ecg_file_url: string | null }>(
      env.t.db,
      sql`SELECT ecg_file_url FROM rescue_events WHERE device_id = ${d.id} AND rescue_event_id = 'R9'`,
    )
    expect(r?.ecg_file_url).toBeTruthy()
  })
})

describe('whatever a device sends: refused with a clear answer, or applied', () => {
  const faults = (id: number) =>
    many<{ code: string }>(
      env.t.db,
      sql`SELECT code FROM device_events WHERE device_id = ${id} AND kind = 'fault' AND closed_at IS NULL`,
    )

  it('refuses an impossible calendar date before acknowledging it, and stores nothing of it', async () => {
    const d = await env.registered()
    const bad = d.msg('selftest', { report_type: 1, result: 'fail', battery_expire: '2027-02-30' })
    const r = await d.post([bad])
    expect(r.data.acked).toEqual([])
    expect(r.data.refused).toMatchObject([{ id: bad.id, code: 'invalid', field: 'data.battery_expire' }])
    expect(await inbox(d.id)).toEqual([])
    // A real date (29 February of a leap year) is taken and applied at once.
    const good = d.msg('selftest', { report_type: 1, result: 'fail', battery_expire: '2028-02-29' })
    expect((await d.send(good)).acked).toEqual([good.id])
    expect(await faults(d.id)).toEqual([{ code: 'E00' }])
  })

  it('refuses a time no store can hold (a usage step in the year 275760), before acknowledging it', async () => {
    const d = await env.registered()
    const far = d.msg('usage', {
      rescue_event_id: 'R1',
      event_time: 8_640_000_000_000_000,
      event_desc: 'power_on',
    })
    const r = await d.post([far])
    expect(r.data.refused).toMatchObject([{ id: far.id, code: 'invalid', field: 'data.event_time' }])
    expect(await inbox(d.id)).toEqual([])
  })

  it('refuses a lone surrogate in any text or unknown field without a 500, and keeps its neighbours', async () => {
    const d = await env.registered()
    const valid = d.msg('heartbeat', { battery: 70 })
    const bad = d.msg('selftest', { report_type: 1, result: 'pass', note: 'x\ud800y' })
    const r = await d.post([valid, bad])
    expect([r.status, r.code]).toEqual([200, 0])
    expect(r.data.acked).toEqual([valid.id])
    expect(r.data.refused).toMatchObject([{ index: 1, id: bad.id, code: 'invalid', field: 'data.note' }])
    const inId = await d.post([d.msg('heartbeat', { battery: 70 }, { id: 'a\udc00b' })])
    expect(inId.data.refused).toMatchObject([{ index: 0, id: null, code: 'invalid' }])
    // Bytes that are not UTF-8 refuse the whole body, clearly.
    const raw = await d.post(null, { raw: Buffer.from('5b7b2276223a312c226964223a22ff227d5d', 'hex') })
    expect([raw.status, raw.code]).toEqual([200, 1])
    expect(raw.msg).toBe('请求体须为UTF-8编码的JSON')
    expect(await inbox(d.id)).toEqual([{ msg_id: valid.id, outcome: 'applied', type: 'heartbeat' }])
  })

  it('refuses nesting deeper than the limit (100,000 arrays) with a clear code, not a stack overflow', async () => {
    const d = await env.registered()
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const m = d.msg('heartbeat', { battery: 50 })
    const raw = JSON.stringify([m]).replace('"battery":50', `"battery":50,"junk":${deep}`)
    const r = await d.post(null, { raw })
    expect([r.status, r.code]).toEqual([200, 0])
    expect(r.data.refused).toMatchObject([
      { id: m.id, code: 'invalid', reason: expect.stringContaining('nested') },
    ])
    expect(await inbox(d.id)).toEqual([])
  })

  it('holds every message and request to one size limit: a refusal per message, HTTP 413 per request', async () => {
    const d = await env.registered()
    const big = d.msg('heartbeat', { battery: 50, blob: 'x'.repeat(70 * 1024) })
    const small = d.msg('heartbeat', { battery: 51 })
    const r = await d.post([big, small])
    expect(r.data.refused).toMatchObject([{ index: 0, id: big.id, code: 'too_large' }])
    expect(r.data.acked).toEqual([small.id])
    const huge = Array.from({ length: 20 }, () =>
      d.msg('heartbeat', { battery: 50, blob: 'y'.repeat(60_000) }),
    )
    const over = await d.post(huge)
    expect([over.status, over.code]).toEqual([413, 1])
    expect(over.msg).toBe('请求体不能超过1048576字节')
    expect((await inbox(d.id)).map((x) => x.msg_id)).toEqual([small.id])
  })

  it('a hello declaring new counters (a board swap) resets the order, and is recorded on the device', async () => {
    const d = await env.registered()
    d.boot = 5
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass' }))
    // Counters lost: boot 0 again. A self-test before the hello is answered stale, not applied.
    d.boot = 0
    const early = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }, { seq: 1 })
    expect(await d.send(early)).toMatchObject({ acked: [], stale: [early.id] })
    expect(await faults(d.id)).toEqual([])
    const hello = d.msg('hello', { report_interval_s: 3600 }, { seq: 0 })
    expect((await d.send(hello)).acked).toEqual([hello.id])
    const st = await one<{ last_boot: number; last_seq: number; counter_resets: number }>(
      env.t.db,
      sql`SELECT last_boot, last_seq, counter_resets FROM device_states WHERE device_id = ${d.id}`,
    )
    expect(st).toEqual({ last_boot: 0, last_seq: 0, counter_resets: 1 })
    const fail = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }, { seq: 2 })
    expect((await d.send(fail)).acked).toEqual([fail.id])
    expect(await faults(d.id)).toEqual([{ code: 'E02' }])
    expect(await device(d.id)).toMatchObject({ status: 2, readiness: 'not_ready' })
  })

  it('the same (boot, seq) with another body is refused; with the same body it is a duplicate', async () => {
    const d = await env.registered()
    const first = d.msg('heartbeat', { battery: 80 }, { seq: 7 })
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass' }, { seq: 6 }), first)
    const other = d.msg('heartbeat', { battery: 3 }, { seq: 7 })
    const r = await d.post([other])
    expect(r.data.refused).toMatchObject([{ index: 0, id: other.id, code: 'seq_reused', field: 'seq' }])
    const again = { ...first, id: 'resent-under-new-id' }
    expect(await d.send(again)).toMatchObject({ acked: [], duplicates: [again.id] })
    expect((await inbox(d.id)).map((x) => x.msg_id)).not.toContain(other.id)
    expect((await inbox(d.id)).map((x) => x.msg_id)).not.toContain(again.id)
    expect((await device(d.id))?.battery).toBe(80)
  })

  it('the same id twice in one request is stored once and answered once as a duplicate', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass' }))
    const beat = d.msg('heartbeat', { battery: 66 })
    const r = await d.send(beat, beat)
    expect(r).toMatchObject({ acked: [beat.id], duplicates: [beat.id] })
    expect((await inbox(d.id)).filter((x) => x.msg_id === beat.id)).toHaveLength(1)
  })

  it('a reset hello may repeat a pair the old board used: it still resets', async () => {
    const d = await env.registered()
    d.boot = 0
    const first = d.msg('hello', { report_interval_s: 3600 }, { seq: 0 })
    await d.send(first, d.msg('selftest', { report_type: 0, result: 'pass' }, { seq: 1 }))
    d.boot = 3
    await d.send(d.msg('heartbeat', { battery: 90 }, { seq: 1 }))
    // The new board starts at (0, 0) again, with the same hello body under a new id.
    d.boot = 0
    const again = d.msg('hello', { report_interval_s: 3600 }, { seq: 0 })
    expect((await d.send(again)).acked).toEqual([again.id])
    const fail = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] }, { seq: 2 })
    expect((await d.send(fail)).acked).toEqual([fail.id])
    expect(await faults(d.id)).toEqual([{ code: 'E03' }])
  })

  it('a message of exactly the size limit is applied, not stored and ignored (found by the fuzz test)', async () => {
    const d = await env.registered()
    const m = d.msg('selftest', { report_type: 0, result: 'pass', pad: '' })
    const pad = 64 * 1024 - JSON.stringify(m).length
    const full = { ...m, data: { ...m.data, pad: 'p'.repeat(pad) } }
    expect(JSON.stringify(full).length).toBe(64 * 1024)
    expect((await d.send(full)).acked).toEqual([full.id])
    expect(await inbox(d.id)).toEqual([{ msg_id: full.id, outcome: 'applied', type: 'selftest' }])
    expect(await device(d.id)).toMatchObject({ readiness: 'ready' })
  })

  it('in one request, the first of two messages on an old pair is stale and the second its duplicate (found by the fuzz test)', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 0, result: 'pass' }, { seq: 5 }))
    const a = d.msg('heartbeat', { battery: 50 }, { seq: 3 })
    const b = { ...a, id: `${a.id}-again` }
    expect(await d.send(a, b)).toMatchObject({ acked: [], stale: [a.id], duplicates: [b.id] })
    const c = d.msg('heartbeat', { battery: 60 }, { seq: 3 })
    const r = await d.post([c])
    expect(r.data.refused).toMatchObject([{ id: c.id, code: 'seq_reused' }])
  })

  it('a refused message sent twice in one request is refused twice (found by the fuzz test)', async () => {
    const d = await env.registered()
    const hello = d.msg('hello', { report_interval_s: 3600 }, { seq: 5 })
    const b = d.msg('heartbeat', { battery: 50 }, { seq: 5 })
    const r = await d.post([hello, b, b])
    expect(r.data.acked).toEqual([hello.id])
    expect(r.data.duplicates).toEqual([])
    expect(r.data.refused).toMatchObject([
      { index: 1, id: b.id, code: 'seq_reused' },
      { index: 2, id: b.id, code: 'seq_reused' },
    ])
  })

  it('a device that only said hello is of unknown readiness, "never verified", until a self-test passes', async () => {
    const d = await env.registered()
    await d.send(d.msg('hello', { report_interval_s: 3600 }), d.msg('heartbeat', { battery: 90 }))
    expect(await device(d.id)).toMatchObject({ readiness: 'unknown', readiness_reasons: ['never_verified'] })
    const shown = await env.t.api(deviceApi.detail, { token: env.admin, params: { id: d.id } })
    expect(shown.data).toMatchObject({ readiness_text: '未知', readiness_reasons_text: ['从未自检通过'] })
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }))
    expect(await device(d.id)).toMatchObject({ readiness: 'ready', readiness_reasons: [] })
  })
})
