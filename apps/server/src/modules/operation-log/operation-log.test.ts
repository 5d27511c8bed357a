import { Code, type DataOf } from '@aed/contracts'
import { operationLogApi } from '@aed/contracts/operation-log'
import { settingsApi } from '@aed/contracts/settings'
import { sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationLogs } from '../../db/schema.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp

/** The list answers a page, or with export_xls the file: these take `data` as the one expected. */
function pageOf(data: DataOf<typeof operationLogApi.list>) {
  if (!('resource' in data)) throw new Error('expected a page, got an export')
  return data
}
function exportOf(data: DataOf<typeof operationLogApi.list>) {
  if (!('file_url' in data)) throw new Error('expected an export, got a page')
  return data
}

beforeAll(async () => {
  t = await createTestApp()
  // Real changes produce the entries: sign-ins everywhere and a settings change in Hangzhou.
  const hz = await t.login(demo.hzAdmin)
  await t.api(settingsApi.save, {
    token: hz,
    body: {
      aid_sms: 1,
      exec_status_sms: 1,
      exec_status_sms_time_period: ['08:00', '18:00'],
      location_offset: 2,
      alarm_sound: 1,
      electrode_sheet_expire: 2,
      battery_expire: 2,
    },
  })
  await t.login(demo.szAdmin)
  await t.login(demo.superAdmin)
  // An entry from long ago, outside the default 180 days.
  await t.db.insert(operationLogs).values({
    agency_id: 1,
    member_id: 1,
    operator: '系统超级管理员',
    operation_type: '登录',
    content: '很久以前的登录',
    create_time: sql`now() - interval '200 days'` as unknown as Date,
  })
})
afterAll(() => t.close())

describe('operation log', () => {
  it('lists the last 180 days of the whole subtree, newest first, in the spec time format', async () => {
    const r = pageOf((await t.api(operationLogApi.list, { token: await t.login(demo.superAdmin) })).data)
    expect(r.resource.map((l) => l.content)).not.toContain('很久以前的登录')
    expect(r.resource[0].create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(r.resource.map((l) => l.operation_type)).toContain('系统设置')
    const old = await t.api(operationLogApi.list, {
      token: await t.login(demo.superAdmin),
      query: { start_time: '2000-01-01', content: '很久以前' },
    })
    expect(pageOf(old.data).count).toBe(1)
  })

  it('shows a member only the entries of its own subtree', async () => {
    const r = await t.api(operationLogApi.list, {
      token: await t.login(demo.eastAdmin),
      query: { page_size: 100 },
    })
    const { resource, count } = pageOf(r.data)
    expect(resource).toHaveLength(count)
    // Its own sign-in and Hangzhou's entries; Shenzhen's sign-in, which the system sees, is not there.
    expect(new Set(resource.map((l) => l.agency_name))).toEqual(
      new Set(['华东区域总代理', '杭州市西湖区急救中心']),
    )
    expect(resource.map((l) => l.operator)).not.toContain('南山急救站管理员')
    const system = await t.api(operationLogApi.list, {
      token: await t.login(demo.superAdmin),
      query: { operator: '南山', page_size: 100 },
    })
    expect(pageOf(system.data).resource.map((l) => l.operator)).toContain('南山急救站管理员')
  })

  it('filters by operator and content', async () => {
    const token = await t.login(demo.superAdmin)
    const byOp = pageOf((await t.api(operationLogApi.list, { token, query: { operator: '西湖' } })).data)
    // Hangzhou's sign-in and settings change, and nobody else's.
    expect(byOp.count).toBeGreaterThan(0)
    expect(new Set(byOp.resource.map((l) => l.operator))).toEqual(new Set(['西湖急救中心管理员']))
    expect(byOp.resource.map((l) => l.operation_type)).toEqual(expect.arrayContaining(['登录', '系统设置']))
    const byContent = await t.api(operationLogApi.list, { token, query: { content: '位置偏移:2km' } })
    expect(pageOf(byContent.data).count).toBe(1)
    const bad = await t.api(operationLogApi.list, {
      token,
      query: { start_time: '2026-02-01', end_time: '2026-01-01' },
    })
    expect(bad.msg).toBe('开始时间不能大于结束时间！')
  })

  it('exports a real spreadsheet of the matching entries', async () => {
    const token = await t.login(demo.superAdmin)
    const r = await t.api(operationLogApi.list, { token, query: { export_xls: 'true' } })
    expect(r.code).toBe(0)
    const { file_url, count } = exportOf(r.data)
    const file = await t.app.inject({ method: 'GET', url: file_url })
    expect(file.statusCode).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('系统操作日志')!
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '操作人',
      '操作类型',
      '操作内容',
      '所属机构',
      '操作时间',
    ])
    expect(sheet.rowCount - 1).toBe(count)
    const types = sheet.getColumn(2).values
    expect(types).toContain('系统设置')
  })

  it('is refused without the system-management area', async () => {
    expect((await t.api(operationLogApi.list, { token: await t.login(demo.general) })).code).toBe(
      Code.FORBIDDEN,
    )
  })
})
