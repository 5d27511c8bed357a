import { Code, type QueryIn } from '@aed/contracts'
import {
  EVENT_LIST_ENDPOINTS,
  type EventKind,
  type EventListCan,
  type EventRowOf,
  eventApi,
  formatDuration,
} from '@aed/contracts/event'
import { eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { deviceEvents, devices, operationLogs } from '../../db/schema.ts'
import { one } from '../../db/sql.ts'
import { createJobRunner } from '../../jobs/runner.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceLink, deviceTestFile } from '../../test/device-link.ts'
import { downloadSheet } from '../../test/workbooks.ts'
import { engineJobs, SWEEP_EVERY_MS } from '../engine/engine.jobs.ts'

// The four event pages through the API, with events made the real way (a device reporting
// through the gateway, the offline sweep on a moved clock) and, for dates and volume, rows
// inserted as the engine writes them.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

type Query = QueryIn<typeof eventApi.fault>

/** A page's list as a member sees it (code 0 expected). */
async function list<K extends EventKind>(kind: K, query: Query, token = env.admin) {
  const r = await env.t.api(EVENT_LIST_ENDPOINTS[kind], { token, query: query as never })
  expect(r.code, r.msg).toBe(0)
  const data = r.data as { count: number; resource: EventRowOf[K][]; can: EventListCan }
  return data
}

/** The device's rows of a page: current by default, history with current 'false'. */
const rowsOf = async <K extends EventKind>(kind: K, sn: string, query: Query = {}, token = env.admin) =>
  (await list(kind, { device_sn: sn, ...query }, token)).resource

/** Moves the clock in sweep-sized steps, ticking the jobs each time, as a running server would. */
async function live(ms: number) {
  const r = createJobRunner(env.t.ctx, engineJobs, { log: pino({ level: 'silent' }) })
  for (let left = ms; left > 0; left -= SWEEP_EVERY_MS) {
    clock.advance(Math.min(SWEEP_EVERY_MS, left))
    await r.tick()
  }
}

/** An event of a device inserted as the engine writes it (dates the engine cannot reach quickly). */
async function insertEvent(
  deviceId: number,
  values: { kind: EventKind; event_time: Date } & Partial<typeof deviceEvents.$inferInsert>,
) {
  const [d] = await env.t.db.select().from(devices).where(eq(devices.id, deviceId))
  const installation = await one<{ agency_id: number; index_link: string }>(
    env.t.db,
    sql`SELECT i.agency_id, g.index_link FROM installations i JOIN agencies g ON g.id = i.agency_id
        WHERE i.id = ${d.installation_id}`,
  )
  if (!installation) throw new Error(`device ${deviceId} is not installed`)
  const [row] = await env.t.db
    .insert(deviceEvents)
    .values({
      device_id: deviceId,
      installation_id: d.installation_id,
      agency_id: installation.agency_id,
      index_link: installation.index_link,
      ...values,
    })
    .returning()
  return row
}

const handle = (id: number, handle_note: string, token = env.admin) =>
  env.t.api(eventApi.handle, { token, params: { id }, body: { handle_note } })

/** Fetches an export's file and reads its first sheet as rows of text. */
async function readExport(fileUrl: string) {
  const { sheet, rows: cells } = await downloadSheet(env.t.app, fileUrl)
  const rows = cells.map((row) => row.map((v) => (v === null || v === undefined ? '' : String(v))))
  return { name: sheet.name, header: rows[0], rows: rows.slice(1) }
}

describe('fault page', () => {
  it('a failed self-test is current; handled with a note; a pass moves it to history with its duration', async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 90 }))
    const found = clock.now()
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))

    const [row] = await rowsOf('fault', d.sn)
    expect(row).toMatchObject({
      device_id: d.id,
      device_sn: d.sn,
      model: 'D100',
      location: '浙江省杭州市西湖区文三路100号 一楼大厅',
      agency_name: env.branch.name,
      report_type: 1,
      report_type_text: '待机自检',
      fault_code: 'E02',
      fault: 'E02 电池故障',
      check_time: found.toISOString(),
      closed_at: null,
      duration: null,
      handler_name: null,
      can: { handle: true },
    })
    expect(await rowsOf('fault', d.sn, { current: 'false' })).toEqual([])

    const done = await handle(row.id, '  已更换电池  ')
    expect(done).toMatchObject({ code: 0, msg: '处理成功！', data: { handle_note: '已更换电池' } })
    const [log] = await env.t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.operation_type, '处理事件'))
    expect(log.content).toBe(`处理故障事件：${d.sn}（已更换电池）`)
    expect((await rowsOf('fault', d.sn))[0]).toMatchObject({
      handle_note: '已更换电池',
      handle_time: clock.now().toISOString(),
    })
    expect((await rowsOf('fault', d.sn))[0].handler_name).toBeTruthy()

    clock.advance((2 * 3600 + 5 * 60) * 1000)
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }))
    expect(await rowsOf('fault', d.sn)).toEqual([])
    const [past] = await rowsOf('fault', d.sn, { current: 'false' })
    expect(past).toMatchObject({
      id: row.id,
      closed_at: clock.now().toISOString(),
      duration: 7500,
      duration_text: '2小时5分',
      handle_note: '已更换电池',
    })
    const en = await env.t.api(eventApi.fault, {
      token: env.admin,
      lang: 'en-US',
      query: { device_sn: d.sn, current: 'false' },
    })
    expect((en.data as { resource: EventRowOf['fault'][] }).resource[0]).toMatchObject({
      duration_text: '2 h 5 min',
      report_type_text: 'Standby self-test',
      fault: 'E02 Battery fault',
    })
  })

  it('filters by report_type, serial, address and dates (days of Asia/Shanghai)', async () => {
    const a = await env.registered()
    const b = await env.registered()
    await a.send(a.msg('selftest', { report_type: 2, result: 'fail', fault_codes: ['E05'] }))
    await b.send(b.msg('selftest', { report_type: 0, result: 'fail', fault_codes: ['E07'] }))
    const both = { device_sn: a.sn.slice(0, 3) }
    const types = async (report_type: number) =>
      (await list('fault', { ...both, report_type, page_size: 500 })).resource.map((r) => r.device_sn)
    expect(await types(2)).toContain(a.sn)
    expect(await types(2)).not.toContain(b.sn)
    expect(await types(0)).toEqual(expect.arrayContaining([b.sn]))
    expect(await types(0)).not.toContain(a.sn)
    expect((await env.t.api(eventApi.fault, { token: env.admin, query: { report_type: 3 } })).code).toBe(
      Code.INVALID,
    )

    // 2026-11-20T17:00Z is 2026-11-21 01:00 in Shanghai.
    const old = await insertEvent(b.id, {
      kind: 'fault',
      code: 'E09',
      report_type: 0,
      event_time: new Date('2026-11-20T17:00:00Z'),
    })
    const on = async (start_time: string, end_time: string) =>
      (await rowsOf('fault', b.sn, { start_time, end_time })).map((r) => r.id)
    expect(await on('2026-11-21', '2026-11-21')).toEqual([old.id])
    expect(await on('2026-11-20', '2026-11-20')).toEqual([])
    expect(await on('2026-11-21', '2026-12-31')).toHaveLength(2)
    const reversed = await env.t.api(eventApi.fault, {
      token: env.admin,
      query: { start_time: '2026-11-22', end_time: '2026-11-21' },
    })
    expect(reversed).toMatchObject({ code: Code.INVALID, msg: '开始时间不能大于结束时间！' })

    expect(await rowsOf('fault', b.sn, { install_location: '文三路' })).toHaveLength(2)
    expect(await rowsOf('fault', b.sn, { install_location: '一楼大厅' })).toHaveLength(2)
    expect(await rowsOf('fault', b.sn, { install_location: '深圳' })).toEqual([])
    const paged = await list('fault', { device_sn: b.sn, page_size: 1 })
    expect(paged.count).toBe(2)
    expect(paged.resource.map((r) => r.fault_code)).toEqual(['E07'])
    const second = await list('fault', { device_sn: b.sn, page_size: 1, page: 2 })
    expect(second.resource.map((r) => r.fault_code)).toEqual(['E09'])
  })
})

describe('early-warning page', () => {
  it('a low battery opens a warning; a full one closes it into history with its invalid_time', async () => {
    const d = await env.registered()
    const opened = clock.now()
    await d.send(d.msg('heartbeat', { battery: 8 }))
    const [row] = await rowsOf('warning', d.sn)
    expect(row).toMatchObject({
      event_code: 'battery_low',
      event_type: '电量低',
      content: '电量低（8%）',
      event_time: opened.toISOString(),
      invalid_time: null,
    })
    expect(row).not.toHaveProperty('can')
    clock.advance(45_000)
    await d.send(d.msg('heartbeat', { battery: 95 }))
    expect(await rowsOf('warning', d.sn)).toEqual([])
    const [past] = await rowsOf('warning', d.sn, { current: 'false' })
    expect(past).toMatchObject({
      id: row.id,
      invalid_time: clock.now().toISOString(),
      closed_at: clock.now().toISOString(),
      duration: 45,
      duration_text: '45秒',
    })
    const refused = await handle(row.id, '看过了')
    expect(refused).toMatchObject({
      code: Code.INVALID,
      msg: '预警和离线事件无需处理，条件解除后自动转入历史',
    })
  })
})

describe('offline page', () => {
  it('silence past the deadline opens an offline event; the next message closes it', async () => {
    const d = await env.registered()
    await d.send(d.msg('hello', { report_interval_s: 600 }), d.msg('heartbeat', { battery: 80 }))
    await live(36 * 60_000)
    const [row] = await rowsOf('offline', d.sn)
    expect(row.offline_time <= clock.now().toISOString()).toBe(true)
    expect(row.closed_at).toBeNull()
    expect((await handle(row.id, '已联系现场')).code).toBe(Code.INVALID)
    clock.advance(3 * 3600_000)
    await d.send(d.msg('heartbeat', { battery: 80 }))
    expect(await rowsOf('offline', d.sn)).toEqual([])
    const [past] = await rowsOf('offline', d.sn, { current: 'false' })
    expect(past.id).toBe(row.id)
    expect(past.duration).toBe(
      Math.round((Date.parse(past.closed_at as string) - Date.parse(past.offline_time)) / 1000),
    )
    expect(past.duration_text).toBe(formatDuration(past.duration as number))
    expect(past.duration_text).toMatch(/^3小时/)
  })
})

describe('location-offset page', () => {
  it('two GPS fixes far from the site open an offset; handled; back home it goes to history', async () => {
    const d = await env.registered()
    // The installation is at 30.2741, 120.1307 (GCJ-02); these fixes are WGS-84, some 5 km north.
    const away = { lat: 30.3191, lon: 120.126, positioning_type: 'gps', accuracy_m: 10 }
    await d.send(d.msg('location', away), d.msg('location', away))
    const [row] = await rowsOf('offset', d.sn)
    expect(row.offset_distance).toBeGreaterThan(4000)
    expect(row).toMatchObject({ can: { handle: true }, seen_by: null, handle_note: null })
    expect((await handle(row.id, '设备被借用，已归还')).code).toBe(0)
    const home = { lat: 30.2766, lon: 120.126, positioning_type: 'gps', accuracy_m: 10 }
    clock.advance(20 * 60_000)
    await d.send(d.msg('location', home))
    expect(await rowsOf('offset', d.sn)).toEqual([])
    const [past] = await rowsOf('offset', d.sn, { current: 'false' })
    expect(past).toMatchObject({ id: row.id, handle_note: '设备被借用，已归还', duration_text: '20分' })
  })
})

describe('scope, managers and permissions', () => {
  it('a leaf organisation sees only its own events; the parent sees both and narrows by organisation', async () => {
    const leaf = await env.f.agency(env.branch)
    const leafAdmin = (await env.f.signedIn(leaf)).token
    const manager = await env.f.member(env.branch, { role_type: 1, name: '王管理' })
    const mine = await deviceLink(env.t, (await env.f.registeredDevice(leafAdmin, leaf)).device_sn)
    const theirs = await deviceLink(
      env.t,
      (await env.f.registeredDevice(env.admin, env.branch, { device_manager_id: manager.id })).device_sn,
    )
    for (const d of [mine, theirs])
      await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] }))
    const serials = async (token: string, query: Query = {}) =>
      (await list('fault', { page_size: 500, ...query }, token)).resource.map((r) => r.device_sn)
    const leafSees = await serials(leafAdmin)
    expect(leafSees).toContain(mine.sn)
    expect(leafSees).not.toContain(theirs.sn)
    const parentSees = await serials(env.admin)
    expect(parentSees).toEqual(expect.arrayContaining([mine.sn, theirs.sn]))
    const narrowed = await serials(env.admin, { agency_id: leaf.id })
    expect(narrowed).toContain(mine.sn)
    expect(narrowed).not.toContain(theirs.sn)
    // The leaf cannot ask for its parent's subtree, nor handle its parent's events.
    const up = await env.t.api(eventApi.fault, { token: leafAdmin, query: { agency_id: env.branch.id } })
    expect(up).toMatchObject({ code: Code.INVALID, msg: '请选择正确的机构' })
    const [theirRow] = await rowsOf('fault', theirs.sn)
    expect((await handle(theirRow.id, '越权', leafAdmin)).code).toBe(Code.NOT_FOUND)
    expect(theirRow.manager).toBe('王管理')
    const byManager = await serials(env.admin, { manager_id: manager.id })
    expect(byManager).toEqual([theirs.sn])
  })

  it('read-only members read the pages but neither handle nor export; members without the device area are refused', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E04'] }))
    const reader = (await env.f.signedIn(env.branch, { role_type: 2, permissions: { device: 'READ_ONLY' } }))
      .token
    const [row] = await rowsOf('fault', d.sn, {}, reader)
    expect(row.can.handle).toBe(false)
    expect((await handle(row.id, '只读', reader)).code).toBe(Code.FORBIDDEN)
    const exported = await env.t.api(eventApi.fault, { token: reader, query: { export_xls: 'true' } })
    expect(exported.code).toBe(Code.FORBIDDEN)
    const outsider = (await env.f.signedIn(env.branch, { role_type: 2, permissions: { member: 'EDIT' } }))
      .token
    expect((await env.t.api(eventApi.offline, { token: outsider })).code).toBe(Code.FORBIDDEN)
  })

  it('sends the page’s can with the list: export and handle, which the export then does as it said', async () => {
    const members: [string, string, boolean][] = [
      ['super administrator', env.admin, true],
      [
        'editor',
        (await env.f.signedIn(env.branch, { role_type: 1, permissions: { device: 'EDIT' } })).token,
        true,
      ],
      [
        'reader',
        (await env.f.signedIn(env.branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
        false,
      ],
    ]
    for (const [who, token, canExport] of members) {
      for (const kind of ['warning', 'fault', 'offset', 'offline'] as const) {
        expect({ who, kind, can: (await list(kind, {}, token)).can }).toEqual({
          who,
          kind,
          can: { export: canExport, handle: canExport && (kind === 'fault' || kind === 'offset') },
        })
      }
      const exported = await env.t.api(eventApi.fault, { token, query: { export_xls: 'true' } })
      expect({ who, code: exported.code }).toEqual({ who, code: canExport ? 0 : Code.FORBIDDEN })
    }
  })

  it('checks the note: required, at most 500 characters', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E06'] }))
    const [row] = await rowsOf('fault', d.sn)
    expect(await handle(row.id, '   ')).toMatchObject({ code: Code.INVALID, msg: '请输入处理说明' })
    expect(await handle(row.id, '字'.repeat(501))).toMatchObject({
      code: Code.INVALID,
      msg: '处理说明不超过500个字符',
    })
    expect((await handle(row.id, '字'.repeat(500))).code).toBe(0)
    expect((await handle(999_999_999, '无此事件')).code).toBe(Code.NOT_FOUND)
  })
})

describe('export', () => {
  it('writes the tab’s rows and columns to 故障事件.xlsx, the last 180 days unless dates are given', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 2, result: 'fail', fault_codes: ['E08'] }))
    const now = clock.now().getTime()
    const recent = await insertEvent(d.id, {
      kind: 'fault',
      code: 'E01',
      report_type: -1,
      event_time: new Date(now - 100 * 86_400_000),
      closed_at: new Date(now - 99 * 86_400_000),
      handler_name: '李工',
      handle_note: '已更换电极片',
      handle_time: new Date(now - 99 * 86_400_000),
    })
    await insertEvent(d.id, {
      kind: 'fault',
      code: 'E10',
      report_type: 1,
      event_time: new Date(now - 200 * 86_400_000),
      closed_at: new Date(now - 199 * 86_400_000),
    })
    const current = await env.t.api(eventApi.fault, {
      token: env.admin,
      query: { device_sn: d.sn, export_xls: 'true' },
    })
    expect(current.code).toBe(0)
    const answer = current.data as { file_url: string; count: number }
    expect(answer.file_url).toContain(`download=${encodeURIComponent('故障事件.xlsx')}`)
    const open = await readExport(answer.file_url)
    expect(open.name).toBe('故障事件（当前）')
    expect(open.header).toEqual([
      '设备SN',
      '型号',
      '安装位置',
      '设备管理员',
      '所属机构',
      '检测类型',
      '故障',
      '检测时间',
      '处理人',
      '处理说明',
      '处理时间',
    ])
    expect(open.rows).toHaveLength(1)
    expect(open.rows[0].slice(0, 2)).toEqual([d.sn, 'D100'])
    expect(open.rows[0][5]).toBe('用户自检')
    expect(open.rows[0][6]).toBe('E08 存储器故障')

    const history = await env.t.api(eventApi.fault, {
      token: env.admin,
      query: { device_sn: d.sn, export_xls: 'true', current: 'false' },
    })
    const past = await readExport((history.data as { file_url: string }).file_url)
    expect(past.header).toContain('恢复时间')
    expect(past.header).toContain('持续时长')
    // The one 200 days ago lies outside the default range.
    expect(past.rows).toHaveLength(1)
    const cell = (name: string) => past.rows[0][past.header.indexOf(name)]
    expect(cell('故障')).toBe('E01 电极片未连接或损坏')
    expect(cell('检测类型')).toBe('用户巡检')
    expect(cell('持续时长')).toBe('1天')
    expect(cell('处理说明')).toBe(recent.handle_note)
    expect(cell('检测时间')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

    const dated = await env.t.api(eventApi.fault, {
      token: env.admin,
      query: { device_sn: d.sn, export_xls: 'true', current: 'false', start_time: '2020-01-01' },
    })
    expect((dated.data as { count: number }).count).toBe(2)
  })

  it('names each page’s file and keeps its columns', async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 3 }))
    const r = await env.t.api(eventApi.earlyWarn, {
      token: env.admin,
      query: { device_sn: d.sn, export_xls: 'true' },
    })
    const data = r.data as { file_url: string; count: number }
    expect(data.file_url).toContain(encodeURIComponent('预警事件.xlsx'))
    const sheet = await readExport(data.file_url)
    expect(sheet.header.slice(5)).toEqual(['预警类型', '预警内容', '预警时间'])
    expect(sheet.rows.map((x) => x[5])).toEqual(['电量耗尽'])
    for (const [e, name] of [
      [eventApi.locationOffset, '位置偏移事件.xlsx'],
      [eventApi.offline, '离线事件.xlsx'],
    ] as const) {
      const x = await env.t.api(e, { token: env.admin, query: { export_xls: 'true' } })
      expect((x.data as { file_url: string }).file_url).toContain(encodeURIComponent(name))
    }
  })
})
