import { Code, type DataOf } from '@aed/contracts'
import { callApi } from '@aed/contracts/call'
import { type Coverage, coverageApi } from '@aed/contracts/coverage'
import { responderAlertApi } from '@aed/contracts/dispatch'
import { responderApi } from '@aed/contracts/responder'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceLink, deviceTestFile } from '../../test/device-link.ts'
import { downloadSheet } from '../../test/workbooks.ts'
import { drainOutbox } from '../engine/outbox.ts'

// The coverage of calls on a clock the test moves, in Chengdu (away from the demo network): a
// ready AED at 锦江区's place A, a device not ready at 青羊区's place B, responders who accept,
// decline and arrive through their links, calls recorded before coverage was kept, and the
// periods, regions and scopes the figures are of.
const clock = new TestClock('2026-11-26T02:00:00.000Z') // 10:00 in China
const TODAY = '2026-11-26'
const A = { lat: 30.66, lon: 104.08 }
const B = { lat: 30.7, lon: 104.03 }
/** A point `north` and `east` metres from `p`. */
const from = (p: { lat: number; lon: number }, north: number, east: number) => ({
  lat: p.lat + north / 111_195,
  lon: p.lon + east / (111_195 * Math.cos((p.lat * Math.PI) / 180)),
})

const env = deviceTestFile(clock, async ({ t, f, agent, branch, admin }) => {
  // The test delivers the outbox itself (a drain after each commit would race it on PostgreSQL).
  t.ctx.drainOnCommit = false
  // The ready AED at A (its own hello and a passed self-test) and a device never heard of at B:
  // their installations name the calls' districts.
  const aed = await f.registeredDevice(admin, branch, { ...A, open_state: 2, address_code: '510104' })
  const link = await deviceLink(t, aed.device_sn)
  await link.send(
    link.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 86_400 }),
    link.msg('selftest', { report_type: 0, result: 'pass' }),
  )
  await f.registeredDevice(admin, branch, { ...B, address_code: '510105' })
  const sibling = await f.agency(agent)
  const siblingAdmin = (await f.signedIn(sibling)).token
  const agentAdmin = (await f.signedIn(agent)).token
  return { sibling, siblingAdmin, agentAdmin }
})

let n = 0
/** A responder of the branch living at a point. */
async function responder(point: { lat: number; lon: number }) {
  const r = await env.t.api(responderApi.create, {
    token: env.admin,
    body: {
      account: {
        phone: `158${String(40_000_000 + ++n).padStart(8, '0')}`,
        name: `成都急救员${n}`,
        birth: '1990-01-01',
        gender: 1,
        ...point,
        location: '成都',
      },
      aid_aptitude: 0,
      agency_id: env.branch.id,
      status: 0,
    },
  })
  if (r.code !== 0) throw new Error(`responder: ${r.msg}`)
  return r.data.id
}

/** Records a call (now unless `call_time`) and delivers its outbox: its dispatch starts there. */
async function call(
  point: { lat: number; lon: number },
  over: Record<string, unknown> = {},
  token = env.admin,
) {
  const r = await env.t.api(callApi.create, {
    token,
    body: { phone: '13800005678', ...point, location: `成都呼救${++n}`, ...over },
  })
  if (r.code !== 0) throw new Error(`call: ${r.msg}`)
  await drainOutbox(env.t.ctx)
  return r.data.id
}

/** The link token of a responder's alert for a call (from the alert's SMS). */
async function tokenOf(callId: number, responderId: number) {
  const row = await one<{ content: string }>(
    env.t.db,
    sql`SELECT o.content FROM dispatch_alerts x JOIN dispatches d ON d.id = x.dispatch_id
        JOIN sms_outbox o ON o.idempotency_key = 'dispatch:' || x.id
        WHERE d.call_id = ${callId} AND x.responder_id = ${responderId}`,
  )
  const token = /\/rescue\/([A-Za-z0-9_-]{43})/.exec(row?.content ?? '')?.[1]
  if (!token) throw new Error(`responder ${responderId} was not alerted for call ${callId}`)
  return token
}

async function act(callId: number, responderId: number, action: 'accept' | 'decline' | 'arrived') {
  const r = await env.t.api(responderAlertApi.act, {
    params: { token: await tokenOf(callId, responderId), action },
    body: {} as never,
  })
  expect([action, r.code]).toEqual([action, 0])
}

async function coverage(query: Record<string, string> = {}, token = env.admin) {
  const r = await env.t.api(coverageApi.summary, { token, query })
  expect([r.code, r.msg]).toEqual([0, '成功'])
  if ('file_url' in r.data) throw new Error('expected the figures, got an export')
  return r.data as Coverage
}

const today = { start_date: TODAY, end_date: TODAY }
const ids: Record<string, number> = {}

describe('the coverage of a day', () => {
  it('counts covered, uncovered and unknown calls, and the shares and medians of the known', async () => {
    const nearA = await responder(from(A, 60, 0))
    const [nearB1, nearB2] = [await responder(from(B, 60, 0)), await responder(from(B, 120, 0))]
    // Covered (the AED 100 m away): accepted after a minute, arrived after five.
    ids.covered = await call(from(A, 0, 100))
    clock.advance(60_000)
    await act(ids.covered, nearA, 'accept')
    clock.advance(240_000)
    await act(ids.covered, nearA, 'arrived')
    // Uncovered: one declines at once, the other accepts after two minutes and never arrives.
    ids.answered = await call(from(B, 0, 50))
    await act(ids.answered, nearB1, 'decline')
    clock.advance(120_000)
    await act(ids.answered, nearB2, 'accept')
    // Uncovered, unanswered.
    clock.advance(60_000)
    ids.silent = await call(from(B, 30, 0))
    // Recorded before calls kept their AEDs: unknown, in no share.
    clock.advance(60_000)
    ids.unknown = await call(from(A, 0, 80))
    await env.t.db.execute(sql`UPDATE call_events SET ready_aeds_500m = NULL WHERE id = ${ids.unknown}`)

    const c = await coverage(today)
    expect(c.totals).toEqual({
      calls: 4,
      covered: 1,
      uncovered: 2,
      unknown: 1,
      with_accept: 2,
      with_arrival: 1,
    })
    expect(c.shares).toEqual({ covered: 1 / 3, with_accept: 2 / 3, with_arrival: 1 / 3 })
    // Accepts after 60 s and 120 s; the one arrival after 300 s.
    expect(c.median_seconds).toEqual({ first_accept: 90, first_arrival: 300 })
    expect(c.districts).toEqual([
      {
        code: '510104',
        name: '四川省成都市锦江区',
        calls: 2,
        covered: 1,
        uncovered: 0,
        unknown: 1,
        covered_share: 1,
      },
      {
        code: '510105',
        name: '四川省成都市青羊区',
        calls: 2,
        covered: 0,
        uncovered: 2,
        unknown: 0,
        covered_share: 0,
      },
    ])
    const silent = from(B, 30, 0)
    expect(c.points.map((p) => p[0])).toEqual([ids.silent, ids.answered])
    expect(c.points[0]).toEqual([
      ids.silent,
      silent.lon,
      silent.lat,
      '2026-11-26 10:08:00',
      expect.any(String),
    ])
  })

  it('names districts below the region asked for, and leaves out the calls outside it', async () => {
    const city = await coverage({ ...today, address_code: '510100' })
    expect(city.districts.map((d) => d.name)).toEqual(['锦江区', '青羊区'])
    const district = await coverage({ ...today, address_code: '510104' })
    expect(district.totals).toMatchObject({ calls: 2, covered: 1, unknown: 1 })
    expect(district.districts.map((d) => [d.code, d.name])).toEqual([['510104', '锦江区']])
    const province = await coverage({ ...today, address_code: '510000' })
    expect(province.districts.map((d) => d.name)).toEqual(['成都市锦江区', '成都市青羊区'])
    expect(district.points).toEqual([])
    const elsewhere = await coverage({ ...today, address_code: '330000' })
    expect(elsewhere).toMatchObject({
      totals: { calls: 0, covered: 0, uncovered: 0, unknown: 0, with_accept: 0, with_arrival: 0 },
      shares: { covered: null, with_accept: null, with_arrival: null },
      median_seconds: { first_accept: null, first_arrival: null },
      districts: [],
      points: [],
    })
  })

  it('counts the calls of the scope only: a sibling’s call is its own, both are their parent’s', async () => {
    const theirs = await call(from(B, -40, 0), {}, env.siblingAdmin)
    const mine = await coverage(today)
    expect(mine.totals.calls).toBe(4)
    expect(mine.points.map((p) => p[0])).not.toContain(theirs)
    const sibling = await coverage(today, env.siblingAdmin)
    expect(sibling.totals).toMatchObject({ calls: 1, uncovered: 1 })
    expect(sibling.points.map((p) => p[0])).toEqual([theirs])
    const parent = await coverage(today, env.agentAdmin)
    expect(parent.totals).toMatchObject({ calls: 5, covered: 1, uncovered: 3, unknown: 1 })
  })
})

describe('the period', () => {
  it('reads dates in China time, both ends counted, and by default the last 30 days', async () => {
    const late = await call(B, { call_time: '2026-09-10T23:30:00+08:00' })
    const early = await call(B, { call_time: '2026-09-11T00:30:00+08:00' })
    const day = async (d: string) => (await coverage({ start_date: d, end_date: d })).points.map((p) => p[0])
    expect(await day('2026-09-10')).toEqual([late])
    expect(await day('2026-09-11')).toEqual([early])
    const byDefault = await coverage()
    expect([byDefault.start_date, byDefault.end_date]).toEqual(['2026-10-27', TODAY])
    expect(byDefault.totals.calls).toBe(4)
    const since = await coverage({ start_date: '2026-09-01' })
    expect([since.end_date, since.totals.calls]).toEqual([TODAY, 6])
  })

  it('refuses a start after the end and a period longer than 366 days', async () => {
    const backwards = await env.t.api(coverageApi.summary, {
      token: env.admin,
      query: { start_date: '2026-11-20', end_date: '2026-11-10' },
    })
    expect([backwards.code, backwards.msg]).toEqual([Code.INVALID, '开始时间不能大于结束时间！'])
    const afterToday = await env.t.api(coverageApi.summary, {
      token: env.admin,
      query: { start_date: '2026-12-01' },
    })
    expect([afterToday.code, afterToday.msg]).toEqual([Code.INVALID, '开始时间不能大于结束时间！'])
    const long = await env.t.api(coverageApi.summary, {
      token: env.admin,
      query: { start_date: '2025-11-25', end_date: TODAY },
    })
    expect([long.code, long.msg]).toEqual([Code.INVALID, '统计时间范围不能超过366天'])
    const year = await coverage({ start_date: '2025-11-26', end_date: TODAY })
    expect(year.totals.calls).toBe(6)
  })

  it('sends the newest 2,000 uncovered calls to the map and counts them all', async () => {
    // 2,001 calls of one August day, written as the intake writes them (none near an AED).
    await env.t.db.execute(sql`
      INSERT INTO call_events (agency_id, index_link, source, phone, lat, lon, location, call_time, ready_aeds_500m)
      SELECT ${env.branch.id}, ${env.branch.index_link}, 'console', '13800005678', ${B.lat}, ${B.lon}, '成都批量呼救',
             '2026-08-01T02:00:00Z'::timestamptz + i * interval '1 second', 0
      FROM generate_series(1, 2001) AS i`)
    const c = await coverage({ start_date: '2026-08-01', end_date: '2026-08-01' })
    expect(c.totals.uncovered).toBe(2001)
    expect(c.points).toHaveLength(2000)
    expect(c.points[0][3]).toBe('2026-08-01 10:33:21')
    expect(c.points[1999][3]).toBe('2026-08-01 10:00:02')
    // No district known (no address_code): one row of its own.
    expect(c.districts).toEqual([
      { code: null, name: null, calls: 2001, covered: 0, uncovered: 2001, unknown: 0, covered_share: 0 },
    ])
  })
})

describe('the export', () => {
  it('answers a spreadsheet of the period’s calls, newest first, in the caller’s language', async () => {
    const r = await env.t.api(coverageApi.summary, {
      token: env.admin,
      query: { ...today, export_xls: 'true' },
    })
    expect(r.code).toBe(0)
    const data = r.data as Extract<DataOf<typeof coverageApi.summary>, { file_url: string }>
    expect(data.count).toBe(4)
    expect(decodeURIComponent(data.file_url)).toContain('download=覆盖分析_2026-11-26_2026-11-26.xlsx')
    const { rows } = await downloadSheet(env.t.app, data.file_url)
    expect(rows[0]).toEqual([
      '编号',
      '呼救时间',
      '呼救地址',
      '所属区域',
      '所属机构',
      '500米内就绪AED',
      'AED覆盖',
      '首位接受用时（秒）',
      '首位到达用时（秒）',
      '处置结果',
    ])
    expect(rows.slice(1).map((row) => [row[0], row[5], row[6], row[7], row[8]])).toEqual([
      [ids.unknown, undefined, '未知', undefined, undefined],
      [ids.silent, 0, '未覆盖', undefined, undefined],
      [ids.answered, 0, '未覆盖', 120, undefined],
      [ids.covered, 1, '已覆盖', 60, 300],
    ])
    expect(rows[4][3]).toBe('四川省成都市锦江区')
  })

  it('writes its words in English for an English console', async () => {
    const r = await env.t.api(coverageApi.summary, {
      token: env.admin,
      lang: 'en-US',
      query: { ...today, export_xls: 'true' },
    })
    const data = r.data as Extract<DataOf<typeof coverageApi.summary>, { file_url: string }>
    expect(decodeURIComponent(data.file_url)).toContain('download=Coverage_2026-11-26_2026-11-26.xlsx')
    const { sheet, rows } = await downloadSheet(env.t.app, data.file_url)
    expect(sheet.name).toBe('Coverage')
    expect(rows[0].slice(5, 7)).toEqual(['Ready AEDs within 500 m', 'AED cover'])
    expect(rows[4][6]).toBe('Covered')
  })
})
