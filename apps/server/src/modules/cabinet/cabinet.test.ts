import { Code } from '@aed/contracts'
import {
  CABINET_TEMPLATE_HEADERS,
  type Cabinet,
  type CabinetBindRecord,
  type CabinetDetail,
  cabinetApi,
} from '@aed/contracts/cabinet'
import { deviceApi } from '@aed/contracts/device'
import { operationLogApi } from '@aed/contracts/operation-log'
import { sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { factories } from '../../test/factories.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'
import { importForm, importWorkbook, sheetRows } from '../../test/workbooks.ts'

let t: TestApp
let f: ReturnType<typeof factories>
type Agency = Awaited<ReturnType<ReturnType<typeof factories>['agency']>>
let agent: Agency // general agent (agency_type 1)
let branch: Agency // ordinary organisation (agency_type 2) under the agent
let child: Agency // ordinary, under the branch
let sibling: Agency // ordinary, beside the branch
let system: string // system super administrator
let agentAdmin: string // super administrator of a general agent: imports, cannot assign
let agentReader: string // read-only at the agent
let agentEditor: string // administrator of the agent with device EDIT: imports into its own organisation
let branchAdmin: string // super administrator of an ordinary organisation: assigns, deletes
let editor: string // administrator of the branch with device EDIT: binds
let reader: string // device READ_ONLY at the branch
let siblingAdmin: string

beforeAll(async () => {
  t = await createTestApp()
  f = factories(t)
  const root = await f.root()
  agent = await f.agency(root)
  branch = await f.agency(agent)
  child = await f.agency(branch)
  sibling = await f.agency(agent)
  system = await t.login(demo.superAdmin)
  agentAdmin = (await f.signedIn(agent)).token
  agentReader = (await f.signedIn(agent, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token
  agentEditor = (await f.signedIn(agent, { role_type: 1, permissions: { device: 'EDIT' } })).token
  branchAdmin = (await f.signedIn(branch)).token
  editor = (await f.signedIn(branch, { role_type: 1, permissions: { device: 'EDIT' } })).token
  reader = (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token
  siblingAdmin = (await f.signedIn(sibling)).token
})
afterAll(() => t.close())

let serial = 0
/** A cabinet number no other test uses. */
const csn = () => `CAB${String(++serial).padStart(7, '0')}`

/** A cabinet of `agency`, created by the system super administrator. */
async function cabinet(agency: Pick<Agency, 'id'>, cabinet_sn = csn()) {
  const r = await t.api(cabinetApi.create, { token: system, body: { cabinet_sn, agency_id: agency.id } })
  if (r.code !== 0) throw new Error(`cabinet: ${r.msg}`)
  return r.data
}

const bind = (token: string, id: number, body: object) =>
  t.api(cabinetApi.update, { token, params: { id }, body: { update_type: 2, ...body } as never })

const live = (id: number) =>
  one<{ device_id: number | null; agency_id: number; deleted_at: Date | null }>(
    t.db,
    sql`SELECT device_id, agency_id, deleted_at FROM cabinets WHERE id = ${id}`,
  )

const binds = (id: number) =>
  many<{
    action: number
    device_sn: string | null
    device_model: string | null
    agency_id: number
    operator: string
  }>(
    t.db,
    sql`SELECT action, device_sn, device_model, agency_id, operator FROM cabinet_binds WHERE cabinet_id = ${id} ORDER BY id`,
  )

const lastLog = async (token: string) => {
  const r = await t.api(operationLogApi.list, { token, query: { page_size: 1 } })
  return (r.data as { resource: { operation_type: string; content: string }[] }).resource[0]
}

describe('creating a cabinet and its credential', () => {
  it('creates a cabinet with its own secret, answered once, readable and rotatable by system super administrators', async () => {
    const sn = csn()
    const r = await t.api(cabinetApi.create, {
      token: system,
      body: { cabinet_sn: sn, agency_id: branch.id },
    })
    expect(r).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(r.data).toMatchObject({
      cabinet_sn: sn,
      agency_id: branch.id,
      agency_name: branch.name,
      bind_device: 0,
      device_sn: null,
      door_status: null,
      online: null,
      aed_info: null,
      operator_info: { agency_name: branch.name },
    })
    expect(r.data.secret).toMatch(/^[0-9a-f]{64}$/)
    expect(await lastLog(system)).toMatchObject({
      operation_type: '新建救护箱',
      content: `新建救护箱：${sn}`,
    })

    const cred = await t.api(cabinetApi.credential, { token: system, params: { id: r.data.id } })
    expect(cred.data).toEqual({ sn, secret: r.data.secret })
    const rotated = await t.api(cabinetApi.rotateCredential, { token: system, params: { id: r.data.id } })
    expect(rotated.data.secret).toMatch(/^[0-9a-f]{64}$/)
    expect(rotated.data.secret).not.toBe(r.data.secret)
    const row = await one<{ prev_secret_until: Date | null }>(
      t.db,
      sql`SELECT prev_secret_until FROM cabinets WHERE id = ${r.data.id}`,
    )
    expect(row?.prev_secret_until?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000)
    const again = await t.api(cabinetApi.credential, { token: system, params: { id: r.data.id } })
    expect(again.data.secret).toBe(rotated.data.secret)
    expect(await lastLog(system)).toMatchObject({ operation_type: '查看救护箱密钥' })

    for (const token of [branchAdmin, agentAdmin, editor]) {
      expect((await t.api(cabinetApi.credential, { token, params: { id: r.data.id } })).code).toBe(
        Code.FORBIDDEN,
      )
      expect((await t.api(cabinetApi.rotateCredential, { token, params: { id: r.data.id } })).code).toBe(
        Code.FORBIDDEN,
      )
    }
  })

  it('refuses a taken or malformed number, another branch’s organisation, and members who are not system super administrators', async () => {
    const c = await cabinet(branch)
    const post = (body: object, token = system) => t.api(cabinetApi.create, { token, body: body as never })
    expect((await post({ cabinet_sn: c.cabinet_sn, agency_id: branch.id })).msg).toBe('救护箱编号已存在')
    expect((await post({ cabinet_sn: 'ab-12', agency_id: branch.id })).msg).toBe(
      '救护箱编号格式不正确（6-32位字母或数字）',
    )
    expect((await post({ cabinet_sn: 'A'.repeat(33), agency_id: branch.id })).code).toBe(Code.INVALID)
    expect((await post({ agency_id: branch.id })).msg).toBe('请输入救护箱编号')
    expect((await post({ cabinet_sn: csn() })).msg).toBe('请选择所属机构')
    expect((await post({ cabinet_sn: csn(), agency_id: 99999999 })).msg).toBe('请选择所属机构')
    expect((await post({ cabinet_sn: csn(), agency_id: branch.id }, branchAdmin)).code).toBe(Code.FORBIDDEN)
  })

  it('refuses the serial of a live AED anywhere (the gateway looks in both), and takes it once the AED is deleted', async () => {
    const d = await f.device(sibling)
    const post = (lang?: 'en-US') =>
      t.api(cabinetApi.create, {
        token: system,
        body: { cabinet_sn: d.device_sn, agency_id: branch.id },
        lang,
      })
    expect(await post()).toMatchObject({ code: Code.INVALID, msg: `序列号${d.device_sn}已被AED使用` })
    expect((await post('en-US')).msg).toBe(`Serial ${d.device_sn} is in use by an AED`)
    expect(await liveSerials([d.device_sn])).toEqual([])
    const removed = await t.api(deviceApi.remove, {
      token: system,
      params: { id: d.id },
      query: { device_list_type: 2 },
    })
    expect(removed.code).toBe(0)
    expect(await post()).toMatchObject({ code: 0, data: { cabinet_sn: d.device_sn } })
  })
})

describe('the cabinet list', () => {
  it('filters by number, AED, door and bind status within the scope, with the spec’s columns', async () => {
    const bound = await cabinet(branch)
    const open = await cabinet(child)
    const other = await cabinet(sibling)
    const d = await f.device(branch)
    expect((await bind(editor, bound.id, { device_sn: d.device_sn })).code).toBe(0)
    await t.db.execute(
      sql`UPDATE cabinets SET door_status = 1, battery_power = 80, fw_version = 'C1.0', location = '杭州东站',
            lat = 30.29, lon = 120.21, data_upload_time = now() WHERE id = ${open.id}`,
    )
    await t.db.execute(
      sql`INSERT INTO cabinet_states (cabinet_id, last_seen_at, offline) VALUES (${open.id}, now(), false)`,
    )
    await t.db.execute(sql`UPDATE cabinets SET door_status = 0 WHERE id = ${bound.id}`)

    const list = async (query: object, token = branchAdmin) => {
      const r = await t.api(cabinetApi.list, { token, query: { page_size: 100, ...query } })
      expect(r.code).toBe(0)
      return (r.data.resource as Cabinet[]).map((c) => c.cabinet_sn)
    }
    const all = await list({})
    expect(all).toEqual(expect.arrayContaining([bound.cabinet_sn, open.cabinet_sn]))
    expect(all).not.toContain(other.cabinet_sn)
    expect(await list({ cabinet_sn: bound.cabinet_sn })).toEqual([bound.cabinet_sn])
    expect(await list({ device_sn: d.device_sn })).toEqual([bound.cabinet_sn])
    expect(await list({ door_status: 1 })).toEqual([open.cabinet_sn])
    expect(await list({ door_status: 0 })).toEqual([bound.cabinet_sn])
    expect(await list({ bind_status: 1 })).toEqual([bound.cabinet_sn])
    expect(await list({ bind_status: 0 })).not.toContain(bound.cabinet_sn)
    expect(await list({ agency_id: child.id })).toEqual([open.cabinet_sn])
    expect(await list({}, siblingAdmin)).toEqual([other.cabinet_sn])
    expect(await list({}, reader)).toEqual(expect.arrayContaining([bound.cabinet_sn]))

    const r = await t.api(cabinetApi.list, { token: branchAdmin, query: { cabinet_sn: open.cabinet_sn } })
    expect(r.data.resource[0]).toMatchObject({
      cabinet_sn: open.cabinet_sn,
      door_status: 1,
      battery_power: 80,
      fw_version: 'C1.0',
      agency_id: child.id,
      agency_name: child.name,
      location: '杭州东站',
      online: true,
      bind_device: 0,
      can: { bind: true, assign: true, delete: true, command: true, credential: false },
    })
    expect(r.data.resource[0].data_upload_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    const b = await t.api(cabinetApi.list, { token: reader, query: { cabinet_sn: bound.cabinet_sn } })
    expect(b.data.resource[0]).toMatchObject({
      device_sn: d.device_sn,
      device_model: 'D100',
      bind_device: 1,
      can: { bind: false, assign: false, delete: false, command: false, credential: false },
    })
    const a = await t.api(cabinetApi.list, { token: agentAdmin, query: { cabinet_sn: bound.cabinet_sn } })
    expect(a.data.resource[0].can).toMatchObject({ assign: false, delete: true })
    const s = await t.api(cabinetApi.list, { token: system, query: { cabinet_sn: bound.cabinet_sn } })
    expect(s.data.resource[0].can).toMatchObject({ assign: false, credential: true })
  })

  it('refuses members without the device area and malformed filters', async () => {
    const none = (await f.signedIn(branch, { role_type: 2, permissions: {} })).token
    expect((await t.api(cabinetApi.list, { token: none })).code).toBe(Code.FORBIDDEN)
    expect((await t.api(cabinetApi.list, { token: branchAdmin, query: { door_status: 3 } })).code).toBe(
      Code.INVALID,
    )
    expect(
      (await t.api(cabinetApi.list, { token: branchAdmin, query: { order_by: 'secret_enc' } })).code,
    ).toBe(Code.INVALID)
  })
})

describe('binding and unbinding an AED', () => {
  it('binds a device of the scope with the derived model, writes bind records, and unbinds', async () => {
    const c = await cabinet(branch)
    const d = await f.device(child, { device_sn: 'A71BIND0001' })
    const r = await bind(editor, c.id, { device_sn: ` ${d.device_sn} `, cabinet_sn: c.cabinet_sn })
    expect(r).toMatchObject({ code: 0, msg: '绑定成功！' })
    expect(r.data).toMatchObject({
      device_sn: d.device_sn,
      device_model: 'B100A',
      bind_device: 1,
      aed_info: { device_sn: d.device_sn, device_model: 'B100A' },
      operator_info: { agency_name: branch.name },
    })
    expect(await lastLog(branchAdmin)).toMatchObject({
      operation_type: '救护箱变更',
      content: `绑定AED：${c.cabinet_sn} ← ${d.device_sn}`,
    })
    const detail = await t.api(cabinetApi.detail, { token: reader, params: { id: c.id } })
    expect(detail.data.aed_info).toEqual({ device_sn: d.device_sn, device_model: 'B100A' })

    const un = await t.api(cabinetApi.update, {
      token: editor,
      params: { id: c.id },
      body: { update_type: 3 },
    })
    expect(un).toMatchObject({ code: 0, msg: '解绑成功！' })
    expect(un.data).toMatchObject({ device_sn: null, bind_device: 0, aed_info: null })
    expect((await live(c.id))?.device_id).toBeNull()
    expect(await binds(c.id)).toMatchObject([
      { action: 2, device_sn: d.device_sn, device_model: 'B100A', agency_id: branch.id },
      { action: 3, device_sn: d.device_sn, device_model: 'B100A', agency_id: branch.id },
    ])
    // Unbinding an empty cabinet says so.
    const again = await t.api(cabinetApi.update, {
      token: editor,
      params: { id: c.id },
      body: { update_type: 3 },
    })
    expect(again.msg).toBe('该救护箱未绑定AED')
  })

  it('binds a registered device too, and an unknown model leaves the model empty', async () => {
    const c = await cabinet(branch)
    const reg = await f.registeredDevice(branchAdmin, branch)
    expect((await bind(branchAdmin, c.id, { device_sn: reg.device_sn })).data).toMatchObject({
      device_model: 'D100',
    })
    const c2 = await cabinet(branch)
    const odd = await f.device(branch, { device_sn: 'A99ODD0001' })
    expect((await bind(branchAdmin, c2.id, { device_sn: odd.device_sn })).data).toMatchObject({
      device_sn: odd.device_sn,
      device_model: '',
    })
  })

  it('refuses with the spec’s messages: no AED, an empty one, unknown, out of scope, taken', async () => {
    const c = await cabinet(branch)
    const other = await cabinet(branch)
    const d = await f.device(branch)
    const theirs = await f.device(sibling)
    expect((await bind(editor, c.id, {})).msg).toBe('请输入绑定AED')
    expect((await bind(editor, c.id, { device_sn: '' })).msg).toBe('绑定设备不能为空！')
    expect((await bind(editor, c.id, { device_sn: '   ' })).msg).toBe('绑定设备不能为空！')
    expect((await bind(editor, c.id, { device_sn: 'no-such!' })).msg).toBe('请输入正确的AED设备SN')
    expect((await bind(editor, c.id, { device_sn: 'A64NOSUCH99' })).msg).toBe('未找到设备！')
    expect((await bind(editor, c.id, { device_sn: theirs.device_sn })).msg).toBe('未找到设备！')
    const deleted = await f.device(branch)
    await t.db.execute(sql`UPDATE devices SET deleted_at = now() WHERE id = ${deleted.id}`)
    expect((await bind(editor, c.id, { device_sn: deleted.device_sn })).msg).toBe('未找到设备！')
    expect((await bind(editor, other.id, { device_sn: d.device_sn })).code).toBe(0)
    const taken = await bind(editor, c.id, { device_sn: d.device_sn })
    expect(taken).toMatchObject({ code: Code.INVALID, msg: `该AED已绑定救护箱${other.cabinet_sn}，请先解绑` })
    const second = await f.device(branch)
    expect((await bind(editor, other.id, { device_sn: second.device_sn })).msg).toBe(
      '该救护箱已绑定AED，请先解绑',
    )
    expect((await live(c.id))?.device_id).toBeNull()
    expect(await binds(c.id)).toEqual([])
    expect(
      (await t.api(cabinetApi.update, { token: editor, params: { id: c.id }, body: {} as never })).msg,
    ).toBe('请选择变更类型')
  })

  it('refuses read-only members and another branch', async () => {
    const c = await cabinet(branch)
    const d = await f.device(branch)
    expect((await bind(reader, c.id, { device_sn: d.device_sn })).code).toBe(Code.FORBIDDEN)
    expect((await bind(siblingAdmin, c.id, { device_sn: d.device_sn })).code).toBe(Code.NOT_FOUND)
    expect((await t.api(cabinetApi.detail, { token: siblingAdmin, params: { id: c.id } })).code).toBe(
      Code.NOT_FOUND,
    )
    expect((await live(c.id))?.device_id).toBeNull()
  })
})

describe('assigning cabinets', () => {
  it('lets super administrators of ordinary organisations assign, with a bind record naming the AED', async () => {
    const c = await cabinet(branch)
    const d = await f.device(branch)
    await bind(editor, c.id, { device_sn: d.device_sn })
    const r = await t.api(cabinetApi.update, {
      token: branchAdmin,
      params: { id: c.id },
      body: { update_type: 1, agency_id: child.id },
    })
    expect(r).toMatchObject({ code: 0, msg: '分配成功！' })
    expect(r.data).toMatchObject({ agency_id: child.id, agency_name: child.name, device_sn: d.device_sn })
    expect(r.data.operator_info.agency_name).toBe(child.name)
    expect((await binds(c.id)).at(-1)).toMatchObject({
      action: 1,
      device_sn: d.device_sn,
      agency_id: child.id,
    })
    expect(await lastLog(branchAdmin)).toMatchObject({
      content: `分配救护箱：${c.cabinet_sn} → ${child.name}`,
    })
  })

  it('refuses other roles and organisation types (the spec’s rule as written), and organisations out of scope', async () => {
    const c = await cabinet(branch)
    const put = (token: string, body: object) =>
      t.api(cabinetApi.update, { token, params: { id: c.id }, body: { update_type: 1, ...body } as never })
    for (const token of [system, agentAdmin, editor]) {
      expect((await put(token, { agency_id: child.id })).msg).toBe('暂无权限!')
    }
    expect((await put(reader, { agency_id: child.id })).code).toBe(Code.FORBIDDEN)
    expect((await put(branchAdmin, {})).msg).toBe('请选择所属机构')
    expect((await put(branchAdmin, { agency_id: sibling.id })).msg).toBe('请选择所属机构')
    expect((await put(siblingAdmin, { agency_id: sibling.id })).code).toBe(Code.NOT_FOUND)
    expect((await live(c.id))?.agency_id).toBe(branch.id)
    expect(await binds(c.id)).toEqual([])
  })

  it('assigns a selection all or nothing from the toolbar', async () => {
    const a = await cabinet(branch)
    const b = await cabinet(child)
    const theirs = await cabinet(sibling)
    const assign = (token: string, ids: number[], agency_id = child.id) =>
      t.api(cabinetApi.assign, { token, body: { agency_id, cabinet_ids: ids } })
    expect((await assign(branchAdmin, [])).msg).toBe('请选择需要分配的设备！')
    expect((await assign(branchAdmin, [a.id, theirs.id])).code).toBe(Code.NOT_FOUND)
    expect((await live(a.id))?.agency_id).toBe(branch.id)
    expect((await assign(agentAdmin, [a.id])).msg).toBe('暂无权限!')
    const r = await assign(branchAdmin, [a.id, b.id, a.id])
    expect(r).toMatchObject({ code: 0, msg: '分配成功！', data: { agency_id: child.id } })
    expect(r.data.cabinet_sn_list.sort()).toEqual([a.cabinet_sn, b.cabinet_sn].sort())
    expect((await live(a.id))?.agency_id).toBe(child.id)
    expect(await binds(b.id)).toMatchObject([{ action: 1, device_sn: null, agency_id: child.id }])
  })
})

describe('deleting cabinets', () => {
  it('deletes a selection all or nothing; a bound cabinet refuses the batch', async () => {
    const a = await cabinet(branch)
    const b = await cabinet(child)
    const d = await f.device(branch)
    await bind(editor, b.id, { device_sn: d.device_sn })
    const del = (token: string, cabinet_sn_list: string[]) =>
      t.api(cabinetApi.batchDestroy, { token, body: { cabinet_sn_list } })
    expect((await del(branchAdmin, [])).msg).toBe('请选择需要删除的救护箱！')
    expect((await del(branchAdmin, [a.cabinet_sn, b.cabinet_sn])).msg).toBe(
      '存在救护箱已绑定AED，解绑后删除！',
    )
    expect((await live(a.id))?.deleted_at).toBeNull()
    expect((await del(editor, [a.cabinet_sn])).code).toBe(Code.FORBIDDEN)
    expect((await del(reader, [a.cabinet_sn])).code).toBe(Code.FORBIDDEN)
    expect((await del(siblingAdmin, [a.cabinet_sn])).code).toBe(Code.NOT_FOUND)
    expect((await del(branchAdmin, [a.cabinet_sn, 'NOSUCH0001'])).code).toBe(Code.NOT_FOUND)
    expect((await live(a.id))?.deleted_at).toBeNull()

    await t.api(cabinetApi.update, { token: editor, params: { id: b.id }, body: { update_type: 3 } })
    const r = await del(branchAdmin, [a.cabinet_sn, b.cabinet_sn])
    expect(r).toMatchObject({ code: 0, msg: '删除成功！' })
    expect((await live(a.id))?.deleted_at).toBeInstanceOf(Date)
    expect((await t.api(cabinetApi.detail, { token: branchAdmin, params: { id: a.id } })).code).toBe(
      Code.NOT_FOUND,
    )
    const list = await t.api(cabinetApi.list, { token: branchAdmin, query: { cabinet_sn: a.cabinet_sn } })
    expect(list.data.resource).toEqual([])
    expect(await lastLog(branchAdmin)).toMatchObject({ operation_type: '删除救护箱' })
    // The number is free again.
    expect((await cabinet(branch, a.cabinet_sn)).cabinet_sn).toBe(a.cabinet_sn)
  })
})

// ---------------------------------------------------------------------------------------------

const importFile = (rows: (string | null)[][], header: string[] = [...CABINET_TEMPLATE_HEADERS]) =>
  importWorkbook('救护箱导入', header, rows)

const form = (file: Buffer, fields: Record<string, string> = {}, name = '救护箱导入.xlsx') =>
  importForm(file, name, fields)

const upload = (token: string, body: FormData) =>
  t.call<{ count: number; bound: number; agency_id: number; agency_name: string; file_base64?: string }>(
    'POST',
    cabinetApi.importCabinets.path,
    { token, body },
  )

const rowsOf = async (data: Buffer) => (await sheetRows(data, { includeEmpty: true })).rows

const liveSerials = async (serials: string[]) =>
  (
    await many<{ cabinet_sn: string }>(
      t.db,
      sql`SELECT cabinet_sn FROM cabinets WHERE deleted_at IS NULL AND cabinet_sn IN (${sql.join(
        serials.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    )
  ).map((r) => r.cabinet_sn)

describe('the import template and the import', () => {
  it('serves a template whose filled copy imports as it is', async () => {
    const r = await t.api(cabinetApi.uploadInfo, { token: reader })
    expect(r.code).toBe(0)
    expect(r.data.template_url).toMatch(/cabinet-import-template\.xlsx$/)
    const file = await t.app.inject({ method: 'GET', url: r.data.template_url })
    expect(file.statusCode).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    expect((book.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([...CABINET_TEMPLATE_HEADERS])
    const sn = csn()
    book.worksheets[0].getCell(2, 1).value = sn
    const done = await upload(agentAdmin, form(Buffer.from(await book.xlsx.writeBuffer())))
    expect(done).toMatchObject({ code: 0, msg: '导入成功！', data: { count: 1, agency_id: agent.id } })
  })

  it('creates every row in the picked organisation, binding the AEDs given, with secrets and bind records', async () => {
    const d = await f.device(child)
    const rows = [
      [csn(), d.device_sn],
      [csn(), null],
      [csn(), ''],
    ]
    const r = await upload(
      agentAdmin,
      form(await importFile(rows), { agency_id: String(branch.id), import_xls: 'true' }),
    )
    expect(r).toMatchObject({
      code: 0,
      msg: '导入成功！',
      data: { count: 3, bound: 1, agency_id: branch.id, agency_name: branch.name },
    })
    const created = await many<{
      id: number
      cabinet_sn: string
      device_id: number | null
      secret_enc: string
      agency_id: number
    }>(
      t.db,
      sql`SELECT id, cabinet_sn, device_id, secret_enc, agency_id FROM cabinets
          WHERE cabinet_sn IN (${rows[0][0]}, ${rows[1][0]}, ${rows[2][0]}) ORDER BY id`,
    )
    expect(created.map((c) => c.cabinet_sn)).toEqual(rows.map((x) => x[0]))
    expect(created.map((c) => c.device_id)).toEqual([d.id, null, null])
    expect(created.map((c) => c.agency_id)).toEqual([branch.id, branch.id, branch.id])
    expect(new Set(created.map((c) => c.secret_enc)).size).toBe(3)
    expect(await binds(created[0].id)).toMatchObject([
      { action: 2, device_sn: d.device_sn, device_model: 'D100' },
    ])
    expect(await lastLog(agentAdmin)).toMatchObject({ operation_type: '导入救护箱' })
    // Without a pick: the member's own organisation.
    const own = await upload(agentEditor, form(await importFile([[csn(), null]])))
    expect(own.data).toMatchObject({ count: 1, agency_id: agent.id })
  })

  it('refuses the whole file on any bad row, with a failure file giving each row its reason', async () => {
    const taken = await cabinet(branch)
    const boundCab = await cabinet(branch)
    const inCabinet = await f.device(branch)
    await bind(editor, boundCab.id, { device_sn: inCabinet.device_sn })
    const free = await f.device(branch)
    const theirs = await f.device(sibling)
    const good = csn()
    const dup = csn()
    const rows: (string | null)[][] = [
      [good, free.device_sn],
      ['', 'A64NOSUCH78'],
      ['bad-sn', null],
      [dup, null],
      [dup, null],
      [taken.cabinet_sn, null],
      [csn(), 'A64NOSUCH77'],
      [csn(), theirs.device_sn],
      [csn(), inCabinet.device_sn],
      [csn(), free.device_sn],
      [csn(), 'x!'],
    ]
    const r = await upload(agentAdmin, form(await importFile(rows), { agency_id: String(branch.id) }))
    expect(r).toMatchObject({ code: Code.INVALID, msg: '导入失败！' })
    const back = await rowsOf(Buffer.from(r.data.file_base64 as string, 'base64'))
    expect(back[0]).toEqual([...CABINET_TEMPLATE_HEADERS, '失败原因'])
    const reasons = back.slice(1).map((x) => x[2] ?? null)
    expect(reasons).toEqual([
      null,
      '请输入救护箱编号；绑定AED不存在或不在所选机构范围内',
      '救护箱编号格式不正确（6-32位字母或数字）',
      null,
      '救护箱编号与第5行重复',
      '救护箱编号已存在',
      '绑定AED不存在或不在所选机构范围内',
      '绑定AED不存在或不在所选机构范围内',
      '绑定AED已绑定其他救护箱',
      '绑定AED与第2行重复',
      '请输入正确的AED设备SN',
    ])
    expect(await liveSerials([good, dup])).toEqual([])
  })

  it('refuses a number that is a live AED’s serial on its row, and writes nothing', async () => {
    const d = await f.device(sibling)
    const good = csn()
    const rows = [
      [good, null],
      [d.device_sn, null],
    ]
    const r = await upload(agentAdmin, form(await importFile(rows), { agency_id: String(branch.id) }))
    expect(r).toMatchObject({ code: Code.INVALID, msg: '导入失败！' })
    const back = await rowsOf(Buffer.from(r.data.file_base64 as string, 'base64'))
    expect(back.slice(1).map((x) => x[2] ?? null)).toEqual([null, `序列号${d.device_sn}已被AED使用`])
    expect(await liveSerials([good, d.device_sn])).toEqual([])
  })

  it('refuses read-only members, ordinary organisations, and organisations out of scope; bad files', async () => {
    const file = await importFile([[csn(), null]])
    expect((await upload(agentReader, form(file))).code).toBe(Code.FORBIDDEN)
    expect((await upload(branchAdmin, form(file))).msg).toBe('暂无权限!')
    expect((await upload(agentAdmin, form(file, { agency_id: '99999999' }))).msg).toBe('请选择所属机构')
    const otherAgent = (await f.signedIn(await f.agency(await f.root()))).token
    expect((await upload(otherAgent, form(file, { agency_id: String(branch.id) }))).msg).toBe(
      '请选择所属机构',
    )
    expect((await upload(agentAdmin, form(await importFile([[csn()]], ['编号', 'AED'])))).msg).toBe(
      '导入文件格式不正确，请使用导入模板',
    )
    expect((await upload(agentAdmin, form(await importFile([])))).msg).toBe('导入文件中没有救护箱')
    expect((await upload(agentAdmin, form(Buffer.from('not a zip'), {}, 'a.xlsx'))).code).toBe(Code.INVALID)
  })
})

describe('the list’s can: the toolbar’s import, assign and delete', () => {
  const listCan = async (token: string) => (await t.api(cabinetApi.list, { token })).data.can

  it('says what each member may do, by the spec’s rules', async () => {
    const expected: [string, string, { import: boolean; assign: boolean; delete: boolean }][] = [
      ['system', system, { import: true, assign: false, delete: true }],
      ['agentAdmin', agentAdmin, { import: true, assign: false, delete: true }],
      ['agentEditor', agentEditor, { import: true, assign: false, delete: false }],
      ['agentReader', agentReader, { import: false, assign: false, delete: false }],
      ['branchAdmin', branchAdmin, { import: false, assign: true, delete: true }],
      ['editor', editor, { import: false, assign: false, delete: false }],
      ['reader', reader, { import: false, assign: false, delete: false }],
    ]
    for (const [who, token, can] of expected) expect({ who, can: await listCan(token) }).toEqual({ who, can })
  })

  it('is what the write then does: done when true, the permission error when false', async () => {
    const members = { system, agentAdmin, agentEditor, agentReader, branchAdmin, editor, reader }
    for (const [who, token] of Object.entries(members)) {
      const can = await listCan(token)
      const answered = (allowed: boolean, r: { code: number }, what: string) =>
        expect({ what, code: r.code }).toEqual({ what, code: allowed ? 0 : Code.FORBIDDEN })
      answered(can.import, await upload(token, form(await importFile([[csn(), null]]))), `${who} imports`)
      const c = await cabinet(branch)
      const assigned = await t.api(cabinetApi.assign, {
        token,
        body: { agency_id: child.id, cabinet_ids: [c.id] },
      })
      answered(can.assign, assigned, `${who} assigns`)
      const removed = await t.api(cabinetApi.batchDestroy, {
        token,
        body: { cabinet_sn_list: [c.cabinet_sn] },
      })
      answered(can.delete, removed, `${who} deletes`)
    }
  })
})

describe('one serial, one device: the database refuses a serial of the other register (migration 0018)', () => {
  /** The database error of a write, or null when it went through. */
  const refusal = async (write: Promise<unknown>) => {
    try {
      await write
      return null
    } catch (e) {
      return ((e as { cause?: unknown }).cause ?? e) as { code?: string; constraint?: string }
    }
  }
  const refused = { code: '23505', constraint: 'serials_unique' }
  const insertCabinet = (sn: string) =>
    t.db.execute(
      sql`INSERT INTO cabinets (cabinet_sn, agency_id, secret_enc) VALUES (${sn}, ${branch.id}, 'x')`,
    )
  const deviceRows = (sn: string) =>
    many(t.db, sql`SELECT id FROM devices WHERE device_sn = ${sn} AND deleted_at IS NULL`)

  it('refuses a direct insert, a change of serial and a return from deletion; a deleted row holds nothing', async () => {
    const d = await f.device(branch)
    const c = await cabinet(branch)
    expect(await refusal(insertCabinet(d.device_sn))).toMatchObject(refused)
    expect(await liveSerials([d.device_sn])).toEqual([])
    expect(await refusal(f.device(branch, { device_sn: c.cabinet_sn }))).toMatchObject(refused)
    expect(await deviceRows(c.cabinet_sn)).toEqual([])
    expect(
      await refusal(t.db.execute(sql`UPDATE cabinets SET cabinet_sn = ${d.device_sn} WHERE id = ${c.id}`)),
    ).toMatchObject(refused)
    expect(await liveSerials([c.cabinet_sn])).toEqual([c.cabinet_sn])
    // Deleted, the cabinet's serial is free; brought back while an AED has it, it is refused.
    await t.db.execute(sql`UPDATE cabinets SET deleted_at = now() WHERE id = ${c.id}`)
    const taken = await f.device(branch, { device_sn: c.cabinet_sn })
    expect(await deviceRows(c.cabinet_sn)).toEqual([{ id: taken.id }])
    expect(
      await refusal(t.db.execute(sql`UPDATE cabinets SET deleted_at = NULL WHERE id = ${c.id}`)),
    ).toMatchObject(refused)
    expect(await liveSerials([c.cabinet_sn])).toEqual([])
  })

  /**
   * Inserts an AED with serial `sn` in a transaction of its own and keeps it open while `meanwhile`
   * starts, then commits; answers what `meanwhile` came to (PostgreSQL: two connections).
   */
  async function whileAnAedIsInserted<T>(sn: string, meanwhile: () => Promise<T>) {
    let inserted!: () => void
    let release!: () => void
    const didInsert = new Promise<void>((r) => {
      inserted = r
    })
    const held = new Promise<void>((r) => {
      release = r
    })
    const first = t.db.transaction(async (tx) => {
      await tx.execute(
        sql`INSERT INTO devices (device_sn, model, agency_id, secret_enc) VALUES (${sn}, 'D100', ${branch.id}, 'x')`,
      )
      inserted()
      await held
    })
    await didInsert
    const second = meanwhile()
    await new Promise((r) => setTimeout(r, 200))
    release()
    await first
    return second
  }

  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'makes the second of two concurrent writers of a serial wait for the first and fail',
    async () => {
      const sn = csn()
      expect(await whileAnAedIsInserted(sn, () => refusal(insertCabinet(sn)))).toMatchObject(refused)
      expect(await liveSerials([sn])).toEqual([])
      expect(await deviceRows(sn)).toHaveLength(1)
    },
  )

  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'makes a cabinet created meanwhile wait for the AED’s transaction and answer the message',
    async () => {
      const sn = csn()
      const r = await whileAnAedIsInserted(sn, () =>
        t.api(cabinetApi.create, { token: system, body: { cabinet_sn: sn, agency_id: branch.id } }),
      )
      expect(r).toMatchObject({ code: Code.INVALID, msg: `序列号${sn}已被AED使用` })
      expect(await liveSerials([sn])).toEqual([])
    },
  )
})

describe('records', () => {
  it('answers self-check records newest first, paged, within the scope', async () => {
    const c = await cabinet(branch)
    for (let i = 0; i < 3; i++) {
      await t.db.execute(
        sql`INSERT INTO cabinet_records (cabinet_id, upload_data_type, device_sn, device_model, door_status,
              battery_power, fw_version, location, altitude, update_time)
            VALUES (${c.id}, ${i === 2 ? 'door' : 'cabinet_status'}, 'A64REC0001', 'D100', ${i % 2}, ${90 - i},
              'C1.0', '杭州东站', 12.5, now() - make_interval(mins => ${10 - i}))`,
      )
    }
    const r = await t.api(cabinetApi.records, {
      token: reader,
      params: { id: c.id },
      query: { page_size: 2 },
    })
    expect(r.code).toBe(0)
    expect(r.data.count).toBe(3)
    expect(r.data.resource).toMatchObject([
      { upload_data_type: 'door', battery_power: 88, door_status: 0, location: '杭州东站', altitude: 12.5 },
      { upload_data_type: 'cabinet_status', battery_power: 89, door_status: 1, device_model: 'D100' },
    ])
    const p2 = await t.api(cabinetApi.records, {
      token: reader,
      params: { id: c.id },
      query: { page: 2, page_size: 2 },
    })
    expect(p2.data.resource).toMatchObject([{ battery_power: 90 }])
    expect((await t.api(cabinetApi.records, { token: siblingAdmin, params: { id: c.id } })).code).toBe(
      Code.NOT_FOUND,
    )
  })

  it('answers bind records newest first, with operator, device, model and organisation', async () => {
    const c = await cabinet(branch)
    const d = await f.device(branch, { device_sn: 'A66REC0002' })
    await bind(editor, c.id, { device_sn: d.device_sn })
    await t.api(cabinetApi.update, { token: editor, params: { id: c.id }, body: { update_type: 3 } })
    await t.api(cabinetApi.update, {
      token: branchAdmin,
      params: { id: c.id },
      body: { update_type: 1, agency_id: child.id },
    })
    const r = await t.api(cabinetApi.bindRecord, { token: reader, query: { cabinet_id: c.id } })
    expect(r.code).toBe(0)
    const rows = r.data.resource as CabinetBindRecord[]
    expect(rows.map((x) => x.update_type)).toEqual([1, 3, 2])
    expect(rows[2]).toMatchObject({ device_sn: d.device_sn, device_model: 'E100', agency_name: branch.name })
    expect(rows[0]).toMatchObject({ device_sn: null, agency_name: child.name })
    expect(rows[2].operator.length).toBeGreaterThan(0)
    expect(rows[0].operate_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    const detail = await t.api(cabinetApi.detail, { token: reader, params: { id: c.id } })
    expect((detail.data as CabinetDetail).operator_info).toEqual({
      agency_name: child.name,
      operator: rows[0].operator,
    })
    const paged = await t.api(cabinetApi.bindRecord, {
      token: reader,
      query: { cabinet_id: c.id, page: 2, page_size: 2 },
    })
    expect(paged.data).toMatchObject({ count: 3, resource: [{ update_type: 2 }] })
    expect(
      (await t.api(cabinetApi.bindRecord, { token: siblingAdmin, query: { cabinet_id: c.id } })).code,
    ).toBe(Code.NOT_FOUND)
    expect((await t.call('GET', cabinetApi.bindRecord.path, { token: reader })).code).toBe(Code.INVALID)
  })
})

describe('commands', () => {
  it('lets super administrators unlock a cabinet or sound its siren; the command waits for the cabinet', async () => {
    const c = await cabinet(branch)
    const r = await t.api(cabinetApi.sendCommand, {
      token: branchAdmin,
      params: { id: c.id },
      body: { name: 'unlock' },
    })
    expect(r).toMatchObject({ code: 0, data: { name: 'unlock', state: 'pending' } })
    // The serial reaches the log line only: the answer is the command as the schema says.
    expect(r.data).not.toHaveProperty('cabinet_sn')
    const row = await one<{ sender_kind: string; sender_id: number; name: string }>(
      t.db,
      sql`SELECT sender_kind, sender_id, name FROM device_commands WHERE cmd_id = ${r.data.cmd_id}`,
    )
    expect(row).toEqual({ sender_kind: 'cabinet', sender_id: c.id, name: 'unlock' })
    expect(await lastLog(branchAdmin)).toMatchObject({
      operation_type: '救护箱指令',
      content: `下发指令：${c.cabinet_sn}（远程开锁）`,
    })
    await t.api(cabinetApi.sendCommand, { token: system, params: { id: c.id }, body: { name: 'siren' } })
    const list = await t.api(cabinetApi.commands, { token: reader, params: { id: c.id } })
    expect(list.data.map((x) => x.name)).toEqual(['siren', 'unlock'])

    expect(
      (await t.api(cabinetApi.sendCommand, { token: editor, params: { id: c.id }, body: { name: 'unlock' } }))
        .code,
    ).toBe(Code.FORBIDDEN)
    expect(
      (await t.api(cabinetApi.sendCommand, { token: reader, params: { id: c.id }, body: { name: 'unlock' } }))
        .code,
    ).toBe(Code.FORBIDDEN)
    expect(
      (
        await t.api(cabinetApi.sendCommand, {
          token: branchAdmin,
          params: { id: c.id },
          body: { name: 'selftest' } as never,
        })
      ).msg,
    ).toBe('请选择指令')
    expect(
      (
        await t.api(cabinetApi.sendCommand, {
          token: siblingAdmin,
          params: { id: c.id },
          body: { name: 'unlock' },
        })
      ).code,
    ).toBe(Code.NOT_FOUND)
    expect((await t.api(cabinetApi.commands, { token: siblingAdmin, params: { id: c.id } })).code).toBe(
      Code.NOT_FOUND,
    )
  })

  it('logs an AED command with its serial', async () => {
    const reg = await f.registeredDevice(branchAdmin, branch)
    const { deviceCommandApi } = await import('@aed/contracts/device-command')
    const r = await t.api(deviceCommandApi.send, {
      token: branchAdmin,
      params: { id: reg.id },
      body: { name: 'selftest' },
    })
    expect(r.code).toBe(0)
    expect(r.data).not.toHaveProperty('device_sn')
    expect(await lastLog(branchAdmin)).toMatchObject({ content: `下发指令：${reg.device_sn}（远程自检）` })
    // The device list still answers (the route table is unchanged).
    expect((await t.api(deviceApi.detail, { token: branchAdmin, params: { id: reg.id } })).code).toBe(0)
  })
})
