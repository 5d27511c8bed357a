import { Code } from '@aed/contracts'
import { constantsApi } from '@aed/contracts/constants'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StorageProvider } from '../../providers/storage/storage-provider.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp
const tokens: Record<string, string> = {}
beforeAll(async () => {
  t = await createTestApp()
  for (const k of ['general', 'hzAdmin', 'njAdmin'] as const) tokens[k] = await t.login(demo[k])
})
afterAll(() => t.close())

describe('common constants', () => {
  it('answers device models, brands, the default point and service names', async () => {
    const r = await t.api(constantsApi.constants, { token: tokens.general })
    expect(r.code).toBe(0)
    expect(r.data.device.model).toEqual({
      '64': 'D100',
      '65': 'B100',
      '66': 'E100',
      '67': 'D10',
      '68': 'B10',
      '69': 'E10',
      '70': 'D100A',
      '71': 'B100A',
      '72': 'E100A',
      '73': 'D10A',
      '74': 'B10A',
      '75': 'E10A',
    })
    expect(r.data.device.brand).toEqual(expect.arrayContaining(['迈瑞', '飞利浦', '卓尔', '日本光电']))
    expect(r.data.device.default_coordinate).toEqual({ lat: 39.90923, lon: 116.397428 })
    expect(r.data.app_service).toMatchObject({
      device_data_push: '设备数据推送',
      event_push: '事件推送',
      open_api: '开放接口',
      sms_notify: '短信通知',
      mini_program: '小程序展示',
    })
    const en = await t.api(constantsApi.constants, {
      token: tokens.general,
      lang: 'en-US',
    })
    expect(en.data.app_service.open_api).toBe('Open API')
  })

  it('needs a signed-in member', async () => {
    expect((await t.api(constantsApi.constants)).code).toBe(Code.TOKEN)
    expect((await t.api(constantsApi.dataDict)).code).toBe(Code.TOKEN)
  })
})

describe('data dictionary', () => {
  it('labels every enumeration of the spec, in the requester’s language', async () => {
    const r = await t.api(constantsApi.dataDict, { token: tokens.general })
    expect(r.data.device_status.map((d) => [d.value, d.label])).toEqual([
      [0, '正常'],
      [1, '预警'],
      [2, '故障'],
      [3, '位置偏移'],
      [4, '离线'],
    ])
    expect(r.data.msg_type.map((d) => d.value)).toEqual([1, 2, 3, 4, 6, 7])
    expect(r.data.alarm_type.map((d) => d.value)).toEqual([2, 4])
    expect(r.data.report_type.map((d) => d.value)).toEqual([-1, 0, 1, 2])
    expect(r.data.open_state.map((d) => d.value)).toEqual([0, 1, 2])
    expect(r.data.audit_status.map((d) => d.value).sort()).toEqual([0, 1, 2])
    expect(r.data.classroom_category.map((d) => d.label)).toEqual(['操作视频', '急救知识库', '新闻资讯'])
    expect(r.data.location_offset.map((d) => d.value)).toEqual([null, 1, 2, 3, 5, 10, 15, 20, 30])
    expect(r.data.sms_schedule.map((d) => d.value).sort()).toEqual([0, 1, 2])
    expect(r.data.battery_band).toEqual([
      { value: 0, label: '电量耗尽', max: 5 },
      { value: 1, label: '电量低', min: 5, max: 9 },
      { value: 2, label: '电量正常', min: 9, max: 100 },
    ])
    const en = await t.api(constantsApi.dataDict, {
      token: tokens.general,
      lang: 'en-US',
    })
    expect(en.data.device_status[4].label).toBe('Offline')
  })

  it('gives the URL of a real .xlsx import template', async () => {
    const r = await t.api(constantsApi.dataDict, { token: tokens.hzAdmin })
    expect(r.data.device_import_template).toBe('/files/templates/device-import-template.xlsx')
    const file = await t.app.inject({ method: 'GET', url: r.data.device_import_template })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    const sheet = wb.getWorksheet('设备导入')!
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['设备SN', '型号', '固件版本'])
    expect(sheet.getCell('B2').dataValidation.formulae?.[0]).toContain('D100A')
    expect(wb.getWorksheet('填写说明')).toBeTruthy()
    // The same for a sibling agency: the dictionary holds nothing of any organisation.
    const nj = await t.api(constantsApi.dataDict, { token: tokens.njAdmin })
    expect(nj.data).toEqual(r.data)
  })

  it('writes the template once, and tries again after a failed write', async () => {
    const real = t.ctx.storage
    let puts = 0
    let fail = true
    t.ctx.storage = {
      name: 'counting',
      put: async (key, body, type) => {
        puts++
        if (fail) throw new Error('disk full')
        return real.put(key, body, type)
      },
    } satisfies StorageProvider
    try {
      expect((await t.api(constantsApi.dataDict, { token: tokens.hzAdmin })).code).toBe(Code.INTERNAL)
      fail = false
      expect((await t.api(constantsApi.dataDict, { token: tokens.hzAdmin })).code).toBe(0)
      expect((await t.api(constantsApi.dataDict, { token: tokens.hzAdmin })).code).toBe(0)
      expect(puts).toBe(2)
    } finally {
      t.ctx.storage = real
    }
  })

  it('is in the OpenAPI document with the rest of this feature set', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/system/constants/',
        '/api/v1/system/data-dict',
        '/api/v1/system/file/',
        '/api/v1/map/district/getchildren/',
        '/api/v1/map/suggestion',
        '/api/v1/map/address',
        '/api/v1/aid-classroom/',
        '/api/v1/aid-classroom/{id}',
      ]),
    )
  })
})
