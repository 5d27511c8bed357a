import fs from 'node:fs'
import path from 'node:path'
import { Code } from '@aed/contracts'
import { cabinetApi } from '@aed/contracts/cabinet'
import { deviceApi } from '@aed/contracts/device'
import { deviceIoApi, EXPORT_FILE_NAMES } from '@aed/contracts/device-io'
import { operationLogApi } from '@aed/contracts/operation-log'
import { and, eq, inArray, isNull, like, sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { deviceDetections, deviceInspections, devices, installations, rescueEvents } from '../../db/schema.ts'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { formatDateTime } from '../../lib/time.ts'
import { streamXlsx } from '../../providers/storage/xlsx.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { demo } from '../../test/harness.ts'
import { downloadSheet, importForm, importWorkbook, sheetRows } from '../../test/workbooks.ts'
import { TEMPLATE_HEADERS } from '../system/import-template.ts'
import { capped, heldCursorBatches, keysetBatches, prefetched } from './device-io.repository.ts'

// The server's "now" is this clock: the real now when the file starts, standing still. (The
// database's own defaults, as an installation's register time, run on real time.) `agent` is a general
// agent, `branch` an ordinary organisation under it; `admin` the branch's super administrator.
const clock = new TestClock(Date.now())
const env = deviceTestFile(clock, async ({ f, agent }) => {
  const otherAgent = await f.agency(await f.root())
  return {
    otherAgent,
    otherBranch: await f.agency(otherAgent),
    agentAdmin: (await f.signedIn(agent)).token,
    agentReader: (await f.signedIn(agent, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
    otherAdmin: (await f.signedIn(otherAgent)).token,
  }
})

/** Downloads an export's file through GET /files/* and opens its first sheet. */
async function openExport(fileUrl: string) {
  const { sheet, disposition, rows } = await downloadSheet(env.t.app, fileUrl)
  return { sheet, disposition, header: rows[0], rows: rows.slice(1) }
}

const DEVICE_HEADERS = [
  '设备SN',
  '型号',
  '设备状态',
  '电量(%)',
  '所属机构',
  '所在地区',
  '导航地址',
  '详细位置',
  '设备管理员',
  '管理员电话',
  '开放状态',
  '电池有效期',
  '电极片有效期',
  '主机有效期',
  '固件版本',
  '注册码',
  '注册时间',
  '信号强度(dBm)',
  '定位方式',
]

describe('the device list export (export_xls)', () => {
  it('writes every matching registered device of the scope with the list’s columns', async () => {
    const a = await env.f.registeredDevice(env.agentAdmin, env.branch, {
      location_desc: '二楼',
      contact: '甲',
    })
    const b = await env.f.registeredDevice(env.agentAdmin, env.agent, { open_state: 0 })
    const elsewhere = await env.f.registeredDevice(env.otherAdmin, env.otherBranch)
    await env.t.db.update(devices).set({ status: 2, battery: 42 }).where(eq(devices.id, a.id))
    const r = await env.t.api(deviceApi.list, { token: env.agentAdmin, query: { export_xls: 'true' } })
    expect(r.code).toBe(0)
    const data = r.data as { file_url: string; count: number }
    expect(data.file_url).toMatch(/^\/files\/.+\.xlsx\?download=/)
    const file = await openExport(data.file_url)
    expect(file.disposition).toContain(encodeURIComponent('设备列表.xlsx'))
    expect(file.sheet.name).toBe('设备列表')
    expect(file.header).toEqual(DEVICE_HEADERS)
    expect(file.rows).toHaveLength(data.count)
    const list = await env.t.api(deviceApi.list, { token: env.agentAdmin, query: { page_size: 100 } })
    expect(data.count).toBe((list.data as { count: number }).count)
    const bySn = new Map(file.rows.map((row) => [row[0], row]))
    expect(bySn.has(elsewhere.device_sn)).toBe(false)
    const [, , , , , , , , , , , battery, electrode, host] = bySn.get(a.device_sn)!
    expect(bySn.get(a.device_sn)).toEqual([
      a.device_sn,
      'D100',
      '故障',
      42,
      env.branch.name,
      '浙江省杭州市西湖区',
      '浙江省杭州市西湖区文三路100号',
      '二楼',
      undefined,
      undefined,
      '全开放',
      battery,
      electrode,
      host,
      'V1.0.3',
      a.register_code,
      formatDateTime(new Date(a.register_time)),
      // rssi and positioning type: never reported (empty trailing cells are not read back)
    ])
    expect(battery).toBe(a.battery_expire)
    expect(bySn.get(b.device_sn)?.[10]).toBe('不开放')
    // Newest registration first, as the list.
    expect(file.rows.map((row) => row[0]).indexOf(b.device_sn)).toBeLessThan(
      file.rows.map((row) => row[0]).indexOf(a.device_sn),
    )
  })

  it('writes what the gateway last heard; the electrode voltage for system super administrators only', async () => {
    const d = await env.registered()
    await d.send(d.msg('heartbeat', { battery: 80, rssi: -71, cable_voltage: 12.3 }))
    await d.send(d.msg('location', { lat: 30.27, lon: 120.15, positioning_type: 'lbs' }))
    const rowOf = async (token: string) => {
      const r = await env.t.api(deviceApi.list, { token, query: { export_xls: 'true', device_sn: d.sn } })
      const file = await openExport((r.data as { file_url: string }).file_url)
      return { header: file.header, row: file.rows[0] }
    }
    const agent = await rowOf(env.agentAdmin)
    expect(agent.header).toEqual(DEVICE_HEADERS)
    expect(agent.row.slice(-2)).toEqual([-71, '基站定位'])
    const system = await rowOf(await env.t.login(demo.superAdmin))
    expect(system.header).toEqual([...DEVICE_HEADERS, '电极电压(V)'])
    expect(system.row.slice(-3)).toEqual([-71, '基站定位', 12.3])
  })

  it('applies the list’s filters and its sort', async () => {
    const a = await env.f.registeredDevice(env.agentAdmin, env.branch)
    const r = await env.t.api(deviceApi.list, {
      token: env.agentAdmin,
      query: { export_xls: 'true', device_sn: a.device_sn },
    })
    const file = await openExport((r.data as { file_url: string }).file_url)
    expect(file.rows.map((row) => row[0])).toEqual([a.device_sn])

    const sorted = await env.t.api(deviceApi.list, {
      token: env.agentAdmin,
      query: { export_xls: 'true', order_by: 'device_sn' },
    })
    const sns = (await openExport((sorted.data as { file_url: string }).file_url)).rows.map((row) =>
      String(row[0]),
    )
    expect(sns).toEqual([...sns].sort())
    expect(sns.length).toBeGreaterThan(2)
    const bad = await env.t.api(deviceApi.list, {
      token: env.agentAdmin,
      query: { export_xls: 'true', order_by: 'secret_enc' },
    })
    expect(bad.code).toBe(Code.INVALID)
  })

  it('is refused to read-only members, who may still read the list', async () => {
    expect((await env.t.api(deviceApi.list, { token: env.agentReader })).code).toBe(0)
    const r = await env.t.api(deviceApi.list, { token: env.agentReader, query: { export_xls: 'true' } })
    expect(r).toMatchObject({ code: Code.FORBIDDEN, msg: '暂无权限!' })
  })
})

describe('writing an export through the storage provider', () => {
  it('answers an error, and does not hang, when storage fails before or during the write', async () => {
    const real = env.t.ctx.storage
    try {
      env.t.ctx.storage = {
        name: 'refusing',
        put: () => Promise.reject(new Error('bucket gone')),
        putStream: () => Promise.reject(new Error('bucket gone')),
      }
      const early = await env.t.api(deviceApi.list, { token: env.agentAdmin, query: { export_xls: 'true' } })
      expect(early.code).toBe(Code.INTERNAL)
      env.t.ctx.storage = {
        name: 'failing midway',
        put: real.put,
        putStream: async (_key, body) => {
          for await (const _ of body) throw new Error('disk full')
          throw new Error('unreachable')
        },
      }
      const midway = await env.t.api(deviceApi.list, { token: env.agentAdmin, query: { export_xls: 'true' } })
      expect(midway.code).toBe(Code.INTERNAL)
    } finally {
      env.t.ctx.storage = real
    }
  })

  it('keeps no file of an export that fails while it is written (too many rows)', async () => {
    const dir = path.join(env.t.ctx.config.dataDir, 'files')
    const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [])
    const before = files().length
    async function* rows() {
      yield [1, 2, 3]
      yield [4, 5, 6]
    }
    const columns = [{ header: 'n', width: 5, value: (n: number) => n }]
    await expect(streamXlsx(env.t.ctx, 'x.xlsx', 'x', columns, capped(rows(), 4))).rejects.toMatchObject({
      key: 'EXPORT_TOO_LARGE',
    })
    expect(files().filter((n) => n.endsWith('.tmp'))).toEqual([])
    expect(files().length).toBe(before)
    const ok = await streamXlsx(env.t.ctx, 'x.xlsx', 'x', columns, capped(rows(), 6))
    expect(ok.count).toBe(6)
    expect((await openExport(ok.file_url)).rows).toEqual([[1], [2], [3], [4], [5], [6]])
  })

  it('goes through a buffered put for a provider without a streaming one', async () => {
    const real = env.t.ctx.storage
    let puts = 0
    try {
      env.t.ctx.storage = {
        name: 'plain',
        put: (key, body, type) => {
          puts++
          return real.put(key, body, type)
        },
        read: real.read,
      }
      const r = await env.t.api(deviceApi.list, { token: env.agentAdmin, query: { export_xls: 'true' } })
      expect(r.code).toBe(0)
      const file = await openExport((r.data as { file_url: string }).file_url)
      expect(file.header).toEqual(DEVICE_HEADERS)
      expect(puts).toBe(1)
    } finally {
      env.t.ctx.storage = real
    }
  })
})

describe('reading an export in batches', () => {
  it('gives every row once, in order, across batch boundaries, NULLs included', async () => {
    const area = await env.f.agency(env.agent)
    const token = (await env.f.signedIn(area)).token
    const made = []
    for (const battery of [null, 5, 5, null, 80, 5, 20, null]) {
      const d = await env.f.registeredDevice(token, area)
      await env.t.db.update(devices).set({ battery }).where(eq(devices.id, d.id))
      made.push(d.id)
    }
    const q = {
      fields: [
        ['id', sql`d.id`],
        ['battery', sql`d.battery`],
      ] as const,
      from: sql`FROM devices d`,
      where: [
        sql`d.id IN (${sql.join(
          made.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ],
    }
    for (const desc of [false, true]) {
      const expected = await many<{ id: number }>(
        env.t.db,
        sql`SELECT id FROM devices WHERE ${inArray(devices.id, made)}
            ORDER BY battery ${sql.raw(desc ? 'DESC' : 'ASC')}, id ${sql.raw(desc ? 'DESC' : 'ASC')}`,
      )
      const got: number[] = []
      const sizes: number[] = []
      for await (const batch of keysetBatches<{ id: number; battery: number | null }>(
        env.t.db,
        { fields: q.fields as never, from: q.from, where: q.where },
        [
          { expr: sql`d.battery`, type: 'integer', nullable: true, desc },
          { expr: sql`d.id`, type: 'bigint', desc },
        ],
        3,
      )) {
        sizes.push(batch.length)
        got.push(...batch.map((b) => b.id))
      }
      expect(got).toEqual(expected.map((e) => e.id))
      expect(sizes).toEqual([3, 3, 2])
    }
  })

  // A cursor WITH HOLD lives in the session that declared it: PGlite's one session (PostgreSQL's
  // pool reads sorted exports by id instead).
  it.skipIf(process.env.TEST_DB === 'postgres')(
    'reads a sort no index serves from one held cursor, fetched a batch at a time, and closes it',
    async () => {
      const area = await env.f.agency(env.agent)
      const token = (await env.f.signedIn(area)).token
      const made: number[] = []
      for (const battery of [40, null, 5, 90, 5, 60, 12]) {
        const d = await env.f.registeredDevice(token, area)
        await env.t.db.update(devices).set({ battery }).where(eq(devices.id, d.id))
        made.push(d.id)
      }
      const q = {
        fields: [['id', sql`d.id`]] as never,
        from: sql`FROM devices d`,
        where: [inArray(sql`d.id`, made)],
      }
      const order = [sql`d.battery DESC NULLS LAST`, sql`d.id ASC`]
      const expected = await many<{ id: number }>(
        env.t.db,
        sql`SELECT id FROM devices WHERE ${inArray(devices.id, made)} ORDER BY battery DESC NULLS LAST, id`,
      )
      const open = async () =>
        (
          await many<{ n: number }>(
            env.t.db,
            sql`SELECT count(*) AS n FROM pg_cursors WHERE name LIKE 'export_%'`,
          )
        )[0].n
      const got: number[] = []
      const sizes: number[] = []
      for await (const batch of heldCursorBatches<{ id: number }>(env.t.db, q, order, 3)) {
        // The cursor stays open between batches, outside any transaction, while other statements run.
        expect(await open()).toBe(1)
        await env.t.db.update(devices).set({ battery: 1 }).where(eq(devices.id, made[0]))
        sizes.push(batch.length)
        got.push(...batch.map((b) => b.id))
      }
      // Sorted once, when declared: the update made meanwhile does not move a row.
      expect(got).toEqual(expected.map((e) => e.id))
      expect(sizes).toEqual([3, 3, 1])
      expect(await open()).toBe(0)
      // A reader stopped early (the writer failed) closes it too.
      for await (const _ of heldCursorBatches(env.t.db, q, order, 3)) break
      expect(await open()).toBe(0)
    },
  )

  it('reads one batch ahead on PostgreSQL, and ends the reader when the writer stops early', async () => {
    const log: string[] = []
    async function* source() {
      try {
        for (let i = 1; i <= 3; i++) {
          log.push(`read ${i}`)
          yield [i]
        }
      } finally {
        log.push('closed')
      }
    }
    const got: number[] = []
    for await (const [n] of prefetched(source())) {
      log.push(`write ${n}`)
      got.push(n)
    }
    expect(got).toEqual([1, 2, 3])
    // Batch 2 is read before batch 1 is written.
    expect(log.slice(0, 3)).toEqual(['read 1', 'read 2', 'write 1'])
    log.length = 0
    for await (const [n] of prefetched(source())) {
      log.push(`write ${n}`)
      break
    }
    await new Promise((r) => setTimeout(r, 0))
    expect(log).toEqual(['read 1', 'read 2', 'write 1', 'closed'])
  })

  it('keeps the list’s order for a sort no index serves (battery)', async () => {
    const r = await env.t.api(deviceApi.list, {
      token: env.agentAdmin,
      query: { export_xls: 'true', order_by: '-battery' },
    })
    const rows = (await openExport((r.data as { file_url: string }).file_url)).rows
    // No cursor of the export is left open (PGlite reads this order through one).
    expect(await many(env.t.db, sql`SELECT name FROM pg_cursors WHERE name LIKE 'export_%'`)).toEqual([])
    const page = await env.t.api(deviceApi.list, {
      token: env.agentAdmin,
      query: { order_by: '-battery', page_size: 500 },
    })
    const listed = (page.data as { resource: { device_sn: string }[] }).resource.map((d) => d.device_sn)
    expect(rows.map((row) => row[0])).toEqual(listed)
  })

  it('runs two sorted exports at once, each in its own order and from its own cursor on PGlite', async () => {
    const orders = ['battery', '-host_expire'] as const
    const [a, b] = await Promise.all(
      orders.map((order_by) =>
        env.t.api(deviceApi.list, { token: env.agentAdmin, query: { export_xls: 'true', order_by } }),
      ),
    )
    for (const [i, r] of [a, b].entries()) {
      expect(r.code, r.msg).toBe(0)
      const rows = (await openExport((r.data as { file_url: string }).file_url)).rows
      const page = await env.t.api(deviceApi.list, {
        token: env.agentAdmin,
        query: { order_by: orders[i], page_size: 500 },
      })
      const listed = (page.data as { resource: { device_sn: string }[] }).resource.map((d) => d.device_sn)
      expect(rows.map((row) => row[0])).toEqual(listed)
    }
    expect(await many(env.t.db, sql`SELECT name FROM pg_cursors WHERE name LIKE 'export_%'`)).toEqual([])
  })
})

describe('GET /api/v1/device/data-export', () => {
  const exportOf = async (token: string, query: Record<string, string | number>) => {
    const r = await env.t.api(deviceIoApi.dataExport, { token, query: query as never })
    expect(r.code, r.msg).toBe(0)
    return { ...r.data, ...(await openExport(r.data.file_url)) }
  }

  it('1: the devices registered in the range, default the last 7 days', async () => {
    const d = await env.f.registeredDevice(env.agentAdmin, env.branch)
    const recent = await exportOf(env.agentAdmin, { export_type: 1 })
    expect(recent.disposition).toContain(encodeURIComponent(EXPORT_FILE_NAMES[1]))
    expect(recent.header).toEqual(DEVICE_HEADERS)
    expect(recent.rows.map((row) => row[0])).toContain(d.device_sn)
    expect(recent.count).toBe(recent.rows.length)
    const old = await exportOf(env.agentAdmin, {
      export_type: 1,
      start_time: '2020-01-01',
      end_time: '2020-01-31',
    })
    expect(old.rows).toEqual([])
    expect(old.header).toEqual(DEVICE_HEADERS)
  })

  it('2: the inspections of the scope in the range', async () => {
    const d = await env.f.registeredDevice(env.agentAdmin, env.branch)
    const other = await env.f.registeredDevice(env.otherAdmin, env.otherBranch)
    const [row] = await env.t.db.select().from(installations).where(eq(installations.device_id, d.id))
    const now = clock.now()
    await env.t.db.insert(deviceInspections).values([
      {
        device_id: d.id,
        installation_id: row.id,
        agency_id: env.branch.id,
        inspect_status: 1,
        process_content: '外观完好',
        inspector_name: '巡检员甲',
        inspect_time: new Date(now.getTime() - 3600_000),
      },
      {
        device_id: d.id,
        installation_id: row.id,
        agency_id: env.branch.id,
        inspect_status: 0,
        process_content: '电极片过期，已更换',
        inspector_name: '巡检员乙',
        inspect_time: new Date(now.getTime() - 2 * 3600_000),
      },
      {
        device_id: d.id,
        installation_id: row.id,
        agency_id: env.branch.id,
        inspect_status: 1,
        process_content: '三十天前',
        inspector_name: '巡检员丙',
        inspect_time: new Date(now.getTime() - 30 * 86_400_000),
      },
      {
        device_id: other.id,
        agency_id: env.otherBranch.id,
        inspect_status: 1,
        process_content: '别的机构',
        inspector_name: '巡检员丁',
        inspect_time: now,
      },
    ])
    const file = await exportOf(env.agentAdmin, { export_type: 2 })
    expect(file.disposition).toContain(encodeURIComponent('巡检记录.xlsx'))
    expect(file.header).toEqual([
      '设备SN',
      '型号',
      '所属机构',
      '安装位置',
      '巡检状态',
      '处理内容',
      '巡检人',
      '巡检时间',
    ])
    expect(file.rows).toEqual([
      [
        d.device_sn,
        'D100',
        env.branch.name,
        '浙江省杭州市西湖区文三路100号 一楼大厅',
        '正常',
        '外观完好',
        '巡检员甲',
        formatDateTime(new Date(now.getTime() - 3600_000)),
      ],
      [
        d.device_sn,
        'D100',
        env.branch.name,
        '浙江省杭州市西湖区文三路100号 一楼大厅',
        '异常',
        '电极片过期，已更换',
        '巡检员乙',
        formatDateTime(new Date(now.getTime() - 2 * 3600_000)),
      ],
    ])
    const month = await exportOf(env.agentAdmin, { export_type: 2, start_time: '2000-01-01' })
    expect(month.rows.map((row) => row[6])).toEqual(['巡检员甲', '巡检员乙', '巡检员丙'])
  })

  it('3 and 4: the self-tests and the rescues of the scope in the range', async () => {
    const d = await env.f.registeredDevice(env.agentAdmin, env.branch)
    const other = await env.f.registeredDevice(env.otherAdmin, env.otherBranch)
    const [installation] = await env.t.db
      .select()
      .from(installations)
      .where(eq(installations.device_id, d.id))
    const now = clock.now()
    const hourAgo = new Date(now.getTime() - 3600_000)
    const at = {
      device_id: d.id,
      installation_id: installation.id,
      agency_id: env.branch.id,
      index_link: env.branch.index_link,
    }
    const elsewhere = {
      device_id: other.id,
      agency_id: env.otherBranch.id,
      index_link: env.otherBranch.index_link,
    }
    await env.t.db.insert(deviceDetections).values([
      {
        ...at,
        report_type: 1,
        check_result: 0,
        fault_codes: ['E01', 'E07'],
        battery: 55,
        check_time: hourAgo,
      },
      { ...at, report_type: 0, check_result: 1, check_time: new Date(now.getTime() - 40 * 86_400_000) },
      { ...elsewhere, report_type: 2, check_result: 1, check_time: hourAgo },
    ])
    await env.t.db.insert(rescueEvents).values([
      {
        ...at,
        rescue_event_id: 'R-1',
        event_time: hourAgo,
        ended_at: now,
        event_location: '文三路地铁站',
        event_lat: 30.28,
        event_lon: 120.14,
      },
      { ...elsewhere, rescue_event_id: 'R-2', event_time: hourAgo },
    ])
    const checks = await exportOf(env.agentAdmin, { export_type: 3 })
    expect(checks.disposition).toContain(encodeURIComponent(EXPORT_FILE_NAMES[3]))
    expect(checks.header).toEqual(
      '设备SN 型号 所属机构 安装位置 检测类型 检测结果 故障码 电量(%) 检测时间'.split(' '),
    )
    expect(checks.rows).toEqual([
      [
        d.device_sn,
        'D100',
        env.branch.name,
        '浙江省杭州市西湖区文三路100号 一楼大厅',
        '待机自检',
        '异常',
        'E01、E07',
        55,
        formatDateTime(hourAgo),
      ],
    ])
    const rescues = await exportOf(env.agentAdmin, { export_type: 4 })
    expect(rescues.disposition).toContain(encodeURIComponent(EXPORT_FILE_NAMES[4]))
    expect(rescues.header).toEqual(
      '急救事件编号 设备SN 型号 所属机构 安装位置 设备管理员 急救地点 经度 纬度 开始时间 结束时间'.split(' '),
    )
    expect(rescues.rows).toEqual([
      [
        'R-1',
        d.device_sn,
        'D100',
        env.branch.name,
        '浙江省杭州市西湖区文三路100号 一楼大厅',
        undefined,
        '文三路地铁站',
        120.14,
        30.28,
        formatDateTime(hourAgo),
        formatDateTime(now),
      ],
    ])
  })

  it('refuses a bad type, a reversed range and read-only members', async () => {
    for (const export_type of ['', '0', '5', 'x']) {
      const r = await env.t.api(deviceIoApi.dataExport, {
        token: env.agentAdmin,
        query: { export_type } as never,
      })
      expect(r).toMatchObject({ code: Code.INVALID, msg: '请选择导出类型' })
    }
    const reversed = await env.t.api(deviceIoApi.dataExport, {
      token: env.agentAdmin,
      query: { export_type: 2, start_time: '2026-02-01', end_time: '2026-01-01' },
    })
    expect(reversed).toMatchObject({ code: Code.INVALID, msg: '开始时间不能大于结束时间！' })
    const ro = await env.t.api(deviceIoApi.dataExport, { token: env.agentReader, query: { export_type: 1 } })
    expect(ro.code).toBe(Code.FORBIDDEN)
  })
})

// ---------------------------------------------------------------------------------------------

let serial = 0
/** A serial of model code `code` no other test uses. */
const sn = (code = '64') => `T${code}${String(++serial).padStart(7, '0')}`

/** An import file: the template's header row, then these rows. */
const importFile = (rows: (string | number | null)[][], header: string[] = [...TEMPLATE_HEADERS]) =>
  importWorkbook('设备导入', header, rows)

const form = (file: Buffer, fields: Record<string, string> = {}, name = '设备导入.xlsx') =>
  importForm(file, name, fields)

const upload = (token: string, body: FormData) =>
  env.t.call<{ count: number; agency_id: number; agency_name: string; file_base64?: string }>(
    'POST',
    deviceIoApi.importDevices.path,
    { token, body },
  )

/** The failure file of a refused import, as rows (header first). */
async function failureRows(base64: string) {
  return (await sheetRows(Buffer.from(base64, 'base64'), { includeEmpty: true })).rows
}

const live = (serials: string[]) =>
  env.t.db
    .select()
    .from(devices)
    .where(and(inArray(devices.device_sn, serials), isNull(devices.deleted_at)))

describe('the factory import', () => {
  it('creates every row, with the serial’s model and its own secret, in the picked organisation', async () => {
    const rows = [
      [sn('64'), 'D100', 'V1.2.3'],
      [sn('71'), '', ''],
      [sn('99'), null, 'V2'],
    ]
    const r = await upload(
      env.agentAdmin,
      form(await importFile(rows), { agency_id: String(env.branch.id), import_xls: 'true' }),
    )
    expect(r).toMatchObject({
      code: 0,
      msg: '导入成功！',
      data: { count: 3, agency_id: env.branch.id, agency_name: env.branch.name },
    })
    const made = await live(rows.map((row) => String(row[0])))
    expect(made.map((d) => [d.device_sn, d.model, d.fw_version, d.agency_id, d.installation_id])).toEqual(
      expect.arrayContaining([
        [rows[0][0], 'D100', 'V1.2.3', env.branch.id, null],
        [rows[1][0], 'B100A', null, env.branch.id, null],
        [rows[2][0], '', 'V2', env.branch.id, null],
      ]),
    )
    const secrets = made.map((d) => env.t.ctx.sealer.open(d.secret_enc))
    expect(new Set(secrets).size).toBe(3)
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{64}$/)
    // On the factory list of the organisation, and in the operation log.
    const list = await env.t.api(deviceApi.list, {
      token: env.admin,
      query: { device_list_type: 2, device_sn: String(rows[0][0]) },
    })
    expect((list.data as { count: number }).count).toBe(1)
    const log = await env.t.api(operationLogApi.list, { token: env.agentAdmin, query: { operator: '' } })
    expect(JSON.stringify(log.data)).toContain(`导入出厂设备到${env.branch.name}：3台`)
  })

  it('takes 1,500 rows in one go (several inserts, one transaction) and refuses more than 10,000', async () => {
    const many = Array.from({ length: 1500 }, () => [sn('75'), 'E10A', 'V3'])
    const r = await upload(env.agentAdmin, form(await importFile(many), { agency_id: String(env.branch.id) }))
    expect(r).toMatchObject({ code: 0, data: { count: 1500 } })
    expect(await live(many.map((row) => String(row[0])))).toHaveLength(1500)
    const tooMany = Array.from({ length: 10_001 }, (_, i) => [`Z64${String(i).padStart(7, '0')}`])
    const refused = await upload(env.agentAdmin, form(await importFile(tooMany)))
    expect(refused).toMatchObject({ code: Code.INVALID, msg: '一次最多导入10000台设备' })
    expect(await live(['Z640000000'])).toEqual([])
  })

  it('imports into the member’s own organisation without a pick', async () => {
    const s = sn()
    const r = await upload(env.agentAdmin, form(await importFile([[s, '', '']])))
    expect(r).toMatchObject({ code: 0, data: { count: 1, agency_id: env.agent.id } })
    expect((await live([s]))[0].agency_id).toBe(env.agent.id)
  })

  it('writes nothing for one bad row and answers the rows with the reason on that row', async () => {
    const rows = [
      [sn(), 'D100', 'V1'],
      ['AB-12', 'D100', 'V1'],
      [sn(), '', ''],
    ]
    const r = await upload(env.agentAdmin, form(await importFile(rows), { agency_id: String(env.branch.id) }))
    expect(r).toMatchObject({ code: Code.INVALID, msg: '导入失败！' })
    expect(await live([String(rows[0][0]), String(rows[2][0])])).toEqual([])
    const file = await failureRows(r.data.file_base64!)
    expect(file[0]).toEqual([...TEMPLATE_HEADERS, '失败原因'])
    expect(file[1]).toEqual([rows[0][0], 'D100', 'V1'])
    expect(file[2]).toEqual(['AB-12', 'D100', 'V1', '设备SN格式不正确（6-32位字母或数字）'])
    expect(file[3]).toEqual([rows[2][0]])
    expect(file).toHaveLength(4)

    // The failure file is the template: fixed, it imports as it is.
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(Buffer.from(r.data.file_base64!, 'base64') as unknown as ArrayBuffer)
    const fixed = sn()
    book.worksheets[0].getCell('A3').value = fixed
    book.worksheets[0].getCell('D3').value = null
    const again = await upload(
      env.agentAdmin,
      form(Buffer.from(await book.xlsx.writeBuffer()), { agency_id: String(env.branch.id) }),
    )
    expect(again).toMatchObject({ code: 0, data: { count: 3 } })
    expect(await live([fixed])).toHaveLength(1)
  })

  it('names duplicates in the file, serials already made, wrong models and missing serials', async () => {
    const existing = await env.f.device(env.otherBranch)
    const dup = sn()
    const rows = [
      [dup, '', ''],
      [existing.device_sn, '', ''],
      [sn('65'), 'D100', ''],
      [sn('99'), 'D100', ''],
      [null, 'D100', 'V1'],
      [],
      [dup, 'd100', 'x'.repeat(33)],
    ]
    const r = await upload(env.agentAdmin, form(await importFile(rows)))
    expect(r).toMatchObject({ code: Code.INVALID, msg: '导入失败！' })
    const reasons = (await failureRows(r.data.file_base64!)).map((row) => row[3])
    expect(reasons).toEqual([
      '失败原因',
      undefined,
      '设备SN已存在',
      '型号与设备SN不符，应为B100或不填',
      '设备SN无对应型号，型号请不填',
      '设备SN不能为空',
      undefined,
      '设备SN与第2行重复；固件版本不能超过32个字符',
    ])
    expect(await live([dup])).toEqual([])
    const en = await env.t.call<{ file_base64: string }>('POST', deviceIoApi.importDevices.path, {
      token: env.agentAdmin,
      body: form(await importFile([[existing.device_sn]])),
      lang: 'en-US',
    })
    expect(en.msg).toBe('Import failed!')
    expect((await failureRows(en.data.file_base64))[1][3]).toBe('A device with this serial exists already')
  })

  it('refuses a serial a live rescue cabinet holds (the gateway looks in both) on its row, and writes nothing', async () => {
    const system = await env.t.login(demo.superAdmin)
    const made = await env.t.api(cabinetApi.create, {
      token: system,
      body: { cabinet_sn: sn(), agency_id: env.otherBranch.id },
    })
    expect(made.code).toBe(0)
    const taken = made.data.cabinet_sn
    const fine = sn()
    const file = await importFile([
      [fine, '', ''],
      [taken, '', ''],
    ])
    const r = await upload(env.agentAdmin, form(file, { agency_id: String(env.branch.id) }))
    expect(r).toMatchObject({ code: Code.INVALID, msg: '导入失败！' })
    const reasons = (await failureRows(r.data.file_base64!)).map((row) => row[3])
    expect(reasons).toEqual(['失败原因', undefined, `序列号${taken}已被救护箱使用`])
    expect(await live([fine, taken])).toEqual([])
    const en = await env.t.call<{ file_base64: string }>('POST', deviceIoApi.importDevices.path, {
      token: env.agentAdmin,
      body: form(file),
      lang: 'en-US',
    })
    expect((await failureRows(en.data.file_base64))[2][3]).toBe(
      `Serial ${taken} is in use by a rescue cabinet`,
    )
    // Once the cabinet is deleted, its serial may name an AED.
    const gone = await env.t.api(cabinetApi.batchDestroy, {
      token: system,
      body: { cabinet_sn_list: [taken] },
    })
    expect(gone.code).toBe(0)
    const again = await upload(env.agentAdmin, form(file, { agency_id: String(env.branch.id) }))
    expect(again).toMatchObject({ code: 0, data: { count: 2 } })
  })

  it('refuses a file that is not the template, an empty one and a non-xlsx', async () => {
    const wrongHeader = await upload(
      env.agentAdmin,
      form(await importFile([[sn()]], ['SN', '型号', '固件版本'])),
    )
    expect(wrongHeader).toMatchObject({ code: Code.INVALID, msg: '导入文件格式不正确，请使用导入模板' })
    const empty = await upload(env.agentAdmin, form(await importFile([])))
    expect(empty).toMatchObject({ code: Code.INVALID, msg: '导入文件中没有设备' })
    const text = await upload(env.agentAdmin, form(Buffer.from('设备SN,型号\n'), {}, 'a.csv'))
    expect(text.code).toBe(Code.INVALID)
    const renamed = await upload(env.agentAdmin, form(Buffer.from('not a zip'), {}, 'a.xlsx'))
    expect(renamed.code).toBe(Code.INVALID)
    const none = await env.t.call('POST', deviceIoApi.importDevices.path, {
      token: env.agentAdmin,
      body: new FormData(),
    })
    expect(none.code).toBe(Code.INVALID)
  })

  it('is refused to read-only members, ordinary organisations and another branch’s organisation', async () => {
    const s = sn()
    const file = await importFile([[s, '', '']])
    const ro = await upload(env.agentReader, form(file))
    expect(ro.code).toBe(Code.FORBIDDEN)
    const ordinary = await upload(env.admin, form(file))
    expect(ordinary).toMatchObject({ code: Code.FORBIDDEN, msg: '暂无权限!' })
    const cross = await upload(env.otherAdmin, form(file, { agency_id: String(env.branch.id) }))
    expect(cross).toMatchObject({ code: Code.INVALID, msg: '请选择所属机构' })
    expect(await live([s])).toEqual([])
    expect(await env.t.db.select().from(devices).where(like(devices.device_sn, s))).toEqual([])
  })
})
