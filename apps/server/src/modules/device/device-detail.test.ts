import { Code } from '@aed/contracts'
import { agencyApi } from '@aed/contracts/agency'
import type { Device } from '@aed/contracts/device'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { deviceIoApi } from '@aed/contracts/device-io'
import { statusOfConditions } from '@aed/contracts/device-rules'
import { operationLogApi } from '@aed/contracts/operation-log'
import { eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  deviceDetections,
  deviceEvents,
  deviceInspections,
  devices,
  deviceUsageLogs,
  rescueEvents,
} from '../../db/schema.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import type { AgencyRow } from '../../test/factories.ts'
import { demo } from '../../test/harness.ts'
import { downloadSheet } from '../../test/workbooks.ts'
import { cleanPlan } from './device-detail.rules.ts'

// The server's "now" is this clock: the real now when the file starts, standing still. (The
// database's own defaults, as an installation's register time, run on real time.)
const clock = new TestClock(Date.now())
const env = deviceTestFile(clock, async ({ t, f, agent, branch }) => {
  const sibling = await f.agency(agent)
  return {
    sibling,
    /** Administrator with device EDIT; `admin` is the branch's super administrator (device ALL, not of the system organisation). */
    editor: (await f.signedIn(branch, { role_type: 1, permissions: { device: 'EDIT' } })).token,
    /** Device READ_ONLY. */
    reader: (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
    siblingAdmin: (await f.signedIn(sibling)).token,
    /** Super administrator of the system organisation. */
    system: await t.login(demo.superAdmin),
  }
})

// Where the gateway would write: rows inserted directly, at the device's installation.
type Installation = {
  id: number
  device_sn: string
  installation_id: number
  agency_id: number
  index_link: string
}

async function installation(token: string, agency: AgencyRow): Promise<Installation> {
  const dev = await env.f.registeredDevice(token, agency)
  const [row] = await env.t.db.select().from(devices).where(eq(devices.id, dev.id))
  return {
    id: dev.id,
    device_sn: dev.device_sn,
    installation_id: row.installation_id!,
    agency_id: agency.id,
    index_link: agency.index_link,
  }
}

const at = (s: string) => new Date(s)
const where = (s: Installation) => ({
  device_id: s.id,
  installation_id: s.installation_id,
  agency_id: s.agency_id,
  index_link: s.index_link,
})

async function event(
  s: Installation,
  values: Omit<typeof deviceEvents.$inferInsert, keyof ReturnType<typeof where>>,
) {
  const [row] = await env.t.db
    .insert(deviceEvents)
    .values({ ...where(s), ...values })
    .returning()
  return row
}

async function detection(
  s: Installation,
  values: Partial<typeof deviceDetections.$inferInsert> & { check_time: Date },
) {
  const [row] = await env.t.db
    .insert(deviceDetections)
    .values({ ...where(s), report_type: 1, check_result: 1, ...values })
    .returning()
  return row
}

async function rescue(
  s: Installation,
  rescueEventId: string,
  start: Date,
  steps: number,
  end: Date | null = null,
) {
  const [r] = await env.t.db
    .insert(rescueEvents)
    .values({ ...where(s), rescue_event_id: rescueEventId, event_time: start, ended_at: end })
    .returning()
  if (steps > 0) {
    await env.t.db.insert(deviceUsageLogs).values(
      Array.from({ length: steps }, (_, i) => ({
        rescue_id: r.id,
        device_id: s.id,
        rescue_event_id: rescueEventId,
        event_desc: `步骤${i + 1}`,
        event_para: i % 2 ? JSON.stringify({ joules: 150 }) : null,
        event_time: new Date(start.getTime() + i * 1000),
      })),
    )
  }
  return r
}

type PageData<T> = { count: number; resource: T[] }
const pageOf = <T>(r: { data: unknown }) => r.data as PageData<T>

const detail = (token: string, query: Record<string, string | number>) =>
  env.t.api(deviceDetailApi.page, { token, query })

describe('the device detail: base and usage log', () => {
  it('answers the device by serial, as the device detail does, within the scope only', async () => {
    const s = await installation(env.admin, env.branch)
    const base = await env.t.api(deviceDetailApi.single, {
      token: env.reader,
      query: { device_sn: s.device_sn, data_type: 'base' },
    })
    expect(base.code).toBe(0)
    expect(base.data).toMatchObject({
      id: s.id,
      device_sn: s.device_sn,
      agency_id: env.branch.id,
      can: { edit: false, delete: false },
    })
    const byAdmin = await env.t.api(deviceDetailApi.single, {
      token: env.admin,
      query: { device_sn: s.device_sn, data_type: 'base' },
    })
    expect((byAdmin.data as Device).can).toEqual({ edit: true, delete: true, command: true })
    const theirs = await env.t.api(deviceDetailApi.single, {
      token: env.siblingAdmin,
      query: { device_sn: s.device_sn, data_type: 'base' },
    })
    expect(theirs.code).toBe(Code.NOT_FOUND)
    const none = await env.t.api(deviceDetailApi.single, {
      token: env.admin,
      query: { device_sn: 'A64NOSUCH9', data_type: 'base' },
    })
    expect(none.code).toBe(Code.NOT_FOUND)
    // A factory device that is not registered has no detail.
    const stock = await env.f.device(env.branch)
    expect(
      (
        await env.t.api(deviceDetailApi.single, {
          token: env.admin,
          query: { device_sn: stock.device_sn, data_type: 'base' },
        })
      ).code,
    ).toBe(Code.NOT_FOUND)
  })

  it('refuses a missing serial and an unknown data type', async () => {
    const noSn = await env.t.api(deviceDetailApi.single, { token: env.admin, query: { data_type: 'base' } })
    expect(noSn).toMatchObject({ code: Code.INVALID, msg: '请输入设备SN' })
    const badType = await env.t.api(deviceDetailApi.single, {
      token: env.admin,
      query: { device_sn: 'A640000001', data_type: 'x' },
    })
    expect(badType).toMatchObject({ code: Code.INVALID, msg: '请选择正确的数据类型' })
    const pageType = await detail(env.admin, { device_sn: 'A640000001', data_type: 'usage_log' })
    expect(pageType.msg).toBe('请选择正确的数据类型')
  })

  it('pages the usage log ten at a time, newest first, of one rescue when asked', async () => {
    const s = await installation(env.admin, env.branch)
    await rescue(s, 'R-1', at('2025-03-01T02:00:00Z'), 12, at('2025-03-01T02:30:00Z'))
    await rescue(s, 'R-2', at('2025-03-05T02:00:00Z'), 3)
    const log = (token: string, query: Record<string, string | number> = {}) =>
      env.t.api(deviceDetailApi.single, {
        token,
        query: { device_sn: s.device_sn, data_type: 'usage_log', ...query },
      })

    const first = pageOf<{ rescue_event_id: string; event_desc: string; event_para: string | null }>(
      await log(env.reader),
    )
    expect(first.count).toBe(15)
    expect(first.resource).toHaveLength(10)
    expect(first.resource.slice(0, 3).map((r) => [r.rescue_event_id, r.event_desc])).toEqual([
      ['R-2', '步骤3'],
      ['R-2', '步骤2'],
      ['R-2', '步骤1'],
    ])
    const one = pageOf<{ rescue_event_id: string; event_desc: string; event_para: string | null }>(
      await log(env.reader, { rescue_event_id: 'R-1', page: 2 }),
    )
    expect(one.count).toBe(12)
    expect(one.resource.map((r) => r.event_desc)).toEqual(['步骤2', '步骤1'])
    expect(one.resource[0].event_para).toBe('{"joules":150}')
    expect(pageOf(await log(env.siblingAdmin))).toEqual({ count: 0, resource: [] })
    expect(pageOf(await log(env.reader, { rescue_event_id: 'R-9' }))).toEqual({ count: 0, resource: [] })
  })
})

describe('the record tabs (page-detail)', () => {
  it('answers each tab its own records, open and closed, newest first', async () => {
    const s = await installation(env.admin, env.branch)
    const other = await installation(env.admin, env.branch)
    const check = await detection(s, {
      check_time: at('2025-03-02T01:00:00Z'),
      check_result: 0,
      fault_codes: ['E12'],
      battery: 80,
      report_type: 0,
    })
    await detection(s, { check_time: at('2025-03-01T01:00:00Z') })
    await detection(other, { check_time: at('2025-03-03T01:00:00Z') })
    await event(s, {
      kind: 'warning',
      code: 'battery_low',
      content: '电池电量低',
      event_time: at('2025-03-01T03:00:00Z'),
      closed_at: at('2025-03-02T03:00:00Z'),
    })
    await event(s, {
      kind: 'warning',
      code: 'pads_expiring',
      content: '电极片即将过期',
      event_time: at('2025-03-04T03:00:00Z'),
    })
    await event(s, {
      kind: 'fault',
      code: 'E12',
      content: '电极片未连接',
      report_type: 0,
      detection_id: check.id,
      event_time: check.check_time,
      handler_name: '张三',
      handle_note: '已更换',
      handle_time: at('2025-03-02T05:00:00Z'),
    })
    await event(s, {
      kind: 'offset',
      install_location: '文三路100号',
      offset_location: '文二路1号',
      offset_lat: 30.28,
      offset_lon: 120.13,
      offset_distance: 1200,
      event_time: at('2025-03-03T03:00:00Z'),
    })
    await event(s, { kind: 'offline', event_time: at('2025-03-03T04:00:00Z') })

    const tab = async <T>(data_type: string, token = env.reader) =>
      pageOf<T>(await detail(token, { device_sn: s.device_sn, data_type }))

    const detect = await tab<Record<string, unknown>>('detect')
    expect(detect.count).toBe(2)
    expect(detect.resource[0]).toEqual({
      id: check.id,
      report_type: 0,
      report_type_text: '开机自检',
      check_result: 0,
      fault_codes: ['E12'],
      battery: 80,
      check_time: '2025-03-02T01:00:00.000Z',
    })
    const warn = await tab<Record<string, unknown>>('early_warn')
    expect(warn.resource).toEqual([
      expect.objectContaining({
        event_type: 'pads_expiring',
        event_code: 'pads_expiring',
        content: '电极片即将过期',
        invalid_time: null,
      }),
      expect.objectContaining({
        event_type: 'battery_low',
        event_time: '2025-03-01T03:00:00.000Z',
        invalid_time: '2025-03-02T03:00:00.000Z',
      }),
    ])
    const fault = await tab<Record<string, unknown>>('fault')
    expect(fault.resource).toEqual([
      expect.objectContaining({
        report_type: 0,
        report_type_text: '开机自检',
        fault_code: 'E12',
        fault_desc: '电极片未连接',
        check_time: '2025-03-02T01:00:00.000Z',
        recover_time: null,
        handler_name: '张三',
        handle_note: '已更换',
      }),
    ])
    const offset = await tab<Record<string, unknown>>('offset')
    expect(offset.resource).toEqual([
      expect.objectContaining({
        install_location: '文三路100号',
        offset_location: '文二路1号',
        offset_distance: 1200,
      }),
    ])
    // English labels follow the caller's language.
    const en = await env.t.api(deviceDetailApi.page, {
      token: env.reader,
      lang: 'en-US',
      query: { device_sn: s.device_sn, data_type: 'detect' },
    })
    expect(pageOf<{ report_type_text: string }>(en).resource[0].report_type_text).toBe('Power-on self-test')
    expect(await tab('inspect')).toEqual({ count: 0, resource: [] })
    // Another branch sees none of it.
    for (const type of ['detect', 'early_warn', 'fault', 'offset']) {
      expect(await tab(type, env.siblingAdmin)).toEqual({ count: 0, resource: [] })
    }
  })

  it('pages 500 records at a time', async () => {
    const s = await installation(env.admin, env.branch)
    const start = at('2024-01-01T00:00:00Z').getTime()
    await env.t.db.insert(deviceDetections).values(
      Array.from({ length: 501 }, (_, i) => ({
        ...where(s),
        report_type: 1,
        check_result: 1,
        check_time: new Date(start + i * 60_000),
      })),
    )
    const first = pageOf<{ check_time: string }>(
      await detail(env.admin, { device_sn: s.device_sn, data_type: 'detect' }),
    )
    expect(first.count).toBe(501)
    expect(first.resource).toHaveLength(500)
    expect(first.resource[0].check_time).toBe(new Date(start + 500 * 60_000).toISOString())
    const second = pageOf(await detail(env.admin, { device_sn: s.device_sn, data_type: 'detect', page: 2 }))
    expect(second.resource).toHaveLength(1)
  })

  it('shows only the records of a rescue’s span when opened from it', async () => {
    const s = await installation(env.admin, env.branch)
    await rescue(s, 'SPAN-1', at('2025-04-01T02:00:00Z'), 1, at('2025-04-01T03:00:00Z'))
    await detection(s, { check_time: at('2025-04-01T01:59:00Z') })
    const during = await detection(s, { check_time: at('2025-04-01T02:30:00Z') })
    await detection(s, { check_time: at('2025-04-01T03:01:00Z') })
    const r = pageOf<{ id: number }>(
      await detail(env.admin, { device_sn: s.device_sn, data_type: 'detect', rescue_event_id: 'SPAN-1' }),
    )
    expect(r.resource.map((x) => x.id)).toEqual([during.id])
    expect(
      pageOf(
        await detail(env.admin, { device_sn: s.device_sn, data_type: 'detect', rescue_event_id: 'NONE' }),
      ),
    ).toEqual({
      count: 0,
      resource: [],
    })
  })

  it('keeps records where they happened: a device moved to another branch leaves them behind', async () => {
    const s = await installation(env.admin, env.branch)
    // Recorded while the device stood in the sibling branch.
    await event(
      { ...s, agency_id: env.sibling.id, index_link: env.sibling.index_link },
      {
        kind: 'warning',
        code: 'old',
        event_time: at('2025-01-01T00:00:00Z'),
        closed_at: at('2025-01-02T00:00:00Z'),
      },
    )
    await event(s, { kind: 'warning', code: 'new', event_time: at('2025-02-01T00:00:00Z') })
    const codes = async (token: string) =>
      pageOf<{ event_code: string }>(
        await detail(token, { device_sn: s.device_sn, data_type: 'early_warn' }),
      ).resource.map((r) => r.event_code)
    expect(await codes(env.admin)).toEqual(['new'])
    expect(await codes(env.siblingAdmin)).toEqual(['old'])
    expect(await codes(env.system)).toEqual(['new', 'old'])
  })

  it('carries the records’ organisation path along when an organisation moves', async () => {
    const fromAgent = await env.f.agency(await env.f.root())
    const toAgent = await env.f.agency(await env.f.root())
    const moving = await env.f.agency(fromAgent)
    const s = await installation((await env.f.signedIn(moving)).token, moving)
    await event(s, { kind: 'fault', code: 'E1', event_time: at('2025-02-01T00:00:00Z') })
    await detection(s, { check_time: at('2025-02-01T00:00:00Z') })
    await rescue(s, 'MOVE-1', at('2025-02-01T00:00:00Z'), 1)
    const toAdmin = (await env.f.signedIn(toAgent)).token
    const fromAdmin = (await env.f.signedIn(fromAgent)).token
    expect(pageOf(await detail(toAdmin, { device_sn: s.device_sn, data_type: 'fault' })).count).toBe(0)

    const moved = await env.t.api(agencyApi.update, {
      token: env.system,
      params: { id: moving.id },
      body: {
        name: moving.name,
        agency_type: 2,
        parent_id: toAgent.id,
        contact_name: moving.contact_name!,
        phone: moving.phone!,
        address_code: moving.address_code!,
      },
    })
    expect(moved.code).toBe(0)
    const newLink = `${toAgent.index_link}${moving.id}/`
    for (const table of [deviceEvents, deviceDetections, rescueEvents]) {
      const rows = await env.t.db
        .select({ index_link: table.index_link })
        .from(table)
        .where(eq(table.device_id, s.id))
      expect(rows.map((r) => r.index_link)).toEqual([newLink])
    }
    expect(pageOf(await detail(toAdmin, { device_sn: s.device_sn, data_type: 'fault' })).count).toBe(1)
    expect(pageOf(await detail(fromAdmin, { device_sn: s.device_sn, data_type: 'fault' })).count).toBe(0)
  })
})

describe('the event tables', () => {
  it('allow one open event per device and condition, any number closed', async () => {
    const s = await installation(env.admin, env.branch)
    await event(s, { kind: 'offline', event_time: at('2025-01-01T00:00:00Z') })
    await expect(event(s, { kind: 'offline', event_time: at('2025-01-02T00:00:00Z') })).rejects.toThrow()
    await event(s, {
      kind: 'offline',
      event_time: at('2024-12-01T00:00:00Z'),
      closed_at: at('2024-12-02T00:00:00Z'),
    })
    await event(s, {
      kind: 'offline',
      event_time: at('2024-11-01T00:00:00Z'),
      closed_at: at('2024-11-02T00:00:00Z'),
    })
    // Two warnings of different codes are two conditions; the same code twice is not.
    await event(s, { kind: 'warning', code: 'battery_low', event_time: at('2025-01-01T00:00:00Z') })
    await event(s, { kind: 'warning', code: 'pads_expiring', event_time: at('2025-01-01T00:00:00Z') })
    await expect(
      event(s, { kind: 'warning', code: 'battery_low', event_time: at('2025-01-03T00:00:00Z') }),
    ).rejects.toThrow()
    // Offsets and offline spells carry no code; an unknown kind is refused.
    await expect(
      event(s, { kind: 'offset', code: 'x', event_time: at('2025-01-01T00:00:00Z') }),
    ).rejects.toThrow()
    await expect(
      event(s, { kind: 'rescue' as 'fault', event_time: at('2025-01-01T00:00:00Z') }),
    ).rejects.toThrow()
    // One rescue under way per device, and a device's rescue ids are its own.
    await rescue(s, 'U-1', at('2025-01-01T00:00:00Z'), 0)
    await expect(rescue(s, 'U-2', at('2025-01-02T00:00:00Z'), 0)).rejects.toThrow()
    await expect(
      rescue(s, 'U-1', at('2025-01-02T00:00:00Z'), 0, at('2025-01-02T01:00:00Z')),
    ).rejects.toThrow()
  })

  it('derive the status by one priority: fault, offset, offline, warning, else normal', () => {
    expect(statusOfConditions([])).toBe(0)
    expect(statusOfConditions(['warning'])).toBe(1)
    expect(statusOfConditions(['warning', 'offline'])).toBe(4)
    expect(statusOfConditions(['offline', 'offset', 'warning'])).toBe(3)
    expect(statusOfConditions(['offset', 'fault', 'offline', 'warning'])).toBe(2)
  })

  it('clean-up types: 1 rescues, 2 warnings, 3 offsets, 4 faults; all is everything reported', () => {
    expect(cleanPlan([1])).toEqual({ kinds: [], rescues: true, detections: false })
    expect(cleanPlan([4, 2])).toEqual({ kinds: ['warning', 'fault'], rescues: false, detections: false })
    expect(cleanPlan([3, 'all'])).toEqual({
      kinds: ['warning', 'offset', 'fault', 'offline'],
      rescues: true,
      detections: true,
    })
  })
})

describe('recording an inspection', () => {
  // The photos are uploads this server keeps: an inspection naming anything else is refused.
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  )
  beforeAll(async () => {
    for (const key of ['inspect.png', 'inspect-2.png', 'a.png', 'b.png', 'c.png'])
      await env.t.ctx.storage.put(key, PNG, 'image/png')
  })

  const form = (device_sn: string, over: Record<string, unknown> = {}) => ({
    device_sn,
    inspect_status: 1,
    process_content: '外观完好，指示灯正常',
    inspector_name: '李四',
    inspect_time: new Date(clock.now().getTime() - 3_600_000).toISOString(),
    imgs: ['/files/inspect.png', '/files/inspect-2.png'],
    ...over,
  })

  it('writes the inspection at the device’s installation, shows it in the tab and logs it', async () => {
    const s = await installation(env.admin, env.branch)
    const r = await env.t.api(deviceDetailApi.inspect, {
      token: env.editor,
      body: form(s.device_sn) as never,
    })
    expect(r).toMatchObject({
      code: 0,
      msg: '添加成功！',
      data: {
        device_sn: s.device_sn,
        inspect_status: 1,
        inspector_name: '李四',
        imgs: ['/files/inspect.png', '/files/inspect-2.png'],
      },
    })
    const [row] = await env.t.db.select().from(deviceInspections).where(eq(deviceInspections.id, r.data.id))
    expect(row).toMatchObject({
      device_id: s.id,
      installation_id: s.installation_id,
      agency_id: env.branch.id,
    })
    await env.t.api(deviceDetailApi.inspect, {
      token: env.editor,
      body: form(s.device_sn, {
        inspect_status: 0,
        inspect_time: '2025-01-01T08:00:00+08:00',
        imgs: [],
      }) as never,
    })
    const tab = pageOf<{ inspect_status: number; inspect_time: string; imgs: string[] }>(
      await detail(env.reader, { device_sn: s.device_sn, data_type: 'inspect' }),
    )
    expect(tab.resource.map((x) => [x.inspect_status, x.imgs])).toEqual([
      [1, ['/files/inspect.png', '/files/inspect-2.png']],
      [0, []],
    ])
    expect(tab.resource[1].inspect_time).toBe('2025-01-01T00:00:00.000Z')
    expect(
      pageOf(await detail(env.siblingAdmin, { device_sn: s.device_sn, data_type: 'inspect' })).count,
    ).toBe(0)
    const log = await env.t.api(operationLogApi.list, { token: env.admin, query: { content: s.device_sn } })
    expect((log.data as PageData<{ operation_type: string; content: string }>).resource).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation_type: '设备巡检',
          content: `巡检设备：${s.device_sn}（正常，李四）`,
        }),
      ]),
    )
    // Export type 2 (the last 7 days by default) has the recent one, with the dictionary's label.
    const exported = await env.t.api(deviceIoApi.dataExport, { token: env.editor, query: { export_type: 2 } })
    expect(exported.code, exported.msg).toBe(0)
    const sheet = await downloadSheet(env.t.app, exported.data.file_url)
    const rows = sheet.rows.filter((row) => row[0] === s.device_sn)
    expect(rows.map((row) => row.slice(4, 7))).toEqual([['正常', '外观完好，指示灯正常', '李四']])
  })

  it('refuses bad answers, read-only members and other branches’ devices, and writes nothing', async () => {
    const s = await installation(env.admin, env.branch)
    const post = (token: string, over: Record<string, unknown> = {}) =>
      env.t.api(deviceDetailApi.inspect, { token, body: form(s.device_sn, over) as never })
    expect((await post(env.editor, { inspect_status: 2 })).msg).toBe('请选择巡检结果')
    expect((await post(env.editor, { inspector_name: '  ' })).msg).toBe('请输入巡检人')
    expect((await post(env.editor, { inspector_name: undefined })).msg).toBe('请输入巡检人')
    expect((await post(env.editor, { inspect_time: '2025-01-01' })).msg).toBe('请选择巡检时间')
    expect((await post(env.editor, { process_content: 'x'.repeat(501) })).msg).toBe('内容过长')
    expect((await post(env.editor, { imgs: ['/files/a.png', '/files/b.png', '/files/c.png'] })).msg).toBe(
      '最多上传2张图片',
    )
    const future = new Date(clock.now().getTime() + 3_600_000).toISOString()
    expect((await post(env.editor, { inspect_time: future })).msg).toBe('巡检时间不能晚于当前时间')
    // A photo that is not this server's upload: another host's, or one never uploaded.
    expect((await post(env.editor, { imgs: ['https://evil.example/x.exe'] })).msg).toBe(
      '只能上传jpg/jpeg/png格式的图片！',
    )
    expect((await post(env.editor, { imgs: ['/files/2026/11/never-uploaded.png'] })).msg).toBe(
      '图片不存在，请先上传',
    )
    expect((await post(env.reader)).code).toBe(Code.FORBIDDEN)
    expect((await post(env.siblingAdmin)).code).toBe(Code.NOT_FOUND)
    const stock = await env.f.device(env.branch)
    expect(
      (await env.t.api(deviceDetailApi.inspect, { token: env.admin, body: form(stock.device_sn) as never }))
        .code,
    ).toBe(Code.NOT_FOUND)
    expect(
      await env.t.db.select().from(deviceInspections).where(eq(deviceInspections.device_id, s.id)),
    ).toEqual([])
  })
})

describe('deleting install info by serial (setup/clean)', () => {
  /** A device with one record of every kind on 2025-03-10 (Shanghai), and a warning a month earlier. */
  async function stocked(token = env.admin, agency = env.branch) {
    const s = await installation(token, agency)
    const day = at('2025-03-10T02:00:00Z')
    await rescue(s, `C-${s.id}`, day, 2, at('2025-03-10T02:20:00Z'))
    await event(s, { kind: 'warning', code: 'battery_low', event_time: day })
    await event(s, { kind: 'warning', code: 'pads_expiring', event_time: at('2025-02-10T02:00:00Z') })
    await event(s, { kind: 'offset', event_time: day, offset_distance: 500 })
    await event(s, { kind: 'fault', code: 'E1', event_time: day })
    await event(s, { kind: 'offline', event_time: day, closed_at: at('2025-03-10T05:00:00Z') })
    await detection(s, { check_time: day, check_result: 0 })
    await env.t.db.insert(deviceInspections).values({
      device_id: s.id,
      installation_id: s.installation_id,
      agency_id: s.agency_id,
      inspect_status: 1,
      inspector_name: '王五',
      inspect_time: day,
    })
    await env.t.db.update(devices).set({ status: 2 }).where(eq(devices.id, s.id))
    return s
  }

  const counts = async (s: Installation) => {
    const kinds = await env.t.db
      .select({ kind: deviceEvents.kind })
      .from(deviceEvents)
      .where(eq(deviceEvents.device_id, s.id))
    const rescues = await env.t.db.select().from(rescueEvents).where(eq(rescueEvents.device_id, s.id))
    return {
      warning: kinds.filter((k) => k.kind === 'warning').length,
      offset: kinds.filter((k) => k.kind === 'offset').length,
      fault: kinds.filter((k) => k.kind === 'fault').length,
      offline: kinds.filter((k) => k.kind === 'offline').length,
      rescue: rescues.length,
      usage: (await env.t.db.select().from(deviceUsageLogs).where(eq(deviceUsageLogs.device_id, s.id)))
        .length,
      detect: (await env.t.db.select().from(deviceDetections).where(eq(deviceDetections.device_id, s.id)))
        .length,
      inspect: (await env.t.db.select().from(deviceInspections).where(eq(deviceInspections.device_id, s.id)))
        .length,
    }
  }
  const full = { warning: 2, offset: 1, fault: 1, offline: 1, rescue: 1, usage: 2, detect: 1, inspect: 1 }
  const clean = (token: string, body: Record<string, unknown>) =>
    env.t.api(deviceDetailApi.clean, { token, body: body as never })
  const statusOf = async (s: Installation) =>
    (await env.t.db.select().from(devices).where(eq(devices.id, s.id)))[0].status

  it('checks in the spec’s order, with its messages, and deletes nothing when it refuses', async () => {
    const s = await stocked()
    const other = await stocked(env.siblingAdmin, env.sibling)
    expect((await clean(env.admin, { data_type: [2] })).msg).toBe('请输入设备sn！')
    expect((await clean(env.admin, { device_sn: '  ', data_type: [2] })).msg).toBe('请输入设备sn！')
    expect((await clean(env.admin, { device_sn: 'A64NOSUCH7', data_type: [2] })).msg).toBe(
      '请输入正确的设备sn！',
    )
    expect((await clean(env.admin, { device_sn: 'x'.repeat(40), data_type: [2] })).msg).toBe(
      '请输入正确的设备sn！',
    )
    expect((await clean(env.admin, { device_sn: other.device_sn, data_type: [2] })).msg).toBe(
      '请输入正确的设备sn！',
    )
    expect((await clean(env.admin, { device_sn: 'A64NOSUCH7' })).msg).toBe('请输入正确的设备sn！')
    expect((await clean(env.admin, { device_sn: s.device_sn })).msg).toBe('请选择删除信息！')
    expect((await clean(env.admin, { device_sn: s.device_sn, data_type: [] })).msg).toBe('请选择删除信息！')
    expect((await clean(env.admin, { device_sn: s.device_sn, data_type: [5] })).msg).toBe('请选择删除信息！')
    expect(
      (
        await clean(env.admin, {
          device_sn: s.device_sn,
          data_type: [2],
          start_time: '2025-03-11',
          end_time: '2025-03-10',
        })
      ).msg,
    ).toBe('开始时间不能大于结束时间！')
    expect(
      (await clean(env.admin, { device_sn: s.device_sn, data_type: [2], start_time: '10/03/2025' })).msg,
    ).toBe('日期格式不正确')
    // Device ALL is needed; 'all' only for a super administrator of the system organisation.
    expect((await clean(env.editor, { device_sn: s.device_sn, data_type: [2] })).code).toBe(Code.FORBIDDEN)
    expect((await clean(env.reader, { device_sn: s.device_sn, data_type: [2] })).code).toBe(Code.FORBIDDEN)
    expect((await clean(env.admin, { device_sn: s.device_sn, data_type: ['all'] })).code).toBe(Code.FORBIDDEN)
    expect(await counts(s)).toEqual(full)
    expect(await counts(other)).toEqual(full)
    expect(await statusOf(s)).toBe(2)
  })

  it('deletes the chosen records of the date range, derives the status again, and logs it', async () => {
    const s = await stocked()
    const r = await clean(env.admin, {
      device_sn: s.device_sn,
      data_type: [4, 2, '2'],
      start_time: '2025-03-10',
      end_time: '2025-03-10',
    })
    expect(r).toMatchObject({
      code: 0,
      msg: '清除成功！',
      data: {
        device_sn: s.device_sn,
        data_type: [4, 2],
        deleted: { rescue: 0, early_warn: 1, offset: 0, fault: 1, offline: 0, detect: 0 },
      },
    })
    // The February warning lies outside the range; the open offset now decides the status.
    expect(await counts(s)).toEqual({ ...full, warning: 1, fault: 0 })
    expect(await statusOf(s)).toBe(3)
    const rescueAndOffset = await clean(env.admin, { device_sn: s.device_sn, data_type: [1, 3] })
    expect(rescueAndOffset.data.deleted).toMatchObject({ rescue: 1, offset: 1 })
    expect(await counts(s)).toEqual({ ...full, warning: 1, fault: 0, offset: 0, rescue: 0, usage: 0 })
    // The open February warning is what is left.
    expect(await statusOf(s)).toBe(1)
    const log = await env.t.api(operationLogApi.list, { token: env.admin, query: { content: s.device_sn } })
    expect((log.data as PageData<{ operation_type: string; content: string }>).resource).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation_type: '清除安装信息',
          content: `清除安装信息：${s.device_sn}（故障、预警） 2025-03-10~2025-03-10`,
        }),
        expect.objectContaining({ content: `清除安装信息：${s.device_sn}（急救事件、位置偏移）` }),
      ]),
    )
  })

  it('deletes only the records of the caller’s scope', async () => {
    const s = await stocked()
    // A warning recorded while the device stood in the sibling branch stays for it.
    await event(
      { ...s, agency_id: env.sibling.id, index_link: env.sibling.index_link },
      {
        kind: 'warning',
        code: 'elsewhere',
        event_time: at('2025-03-10T03:00:00Z'),
      },
    )
    const r = await clean(env.admin, { device_sn: s.device_sn, data_type: [2] })
    expect(r.data.deleted.early_warn).toBe(2)
    const left = await env.t.db.select().from(deviceEvents).where(eq(deviceEvents.device_id, s.id))
    expect(left.filter((e) => e.kind === 'warning').map((e) => e.code)).toEqual(['elsewhere'])
  })

  it('lets the system super administrator delete everything the device reported, inspections kept', async () => {
    const s = await stocked()
    const stock = await env.f.device(env.branch)
    expect((await clean(env.system, { device_sn: stock.device_sn, data_type: 'all' })).code).toBe(0)
    const r = await clean(env.system, { device_sn: s.device_sn, data_type: 'all' })
    expect(r).toMatchObject({
      code: 0,
      data: {
        data_type: ['all'],
        deleted: { rescue: 1, early_warn: 2, offset: 1, fault: 1, offline: 1, detect: 1 },
      },
    })
    expect(await counts(s)).toEqual({
      warning: 0,
      offset: 0,
      fault: 0,
      offline: 0,
      rescue: 0,
      usage: 0,
      detect: 0,
      inspect: 1,
    })
    expect(await statusOf(s)).toBe(0)
    const rows = await env.t.db
      .select()
      .from(rescueEvents)
      .where(inArray(rescueEvents.device_id, [s.id]))
    expect(rows).toEqual([])
  })
})
