import { Code } from '@aed/contracts'
import { RESPONDER_TEMPLATE_HEADERS, responderApi } from '@aed/contracts/responder'
import { sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { importForm, importWorkbook, sheetRows } from '../../test/workbooks.ts'

// The template import of a training day's responders: all rows or none, the failure file giving
// each refused row its reasons, and the fixed file imported as it is.
const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock)

const row = (over: Partial<Record<(typeof RESPONDER_TEMPLATE_HEADERS)[number], string>> = {}) => {
  const v: Record<string, string> = {
    姓名: '赵磊',
    电话: '15800000001',
    性别: '男',
    出生日期: '1985-07-12',
    邮箱: '',
    常驻地址: '杭州市西湖区文三路100号',
    具体位置: '',
    经度: '120.1551',
    纬度: '30.2741',
    区域编码: '330106',
    急救资质: '专业',
    证书编号: 'IMP-001',
    证书有效期: '2028-06-30',
    绑定机构设备: '是',
    ...over,
  }
  return RESPONDER_TEMPLATE_HEADERS.map((h) => v[h])
}

const upload = (file: Buffer, token = env.admin) =>
  env.t.call<{ count: number; professional: number; agency_name: string; file_base64?: string }>(
    'POST',
    responderApi.importResponders.path,
    { token, body: importForm(file, '急救人员导入.xlsx') },
  )

const imported = (phones: string[]) =>
  many<{ phone: string }>(
    env.t.db,
    sql`SELECT a.phone FROM responders r JOIN accounts a ON a.id = r.account_id
        WHERE a.phone IN (${sql.join(
          phones.map((p) => sql`${p}`),
          sql`, `,
        )}) ORDER BY a.phone`,
  )

describe('the responder import', () => {
  it('serves a template with the columns and the rules sheet', async () => {
    const r = await env.t.api(responderApi.uploadInfo, { token: env.admin })
    expect(r.data.template_url).toMatch(/responder-import-template\.xlsx$/)
    const file = await env.t.app.inject({ method: 'GET', url: r.data.template_url })
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    expect((book.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([
      ...RESPONDER_TEMPLATE_HEADERS,
    ])
    expect(book.worksheets[1].name).toBe('填写说明')
  })

  it('writes nothing when a row is bad, gives each row its reasons, and imports the fixed file', async () => {
    const rows = [
      row(),
      row({
        电话: '15800000002',
        姓名: '钱芳',
        性别: '女',
        急救资质: '非专业',
        证书编号: '',
        证书有效期: '',
      }),
      row({ 电话: '15800000001', 证书编号: 'IMP-003' }), // the phone of row 2
      row({ 电话: '15800000004', 性别: '未知', 出生日期: '1985-02-30', 证书编号: 'IMP-001' }),
      row({ 电话: '15800000005', 经度: 'abc', 证书编号: 'IMP-005', 证书有效期: '' }),
    ]
    const refused = await upload(await importWorkbook('急救人员导入', [...RESPONDER_TEMPLATE_HEADERS], rows))
    expect([refused.code, refused.msg]).toEqual([Code.INVALID, '导入失败！'])
    expect(await imported(['15800000001', '15800000002', '15800000004', '15800000005'])).toEqual([])
    const failure = (await sheetRows(Buffer.from(refused.data.file_base64!, 'base64'))).rows
    const reasons = failure.slice(1).map((r) => r[RESPONDER_TEMPLATE_HEADERS.length] ?? null)
    expect(reasons).toEqual([
      null,
      null,
      '电话与第2行重复',
      '出生日期须为YYYY-MM-DD日期；性别须为男或女；证书编号与第2行重复',
      '经纬度须为数字（GCJ-02，经度-180~180，纬度-90~90）；请选择证书有效期',
    ])

    const fixed = [rows[0], rows[1], row({ 电话: '15800000003', 证书编号: 'IMP-003' })]
    const done = await upload(await importWorkbook('急救人员导入', [...RESPONDER_TEMPLATE_HEADERS], fixed))
    expect(done.msg).toBe('导入成功！')
    expect(done.data).toMatchObject({ count: 3, professional: 2 })
    expect((await imported(['15800000001', '15800000002', '15800000003'])).map((r) => r.phone)).toEqual([
      '15800000001',
      '15800000002',
      '15800000003',
    ])
    const list = await env.t.api(responderApi.list, { token: env.admin, query: { name: '钱芳' } })
    expect('resource' in list.data && list.data.resource[0]).toMatchObject({
      gender: 2,
      aid_aptitude: 0,
      certificate_status: null,
      address_code: '330106',
      status: 1,
    })
    // The same file again: every phone is registered now.
    const again = await upload(await importWorkbook('急救人员导入', [...RESPONDER_TEMPLATE_HEADERS], fixed))
    const second = (await sheetRows(Buffer.from(again.data.file_base64!, 'base64'))).rows
    expect(second.slice(1).map((r) => r[RESPONDER_TEMPLATE_HEADERS.length])).toEqual([
      '该电话已登记为急救人员；该证书编号已登记',
      '该电话已登记为急救人员',
      '该电话已登记为急救人员；该证书编号已登记',
    ])
  })

  it('refuses another template, an empty sheet and a read-only member', async () => {
    const wrong = await upload(await importWorkbook('x', ['姓名', '电话'], [['a', '15800000009']]))
    expect(wrong.code).toBe(Code.INVALID)
    const empty = await upload(await importWorkbook('x', [...RESPONDER_TEMPLATE_HEADERS], []))
    expect(empty.msg).toBe('导入文件中没有急救人员')
    const reader = (await env.f.signedIn(env.branch, { role_type: 2, permissions: { aid_man: 'READ_ONLY' } }))
      .token
    const denied = await upload(await importWorkbook('x', [...RESPONDER_TEMPLATE_HEADERS], [row()]), reader)
    expect(denied.code).toBe(Code.FORBIDDEN)
  })
})
