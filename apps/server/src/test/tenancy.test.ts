// The tenancy line, for every /api/v1 route the app registers: a member of another branch and
// members without the area (or with it read-only) are refused, lists leave the other branch out,
// and nothing they sent is written. Each route declares its attempts in `cases`, or why it is
// exempt; a route registered without either fails this file by name.
import { Code, pathOf } from '@aed/contracts'
import { DEFAULT_SETTINGS } from '@aed/contracts/settings'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import {
  accounts,
  agencies,
  backendConfig,
  callEvents,
  devices,
  members,
  responders,
  serviceConfigs,
  thirdPartyAeds,
  volunteers,
} from '../db/schema.ts'
import { factories } from './factories.ts'
import { createTestApp, demo } from './harness.ts'

// Set up before the tests are collected: the route list and the ids name the tests.
const t = await createTestApp()
afterAll(() => t.close())
const tok: Record<string, string> = {}
for (const k of ['superAdmin', 'general', 'hzAdmin', 'szAdmin'] as const) tok[k] = await t.login(demo[k])
const agencyId = async (name: string) =>
  (await t.db.select().from(agencies).where(eq(agencies.name, name)))[0].id
/** 深圳市南山区急救站: another branch for the Hangzhou admin. */
const sz = await agencyId('深圳市南山区急救站')
/** 厦门市思明区体育中心: another branch, with no service configuration. */
const xm = await agencyId('厦门市思明区体育中心')
const [{ id: szMember }] = await t.db
  .select({ id: members.id })
  .from(members)
  .innerJoin(accounts, eq(accounts.id, members.account_id))
  .where(eq(accounts.phone, demo.szAdmin))
const szClassroom = (
  await t.call<{ id: number }>('POST', '/api/v1/aid-classroom/', {
    token: tok.szAdmin,
    body: { category: 1, title: '南山急救课', link: 'v001' },
  })
).data.id
const serviceConfig = (
  await t.call<{ id: number }>('POST', '/api/v1/agency/app-service/config', {
    token: tok.superAdmin,
    body: { agency_id: sz, service: ['open_api'], state: 1 },
  })
).data.id
// A member who may read organisations and users but not change them.
await t.call('POST', '/api/v1/member', {
  token: tok.superAdmin,
  body: {
    account: {
      name: '只读管理员',
      phone: '13955550000',
      email: 'ro@aed.example.cn',
      nationality: 'CN',
      location: '北京',
      lat: 39.9,
      lon: 116.4,
      password: 'ReadOnly2026',
    },
    agency_id: (await t.db.select().from(agencies).where(eq(agencies.agency_type, 0)))[0].id,
    role_type: 2,
    permissions: { agency: 'READ_ONLY', device: 'READ_ONLY' },
  },
})
tok.readOnly = await t.login('13955550000', 'ReadOnly2026')
// Shenzhen's devices: one registered at its installation, one in its factory stock.
const f = factories(t)
const szDevice = await f.registeredDevice(tok.szAdmin, { id: sz })
/** Where Shenzhen's device is, as its event and rescue rows name it. */
async function szDeviceWhere() {
  const [row] = await t.db.select().from(devices).where(eq(devices.id, szDevice.id))
  const [szAgency] = await t.db.select().from(agencies).where(eq(agencies.id, sz))
  return {
    device_id: szDevice.id,
    installation_id: row.installation_id,
    agency_id: sz,
    index_link: szAgency.index_link,
  }
}
const szStock = await f.device({ id: sz })
const hz = await agencyId('杭州市西湖区急救中心')
const szDeviceForm = () => ({
  ...f.deviceForm({ id: sz }, szDevice.device_sn),
  update_type: 1,
  contact: '越权',
})

const agencyForm = () => ({
  name: '越权修改',
  agency_type: 2,
  contact_name: '某人',
  phone: '13900000000',
  address_code: '440305',
})
const memberForm = () => ({
  account: {
    name: '越权用户',
    phone: demo.szAdmin,
    email: 'x@aed.example.cn',
    nationality: 'CN',
    location: '深圳',
    lat: 22.5,
    lon: 113.9,
  },
  agency_id: sz,
  role_type: 2,
  permissions: {},
})
const classroomForm = (title: string, link: string) => () => ({ category: 1, title, link })
const noShenzhenDevice = (data: unknown) => {
  const text = JSON.stringify(data)
  for (const sn of [szDevice.device_sn, szStock.device_sn]) expect(text).not.toContain(sn)
  expect(text).not.toContain('深圳')
}

/** One request of an attempt; the path is the route's, with these parameters. */
type Attempt = { params?: object; query?: Record<string, string | number>; body?: () => unknown }
type Case =
  | {
      /** The Hangzhou admin on Shenzhen's records: not found, forbidden or invalid. */
      crossBranch?: Attempt[]
      /** A member without the area (the read-only system duty officer): forbidden. */
      noArea?: Attempt[]
      /** A member with the area read-only: forbidden to write. */
      readOnly?: Attempt[]
      /** What the Hangzhou admin's list must not hold. */
      list?: { query?: Record<string, string | number>; check: (data: unknown) => void }
    }
  | { exempt: string }

/** Nothing of the Shenzhen branch (the seeded names, and the item made above). */
const noShenzhen = {
  query: { page_size: 100 },
  check: (data: unknown) => {
    const text = JSON.stringify(data)
    expect(text).not.toContain('深圳')
    expect(text).not.toContain('南山')
  },
}
const self = 'acts on the session’s own account only'

/** The signed link to Shenzhen's ECG that Shenzhen's admin got (set by the rescue cases). */
const szEcg = { url: '' }

const cases: Record<string, Case> = {
  'POST /api/v1/member/login': { exempt: 'public: signing in' },
  'POST /api/v1/system/sms-code/': { exempt: 'public: sends a code to the phone it is given' },
  'POST /api/v1/member/forget-password/': { exempt: 'public: proven by the SMS code sent to the phone' },
  'GET /api/v1/system/menu': { exempt: 'the session’s own menu, from its own permissions' },
  'GET /api/v1/member/current-list/': { exempt: 'the session’s own memberships' },
  'POST /api/v1/member/current-list/': { crossBranch: [{ body: () => ({ member_id: szMember }) }] },
  'POST /api/v1/member/reset-password/': { exempt: self },
  'GET /api/v1/member/security/': { exempt: self },
  'PUT /api/v1/member/security/': { exempt: self },
  'GET /api/v1/third-party/wechat/config': { exempt: 'public: the WeChat sign-in settings' },
  'POST /api/v1/third-party/wechat/login': { exempt: 'public: signing in' },
  'POST /api/v1/third-party/wechat/bind': { exempt: self },
  'POST /api/v1/third-party/wechat/unbind': { exempt: self },
  'GET /api/v1/system/constants/': { exempt: 'system constants, the same for every member' },
  'GET /api/v1/system/data-dict': { exempt: 'system constants, the same for every member' },
  'POST /api/v1/system/file/': {
    exempt: 'an upload belongs to no organisation; stored under an unguessable name',
  },
  'GET /api/v1/map/district/getchildren/': { exempt: 'reference data: the region tree' },
  'GET /api/v1/map/suggestion': { exempt: 'reference data: place search' },
  'GET /api/v1/map/address': { exempt: 'reference data: the address of a point' },

  'GET /api/v1/agency/hierarchy/': { list: { check: noShenzhen.check } },
  'GET /api/v1/agency/': { list: noShenzhen },
  'GET /api/v1/agency/:id': { crossBranch: [{ params: { id: sz } }] },
  'POST /api/v1/agency/': {
    crossBranch: [{ body: () => ({ ...agencyForm(), parent_id: sz }) }],
    noArea: [{ body: agencyForm }],
    readOnly: [{ body: agencyForm }],
  },
  'PUT /api/v1/agency/:id': {
    crossBranch: [{ params: { id: sz }, body: agencyForm }],
    readOnly: [{ params: { id: sz }, body: agencyForm }],
  },
  'PUT /api/v1/agency/:id/state/': {
    crossBranch: [{ params: { id: sz }, body: () => ({ disabled: true }) }],
    noArea: [{ params: { id: sz }, body: () => ({ disabled: true }) }],
    readOnly: [{ params: { id: sz }, body: () => ({ disabled: true }) }],
  },

  'GET /api/v1/member/': { noArea: [{}], readOnly: [{}], list: noShenzhen },
  'GET /api/v1/member/:id': { crossBranch: [{ params: { id: szMember } }] },
  'POST /api/v1/member': {
    crossBranch: [
      { body: () => ({ ...memberForm(), account: { ...memberForm().account, phone: '13955551111' } }) },
    ],
    noArea: [{ body: memberForm }],
    readOnly: [{ body: memberForm }],
  },
  'PUT /api/v1/member/:id': { crossBranch: [{ params: { id: szMember }, body: memberForm }] },
  'PUT /api/v1/member/:id/authority/': {
    crossBranch: [{ params: { id: szMember }, body: () => ({ permissions: {}, use_expire: null }) }],
  },
  'DELETE /api/v1/member/:id': {
    crossBranch: [{ params: { id: szMember } }],
    noArea: [{ params: { id: szMember } }],
  },
  'GET /api/v1/account/:phone': { noArea: [{ params: { phone: demo.szAdmin } }] },

  'GET /api/v1/aid-classroom/': { noArea: [{}], list: noShenzhen },
  'POST /api/v1/aid-classroom/': {
    noArea: [{ body: classroomForm('无权', 'v3') }],
    readOnly: [{ body: classroomForm('只读', 'v4') }],
  },
  'GET /api/v1/aid-classroom/:id': { crossBranch: [{ params: { id: szClassroom } }] },
  'PUT /api/v1/aid-classroom/:id': {
    crossBranch: [{ params: { id: szClassroom }, body: classroomForm('改', 'v2') }],
    readOnly: [{ params: { id: szClassroom }, body: classroomForm('改', 'v2') }],
  },
  'DELETE /api/v1/aid-classroom/:id': {
    crossBranch: [{ params: { id: szClassroom } }],
    readOnly: [{ params: { id: szClassroom } }],
  },

  'GET /api/v1/agency/config/': { crossBranch: [{ query: { agency_id: sz } }], noArea: [{}] },
  'POST /api/v1/agency/config/': {
    crossBranch: [{ body: () => ({ ...DEFAULT_SETTINGS, agency_id: sz, alarm_sound: 0 }) }],
    noArea: [{ body: () => DEFAULT_SETTINGS }],
    readOnly: [{ body: () => DEFAULT_SETTINGS }],
  },

  'GET /api/v1/agency/app-service/config': { noArea: [{}] },
  'GET /api/v1/agency/app-service/config/:id': { crossBranch: [{ params: { id: serviceConfig } }] },
  'POST /api/v1/agency/app-service/config': {
    crossBranch: [{ body: () => ({ agency_id: xm, service: ['open_api'], state: 1 }) }],
    noArea: [{ body: () => ({ agency_id: xm, service: ['open_api'], state: 1 }) }],
    readOnly: [{ body: () => ({ agency_id: xm, service: ['open_api'], state: 1 }) }],
  },
  'PUT /api/v1/agency/app-service/config/:id': {
    crossBranch: [{ params: { id: serviceConfig }, body: () => ({ service: ['sms_notify'], state: 0 }) }],
  },
  'GET /api/v1/agency/app-service/config/:id/webhook/deliveries': {
    crossBranch: [{ params: { id: serviceConfig } }],
    noArea: [{ params: { id: serviceConfig } }],
  },
  'POST /api/v1/agency/app-service/config/:id/webhook/deliveries/:delivery_id/resend': {
    crossBranch: [{ params: { id: serviceConfig, delivery_id: 1 } }],
    noArea: [{ params: { id: serviceConfig, delivery_id: 1 } }],
  },
  'POST /api/v1/agency/app-service/config/:id/webhook/test': {
    crossBranch: [{ params: { id: serviceConfig } }],
    noArea: [{ params: { id: serviceConfig } }],
  },

  'GET /api/v1/device/': {
    list: { query: { page_size: 500 }, check: noShenzhenDevice },
  },
  'GET /api/v1/device/:id': { crossBranch: [{ params: { id: szDevice.id } }] },
  'POST /api/v1/device/': {
    crossBranch: [{ body: () => f.deviceForm({ id: hz }, szStock.device_sn) }],
    readOnly: [{ body: () => f.deviceForm({ id: sz }, szStock.device_sn) }],
  },
  'PUT /api/v1/device/:id': {
    crossBranch: [{ params: { id: szDevice.id }, body: szDeviceForm }],
    readOnly: [{ params: { id: szDevice.id }, body: szDeviceForm }],
  },
  'DELETE /api/v1/device/:id': {
    crossBranch: [
      { params: { id: szDevice.id } },
      { params: { id: szStock.id }, query: { device_list_type: 2 } },
    ],
    readOnly: [
      { params: { id: szDevice.id } },
      { params: { id: szStock.id }, query: { device_list_type: 2 } },
    ],
  },
  'PUT /api/v1/device/agency-assign': {
    crossBranch: [{ body: () => ({ agency_id: hz, device_ids: [szStock.id] }) }],
    readOnly: [{ body: () => ({ agency_id: sz, device_ids: [szStock.id] }) }],
  },
  'GET /api/v1/device/change-record/': {
    list: {
      query: { register_code: szDevice.register_code },
      check: (data) => expect((data as { resource: unknown[] }).resource).toEqual([]),
    },
  },
  'GET /api/v1/device/:id/credential': { crossBranch: [{ params: { id: szStock.id } }] },
  'POST /api/v1/device/:id/credential': { crossBranch: [{ params: { id: szStock.id } }] },
  // event pages (helper: event pages)
  // Shenzhen's device gets a fault, an offset and a past offline, written as the engine writes
  // them: the Hangzhou admin's pages leave them out and cannot handle them.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { eventApi: api } = await import('@aed/contracts/event')
    const { deviceEvents } = await import('../db/schema.ts')
    const at = await szDeviceWhere()
    const [fault] = await t.db
      .insert(deviceEvents)
      .values({
        ...at,
        kind: 'fault',
        code: 'E02',
        content: '电池故障',
        report_type: 1,
        event_time: new Date(),
      })
      .returning()
    await t.db.insert(deviceEvents).values([
      {
        ...at,
        kind: 'offset',
        offset_location: '深圳市南山区科技园',
        offset_distance: 3200,
        event_time: new Date(),
      },
      { ...at, kind: 'offline', event_time: new Date(Date.now() - 3600_000), closed_at: new Date() },
    ])
    const none = {
      query: { page_size: 100 },
      check: (data: unknown) => {
        noShenzhen.check(data)
        noShenzhenDevice(data)
      },
    }
    const route = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    const note = () => ({ handle_note: '越权处理' })
    return {
      [route(api.earlyWarn)]: { list: none },
      [route(api.fault)]: { crossBranch: [{ query: { agency_id: sz } }], list: none },
      [route(api.locationOffset)]: { list: none },
      [route(api.offline)]: { list: { ...none, query: { page_size: 100, current: 'false' } } },
      [route(api.handle)]: {
        crossBranch: [{ params: { id: fault.id }, body: note }],
        readOnly: [{ params: { id: fault.id }, body: note }],
      },
    }
  })()),
  // message centre: a Shenzhen message (as the message outbox handler writes it) and the
  // Hangzhou admin, whose scope has none; the live socket is covered in modules/live/live.test.ts.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { messageApi: api } = await import('@aed/contracts/message')
    const { sql } = await import('drizzle-orm')
    const [{ index_link }] = await t.db.select().from(agencies).where(eq(agencies.id, sz))
    const { one } = await import('../db/sql.ts')
    const szMessage = (await one<{ id: number }>(
      t.db,
      sql`INSERT INTO messages (msg_type, event_type, event_id, device_id, device_sn, location,
          agency_id, index_link, msg_time)
        VALUES (2, 2, 987654, ${szDevice.id}, ${szDevice.device_sn}, '深圳市南山区', ${sz}, ${index_link}, now())
        RETURNING id::int AS id`,
    )) as { id: number }
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.list)]: { list: { query: { page_size: 100 }, check: noShenzhenDevice } },
      [at(api.detail)]: { crossBranch: [{ params: { id: szMessage.id } }] },
      [at(api.confirm)]: { crossBranch: [{ params: { id: szMessage.id }, body: () => ({}) }] },
      [at(api.unconfirmedAmount)]: {
        list: { check: (data) => expect(data).toEqual({ amount: 0 }) },
      },
      'GET /api/v1/system/data/': {
        exempt:
          'the live WebSocket: signed in by its first message; scope tested in modules/live/live.test.ts',
      },
    }
  })()),
  // cabinets (helper: registry)
  // A Shenzhen cabinet holding a Shenzhen AED, and an empty one: the Hangzhou admin's list leaves
  // them out, and it cannot read, bind, unbind, assign, delete, command or read their secrets.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { cabinetApi: api } = await import('@aed/contracts/cabinet')
    const made = async (cabinet_sn: string) => {
      const r = await t.api(api.create, { token: tok.superAdmin, body: { cabinet_sn, agency_id: sz } })
      if (r.code !== 0) throw new Error(`cabinet: ${r.msg}`)
      return r.data
    }
    const szCabinet = await made('SZCAB00001')
    const szEmpty = await made('SZCAB00002')
    const szAed = await f.device({ id: sz })
    const bound = await t.api(api.update, {
      token: tok.szAdmin,
      params: { id: szCabinet.id },
      body: { update_type: 2, device_sn: szAed.device_sn },
    })
    if (bound.code !== 0) throw new Error(`bind: ${bound.msg}`)
    const hzAed = await f.device({ id: hz })
    const noShenzhenCabinet = (data: unknown) => {
      const text = JSON.stringify(data)
      for (const sn of [szCabinet.cabinet_sn, szEmpty.cabinet_sn, szAed.device_sn])
        expect(text).not.toContain(sn)
      expect(text).not.toContain('深圳')
    }
    const xlsx = await (async () => {
      const { default: ExcelJS } = await import('exceljs')
      const book = new ExcelJS.Workbook()
      book.addWorksheet('救护箱导入').addRows([
        ['救护箱编号', '绑定AED'],
        ['HZCAB00009', szAed.device_sn],
      ])
      return Buffer.from(await book.xlsx.writeBuffer())
    })()
    const upload = (agency: number) => () => {
      const body = new FormData()
      body.append('import_file', new Blob([new Uint8Array(xlsx)]), '救护箱导入.xlsx')
      body.append('agency_id', String(agency))
      return body
    }
    const id = { id: szCabinet.id }
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.list)]: { list: { query: { page_size: 500 }, check: noShenzhenCabinet } },
      [at(api.create)]: {
        crossBranch: [{ body: () => ({ cabinet_sn: 'HZCAB00001', agency_id: sz }) }],
        readOnly: [{ body: () => ({ cabinet_sn: 'HZCAB00002', agency_id: sz }) }],
      },
      [at(api.uploadInfo)]: {
        exempt: 'the import template: the same file for every member of the device area',
      },
      [at(api.importCabinets)]: {
        crossBranch: [{ body: upload(sz) }],
        noArea: [{ body: upload(hz) }],
        readOnly: [{ body: upload(hz) }],
      },
      [at(api.bindRecord)]: {
        crossBranch: [{ query: { cabinet_id: szCabinet.id } }],
      },
      [at(api.assign)]: {
        crossBranch: [{ body: () => ({ agency_id: hz, cabinet_ids: [szEmpty.id] }) }],
        readOnly: [{ body: () => ({ agency_id: sz, cabinet_ids: [szEmpty.id] }) }],
      },
      [at(api.batchDestroy)]: {
        crossBranch: [{ body: () => ({ cabinet_sn_list: [szEmpty.cabinet_sn] }) }],
        noArea: [{ body: () => ({ cabinet_sn_list: [szEmpty.cabinet_sn] }) }],
        readOnly: [{ body: () => ({ cabinet_sn_list: [szEmpty.cabinet_sn] }) }],
      },
      [at(api.detail)]: { crossBranch: [{ params: id }] },
      [at(api.update)]: {
        crossBranch: [
          { params: id, body: () => ({ update_type: 3 }) },
          { params: { id: szEmpty.id }, body: () => ({ update_type: 2, device_sn: hzAed.device_sn }) },
          { params: { id: szEmpty.id }, body: () => ({ update_type: 1, agency_id: hz }) },
        ],
        readOnly: [{ params: id, body: () => ({ update_type: 3 }) }],
      },
      [at(api.records)]: { crossBranch: [{ params: id }] },
      [at(api.credential)]: { crossBranch: [{ params: id }], readOnly: [{ params: id }] },
      [at(api.rotateCredential)]: { crossBranch: [{ params: id }], readOnly: [{ params: id }] },
      [at(api.sendCommand)]: {
        crossBranch: [{ params: id, body: () => ({ name: 'unlock' }) }],
        readOnly: [{ params: id, body: () => ({ name: 'siren' }) }],
      },
      [at(api.commands)]: { crossBranch: [{ params: id }] },
    }
  })()),
  // responders: a Shenzhen responder; the Hangzhou admin's list, export and map layer leave it
  // out, and it cannot read, change, renew, pause, delete or import into Shenzhen. The demo's
  // general user holds aid_man READ_ONLY (its writes are the no-area line here); the read-only
  // duty officer holds no aid_man at all (its reads are the read-only line).
  ...(await (async (): Promise<Record<string, Case>> => {
    const { responderApi: api } = await import('@aed/contracts/responder')
    const person = (phone: string, agency_id: number, certificate_num: string) => ({
      account: {
        phone,
        name: '南山急救员',
        birth: '1988-03-04',
        gender: 1,
        lat: 22.53,
        lon: 113.93,
        location: '深圳市南山区科技园',
        address_code: '440305',
      },
      aid_aptitude: 1,
      certificate_num,
      certificate_expire: '2030-01-01',
      certificate_img: '/files/sz.png',
      agency_id,
      status: 0,
    })
    const made = await t.api(api.create, { token: tok.szAdmin, body: person('13711110001', sz, 'SZ-CERT-1') })
    if (made.code !== 0) throw new Error(`responder: ${made.msg}`)
    const szResponder = made.data
    const noShenzhenResponder = (data: unknown) => {
      const text = JSON.stringify(data)
      expect(text).not.toContain('南山急救员')
      expect(text).not.toContain('SZ-CERT-1')
      expect(text).not.toContain('深圳')
    }
    const xlsx = await (async () => {
      const { RESPONDER_TEMPLATE_HEADERS } = await import('@aed/contracts/responder')
      const { default: ExcelJS } = await import('exceljs')
      const book = new ExcelJS.Workbook()
      book
        .addWorksheet('急救人员导入')
        .addRows([
          [...RESPONDER_TEMPLATE_HEADERS],
          [
            '越权导入',
            '13711110009',
            '男',
            '1990-01-01',
            '',
            '深圳',
            '',
            '113.9',
            '22.5',
            '',
            '非专业',
            '',
            '',
            '',
          ],
        ])
      return Buffer.from(await book.xlsx.writeBuffer())
    })()
    const upload = (agency: number) => () => {
      const body = new FormData()
      body.append('import_file', new Blob([new Uint8Array(xlsx)]), '急救人员导入.xlsx')
      body.append('agency_id', String(agency))
      return body
    }
    const id = { id: szResponder.id }
    const edit = () => person(szResponder.phone, sz, 'SZ-CERT-1')
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.list)]: {
        readOnly: [{}],
        list: { query: { page_size: 500 }, check: noShenzhenResponder },
      },
      [at(api.create)]: {
        crossBranch: [{ body: () => person('13711110002', sz, 'HZ-X-1') }],
        noArea: [{ body: () => person('13711110003', hz, 'HZ-X-2') }],
      },
      [at(api.uploadInfo)]: { readOnly: [{}] },
      [at(api.importResponders)]: {
        crossBranch: [{ body: upload(sz) }],
        noArea: [{ body: upload(hz) }],
      },
      [at(api.detail)]: { crossBranch: [{ params: id }], readOnly: [{ params: id }] },
      [at(api.update)]: { crossBranch: [{ params: id, body: edit }], noArea: [{ params: id, body: edit }] },
      [at(api.remove)]: { crossBranch: [{ params: id }], noArea: [{ params: id }] },
      [at(api.renew)]: {
        crossBranch: [
          { params: id, body: () => ({ certificate_expire: '2031-01-01', certificate_img: '/f.png' }) },
        ],
        noArea: [
          { params: id, body: () => ({ certificate_expire: '2031-01-01', certificate_img: '/f.png' }) },
        ],
      },
      [at(api.setAvailability)]: {
        crossBranch: [{ params: id, body: () => ({ paused: true, reason: '越权' }) }],
        noArea: [{ params: id, body: () => ({ paused: true }) }],
      },
      [at(api.changes)]: { crossBranch: [{ params: id }], readOnly: [{ params: id }] },
      [at(api.location)]: {
        readOnly: [{}],
        list: { check: noShenzhenResponder },
      },
    }
  })()),
  // calls: a Shenzhen call; the Hangzhou admin's list and layer leave it out, and it cannot read or
  // close it. The demo's general user reads calls (aid_event) but cannot record or close them
  // (device READ_ONLY): the no-area line; the duty officer has no aid_event: the read-only line.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { callApi: api } = await import('@aed/contracts/call')
    const callForm = () => ({
      phone: '13712340000',
      lat: 22.53,
      lon: 113.93,
      location: '深圳市南山区科技园呼救',
    })
    const made = await t.api(api.create, { token: tok.szAdmin, body: callForm() })
    if (made.code !== 0) throw new Error(`call: ${made.msg}`)
    const id = { id: made.data.id }
    const noShenzhenCall = (data: unknown) => {
      const text = JSON.stringify(data)
      expect(text).not.toContain('深圳市南山区科技园呼救')
      expect(text).not.toContain('13712340000')
    }
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.list)]: { readOnly: [{}], list: { query: { page_size: 100 }, check: noShenzhenCall } },
      [at(api.create)]: { noArea: [{ body: callForm }] },
      [at(api.detail)]: { crossBranch: [{ params: id }], readOnly: [{ params: id }] },
      [at(api.close)]: {
        crossBranch: [{ params: id, body: () => ({ outcome: 'cancelled' }) }],
        noArea: [{ params: id, body: () => ({ outcome: 'cancelled' }) }],
      },
      [at(api.location)]: { readOnly: [{}], list: { check: noShenzhenCall } },
    }
  })()),
  // coverage: a Shenzhen call far from every AED, uncovered for Shenzhen's admin; the Hangzhou
  // admin's coverage neither counts it nor draws it. The duty officer has no aid_event.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { callApi } = await import('@aed/contracts/call')
    const { coverageApi: api } = await import('@aed/contracts/coverage')
    const made = await t.api(callApi.create, {
      token: tok.szAdmin,
      body: { phone: '13712340001', lat: 22.6, lon: 114.45, location: '深圳市覆盖分析呼救' },
    })
    if (made.code !== 0) throw new Error(`call: ${made.msg}`)
    const seen = await t.api(api.summary, { token: tok.szAdmin })
    const points = 'points' in seen.data ? seen.data.points : []
    if (!points.some((p) => p[0] === made.data.id)) throw new Error('Shenzhen does not see its own call')
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.summary)]: {
        readOnly: [{}],
        list: {
          check: (data) => {
            const c = data as { points: [number][]; districts: { code: string | null }[] }
            expect(c.points.map((p) => p[0])).not.toContain(made.data.id)
            expect(c.districts.map((d) => d.code ?? '').filter((code) => code.startsWith('44'))).toEqual([])
            expect(JSON.stringify(data)).not.toContain('深圳')
          },
        },
      },
    }
  })()),
  // SMS and escalation (helper: sms)
  'POST /api/v1/device/:id/command': {
    crossBranch: [{ params: { id: szDevice.id }, body: () => ({ name: 'selftest' }) }],
    readOnly: [{ params: { id: szDevice.id }, body: () => ({ name: 'selftest' }) }],
  },
  'GET /api/v1/device/:id/command': { crossBranch: [{ params: { id: szDevice.id } }] },

  // The device detail: Shenzhen's device gets a warning and a rescue with one step, written as
  // the gateway writes them, so the lists below have something of Shenzhen to leave out.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { deviceEvents, deviceUsageLogs, rescueEvents } = await import('../db/schema.ts')
    const at = await szDeviceWhere()
    await t.db
      .insert(deviceEvents)
      .values({ ...at, kind: 'warning', code: 'battery_low', event_time: new Date() })
    const [rescue] = await t.db
      .insert(rescueEvents)
      .values({ ...at, rescue_event_id: 'SZ-1', event_time: new Date() })
      .returning()
    await t.db.insert(deviceUsageLogs).values({
      rescue_id: rescue.id,
      device_id: szDevice.id,
      rescue_event_id: 'SZ-1',
      event_desc: '开机',
      event_time: new Date(),
    })
    const none = (data: unknown) => expect(data).toEqual({ count: 0, resource: [] })
    const sn = szDevice.device_sn
    const inspection = (device_sn: string) => () => ({
      device_sn,
      inspect_status: 1,
      inspector_name: '越权',
      inspect_time: '2025-01-01T08:00:00+08:00',
    })
    return {
      'GET /api/v1/device/single-detail/': {
        crossBranch: [{ query: { device_sn: sn, data_type: 'base' } }],
        list: { query: { device_sn: sn, data_type: 'usage_log', rescue_event_id: 'SZ-1' }, check: none },
      },
      'GET /api/v1/device/page-detail/': {
        list: { query: { device_sn: sn, data_type: 'early_warn' }, check: none },
      },
      'POST /api/v1/device/inspection/': {
        crossBranch: [{ body: inspection(sn) }],
        readOnly: [{ body: inspection(sn) }],
      },
      'POST /api/v1/device/setup/clean/': {
        crossBranch: [{ body: () => ({ device_sn: sn, data_type: [1, 2, 3, 4] }) }],
        readOnly: [{ body: () => ({ device_sn: sn, data_type: [1, 2, 3, 4] }) }],
      },
    }
  })()),

  // Statistics (device-stats): a Shenzhen device installed in Nanshan (440305), where Hangzhou has
  // none. The system's statistics of the region count it; the Hangzhou admin's count nothing.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { deviceStatsApi: api } = await import('@aed/contracts/device-stats')
    await f.registeredDevice(tok.szAdmin, { id: sz }, { address_code: '440305' })
    const nanshan = { address_code: '440305' }
    const system = async <E extends (typeof api)[keyof typeof api]>(e: E, query: Record<string, string>) =>
      (await t.api(e, { token: tok.superAdmin, query })).data
    const state = await system(api.stateDistribution, nanshan)
    const bands = await system(api.mainStateDistribution, nanshan)
    const regions = await system(api.regionalDistribution, { address_code: '440300' })
    const months = await system(api.maintenanceMonthly, nanshan)
    const key = await system(api.keyMaintenance, nanshan)
    const sum = (list: { count: number }[]) => list.reduce((n, b) => n + b.count, 0)
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.stateDistribution)]: {
        list: {
          query: nanshan,
          check: (data) => {
            expect(state.all_count).toBeGreaterThan(0)
            expect(data).toMatchObject({ all_count: 0, normal_count: 0, rescue_event_count: 0 })
          },
        },
      },
      [at(api.mainStateDistribution)]: {
        list: {
          query: nanshan,
          check: (data) => {
            expect(sum(bands.battery_expire)).toBeGreaterThan(0)
            expect(sum((data as typeof bands).battery_expire)).toBe(0)
          },
        },
      },
      [at(api.regionalDistribution)]: {
        list: {
          query: { address_code: '440300' },
          check: (data) => {
            expect(regions.items.map((i) => i.address_code)).toContain('440305')
            expect((data as typeof regions).items).toEqual([])
          },
        },
      },
      [at(api.maintenanceMonthly)]: {
        list: {
          query: nanshan,
          check: (data) => {
            expect(months.items.at(-1)!.register_count).toBeGreaterThan(0)
            // The same months, each with no registration.
            const theirs = (data as typeof months).items
            expect(theirs.map((m) => m.month)).toEqual(months.items.map((m) => m.month))
            expect(theirs.map((m) => m.register_count)).toEqual(months.items.map(() => 0))
          },
        },
      },
      [at(api.keyMaintenance)]: {
        list: {
          query: nanshan,
          check: (data) => {
            expect(key.all_count).toBeGreaterThan(0)
            expect(data).toMatchObject({ all_count: 0 })
          },
        },
      },
    }
  })()),

  // dashboard (issue 11; URL paths /api/v1/analysis-board/...)
  // The dashboard map: a Shenzhen device with a rescue in progress. The system's layers hold them;
  // the Hangzhou admin's leave them out, and its popup and event highlight find nothing.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { dashboardApi: api } = await import('@aed/contracts/dashboard')
    const { one } = await import('../db/sql.ts')
    const { sql } = await import('drizzle-orm')
    const mapDevice = await f.registeredDevice(tok.szAdmin, { id: sz }, { address_code: '440305' })
    const rescue = await one<{ id: number }>(
      t.db,
      sql`INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id, event_time)
          SELECT i.device_id, i.id, i.agency_id, g.index_link, 'SZ-MAP-1', now()
          FROM installations i JOIN agencies g ON g.id = i.agency_id
          WHERE i.device_id = ${mapDevice.id} AND i.removed_at IS NULL RETURNING id`,
    )
    const szIds = [szDevice.id, mapDevice.id]
    const pointIds = (data: unknown) =>
      Object.values(data as Record<string, unknown>).flatMap((v) =>
        Array.isArray(v) ? v.map((p) => (p as number[])[0]) : [],
      )
    const systemPoints = pointIds((await t.api(api.deviceLocation, { token: tok.superAdmin })).data)
    for (const id of szIds) expect(systemPoints).toContain(id)
    const systemRescues = (await t.api(api.rescueLocation, { token: tok.superAdmin })).data.resource
    expect(systemRescues.map((r) => r.id)).toContain(rescue!.id)
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.deviceLocation)]: {
        list: {
          check: (data) => {
            const ids = pointIds(data)
            expect(ids.length).toBeGreaterThan(0)
            for (const id of szIds) expect(ids).not.toContain(id)
          },
        },
      },
      [at(api.devicePopup)]: {
        crossBranch: [{ params: { id: szDevice.id } }, { params: { id: mapDevice.id } }],
      },
      [at(api.rescueLocation)]: {
        list: {
          check: (data) => {
            const rows = (data as { resource: { id: number; device_sn: string }[] }).resource
            expect(rows.map((r) => r.id)).not.toContain(rescue!.id)
            noShenzhenDevice(data)
          },
        },
      },
      [at(api.eventFocus)]: {
        crossBranch: [{ query: { event_type: 2, event_id: rescue!.id } }],
      },
    }
  })()),

  // Exports and the factory import (device-io). The Hangzhou admin's device export, read back,
  // holds its own device and none of Shenzhen's; a Hangzhou (ordinary organisation) import into
  // Shenzhen is refused (the general agents' scope check is in device-io.test.ts).
  ...(await (async (): Promise<Record<string, Case>> => {
    const { deviceIoApi: api } = await import('@aed/contracts/device-io')
    const { default: ExcelJS } = await import('exceljs')
    const hzDevice = await f.registeredDevice(tok.hzAdmin, { id: hz })
    const exported = await t.api(api.dataExport, { token: tok.hzAdmin, query: { export_type: 1 } })
    const file = await t.app.inject({ method: 'GET', url: exported.data.file_url })
    const read = new ExcelJS.Workbook()
    await read.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    const hzSerials = read.worksheets[0].getColumn(1).values.slice(2).map(String)
    const book = new ExcelJS.Workbook()
    book.addWorksheet('设备导入').addRows([
      ['设备SN', '型号', '固件版本'],
      ['X640000001', '', ''],
    ])
    const xlsx = Buffer.from(await book.xlsx.writeBuffer())
    const upload = (agency: number) => () => {
      const body = new FormData()
      body.append('import_file', new Blob([new Uint8Array(xlsx)]), '设备导入.xlsx')
      body.append('agency_id', String(agency))
      return body
    }
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.dataExport)]: {
        noArea: [{ query: { export_type: 1 } }],
        readOnly: [{ query: { export_type: 2 } }],
        list: {
          query: { export_type: 1 },
          check: (data) => {
            expect(hzSerials).toContain(hzDevice.device_sn)
            noShenzhenDevice(hzSerials)
            expect(data).toMatchObject({ count: hzSerials.length })
          },
        },
      },
      [at(api.importDevices)]: {
        crossBranch: [{ body: upload(sz) }],
        noArea: [{ body: upload(sz) }],
        readOnly: [{ body: upload(sz) }],
      },
    }
  })()),

  // Rescues (the emergency page's rescue tab): a Shenzhen rescue whose device uploaded its ECG.
  // The Hangzhou admin's list leaves it out and its download is refused; the read-only member has
  // no aid_event area. The signed link Shenzhen's admin gets is tried at the end of the file.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { rescueApi: api } = await import('@aed/contracts/rescue')
    const { deviceLink } = await import('./device-link.ts')
    const { signDeviceRequest } = await import('../plugins/auth/device.ts')
    const d = await deviceLink(t, (await f.registeredDevice(tok.szAdmin, { id: sz })).device_sn)
    await d.send(
      d.msg('usage', { rescue_event_id: 'SZ-ECG-1', event_time: Date.now(), event_desc: 'power_on' }),
    )
    const path = '/device-api/v1/files?kind=ecg&rescue_event_id=SZ-ECG-1'
    const body = Buffer.from('SHENZHEN-ECG')
    await t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        ...signDeviceRequest(d.sn, d.secret, { method: 'POST', path, body, ts: Date.now() }),
        'content-type': 'application/octet-stream',
      },
      payload: body,
    })
    const query = { device_sn: d.sn, rescue_event_id: 'SZ-ECG-1' }
    const link = await t.api(api.fileDownload, { token: tok.szAdmin, query })
    expect(link.code).toBe(0)
    szEcg.url = link.data.url
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.list)]: {
        readOnly: [{}],
        list: {
          query: { page_size: 100 },
          check: (data) => {
            expect(JSON.stringify(data)).not.toContain(d.sn)
            noShenzhenDevice(data)
          },
        },
      },
      [at(api.fileDownload)]: { crossBranch: [{ query }], readOnly: [{ query }] },
    }
  })()),

  'GET /api/v1/sys-mgmt/operation-log': {
    noArea: [{}],
    list: {
      query: { page_size: 100 },
      check: (data) => {
        const { resource: rows, count } = data as { resource: { agency_name: string }[]; count: number }
        // Its own sign-ins at least, and only its organisation's entries.
        expect(count).toBeGreaterThan(0)
        expect(rows).toHaveLength(Math.min(count, 100))
        expect(new Set(rows.map((l) => l.agency_name))).toEqual(new Set(['杭州市西湖区急救中心']))
      },
    },
  },
  // 公众审核: the system organisation's alone. The Hangzhou admin (another organisation) is refused
  // every call, the duty officer (no system management) too, and the system's read-only member
  // reads but cannot decide, edit, delete or save.
  ...(await (async (): Promise<Record<string, Case>> => {
    const { reviewApi: api } = await import('@aed/contracts/review')
    const submitter = { submitter_name: '公众', submitter_phone: '13966660000' }
    const [v] = await t.db
      .insert(volunteers)
      .values({ ...submitter, guard_area: '西湖区', has_cert: 0 })
      .returning({ id: volunteers.id })
    const [p] = await t.db
      .insert(thirdPartyAeds)
      .values({
        ...submitter,
        brand: '迈瑞',
        location: '西湖文化广场',
        lat: 30.28,
        lon: 120.16,
        audit_status: 2,
      })
      .returning({ id: thirdPartyAeds.id })
    const vid = { id: v.id }
    const pid = { id: p.id }
    const pass = () => ({ audit_status: 2 })
    const edit = () => ({
      update_type: 2,
      brand: '飞利浦',
      location: '越权',
      lat: 30.28,
      lon: 120.16,
      install_imgs: ['/files/2026/11/x.png'],
    })
    const switches = () => ({ call_event_notify_aid_volunteer: 1, xcx_display_third_party_aed: 1 })
    const at = (e: { method: string; path: string }) => `${e.method} ${e.path}`
    return {
      [at(api.volunteers)]: { crossBranch: [{}], noArea: [{}] },
      [at(api.auditVolunteer)]: {
        crossBranch: [{ params: vid, body: pass }],
        noArea: [{ params: vid, body: pass }],
        readOnly: [{ params: vid, body: pass }],
      },
      [at(api.deleteVolunteer)]: {
        crossBranch: [{ params: vid }],
        noArea: [{ params: vid }],
        readOnly: [{ params: vid }],
      },
      [at(api.thirdPartyAeds)]: { crossBranch: [{}], noArea: [{}] },
      [at(api.updateThirdPartyAed)]: {
        crossBranch: [{ params: pid, body: edit }],
        noArea: [{ params: pid, body: edit }],
        readOnly: [{ params: pid, body: edit }],
      },
      [at(api.deleteThirdPartyAed)]: {
        crossBranch: [{ params: pid }],
        noArea: [{ params: pid }],
        readOnly: [{ params: pid }],
      },
      [at(api.sysConfig)]: { crossBranch: [{}], noArea: [{}] },
      [at(api.saveSysConfig)]: {
        crossBranch: [{ body: switches }],
        noArea: [{ body: switches }],
        readOnly: [{ body: switches }],
      },
      [at(api.thirdPartyLayer)]: {
        exempt:
          'approved third-party AEDs are public records (the mini-program shows them to anyone); the points carry no submitter',
      },
    }
  })()),
}

/** Every /api/v1 route of the app, as `METHOD /path`. */
const routes = t.app.routeList.filter((r) => r.url.startsWith('/api/v1/')).map((r) => `${r.method} ${r.url}`)

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
const tried = (kind: 'crossBranch' | 'noArea' | 'readOnly') =>
  Object.entries(cases).flatMap(([key, c]) => {
    if ('exempt' in c) return []
    const [method, url] = key.split(' ') as [Method, string]
    return (c[kind] ?? []).map((a) => {
      const path = pathOf({ path: url }, a.params)
      const query = a.query
        ? `?${new URLSearchParams(Object.entries(a.query).map(([k, v]) => [k, String(v)]))}`
        : ''
      return [`${method} ${path}${query}`, method, path, a] as const
    })
  })

async function attempt(token: string, method: Method, path: string, a: Attempt) {
  return t.call(method, path, { token, query: a.query, ...(a.body ? { body: a.body() } : {}) })
}

describe('every /api/v1 route', () => {
  it.each(routes)('%s has a tenancy case', (key) => {
    const c = cases[key]
    if (!c) {
      throw new Error(
        `${key} has no tenancy case: add its cross-branch, no-area or read-only attempts (or a list check) to test/tenancy.test.ts, or an exemption with the reason`,
      )
    }
    if ('exempt' in c) expect(c.exempt.length).toBeGreaterThan(0)
    else expect(Boolean(c.crossBranch?.length || c.noArea?.length || c.readOnly?.length || c.list)).toBe(true)
  })

  it('has no case for a route the app does not register', () => {
    expect(Object.keys(cases).filter((k) => !routes.includes(k))).toEqual([])
  })
})

describe('tenancy line', () => {
  it.each(tried('crossBranch'))('another branch cannot: %s', async (_name, method, path, a) => {
    const r = await attempt(tok.hzAdmin, method, path, a)
    expect([Code.NOT_FOUND, Code.FORBIDDEN, Code.INVALID]).toContain(r.code)
  })

  it.each(tried('noArea'))('a member without the area cannot: %s', async (_n, method, path, a) => {
    expect((await attempt(tok.general, method, path, a)).code).toBe(Code.FORBIDDEN)
  })

  it.each(tried('readOnly'))('a read-only member cannot: %s', async (_n, method, path, a) => {
    expect((await attempt(tok.readOnly, method, path, a)).code).toBe(Code.FORBIDDEN)
  })

  it('left everything of the other branch as it was', async () => {
    const agency = await t.call<{ name: string; disabled: boolean }>('GET', `/api/v1/agency/${sz}`, {
      token: tok.superAdmin,
    })
    expect(agency.data).toMatchObject({ name: '深圳市南山区急救站', disabled: false })
    const member = await t.call<{ account: { name: string }; role_type: number }>(
      'GET',
      `/api/v1/member/${szMember}`,
      {
        token: tok.superAdmin,
      },
    )
    expect(member.data).toMatchObject({ account: { name: '南山急救站管理员' }, role_type: 0 })
    const cls = await t.call<{ title: string }>('GET', `/api/v1/aid-classroom/${szClassroom}`, {
      token: tok.superAdmin,
    })
    expect(cls.data.title).toBe('南山急救课')
    const settings = await t.call<{ alarm_sound: number }>('GET', '/api/v1/agency/config/', {
      token: tok.superAdmin,
      query: { agency_id: sz },
    })
    expect(settings.data.alarm_sound).toBe(DEFAULT_SETTINGS.alarm_sound)
    const svc = await t.call<{ state: number }>('GET', `/api/v1/agency/app-service/config/${serviceConfig}`, {
      token: tok.superAdmin,
    })
    expect(svc.data.state).toBe(1)
    expect(await t.db.select().from(serviceConfigs)).toHaveLength(1)
    const dev = await t.call<{ contact: string | null; agency_id: number }>(
      'GET',
      `/api/v1/device/${szDevice.id}`,
      {
        token: tok.superAdmin,
      },
    )
    expect(dev.data).toMatchObject({ contact: null, agency_id: sz })
    const [stock] = await t.db.select().from(devices).where(eq(devices.id, szStock.id))
    expect(stock).toMatchObject({ agency_id: sz, deleted_at: null, installation_id: null })
    const names = (await t.db.select({ name: agencies.name }).from(agencies)).map((r) => r.name)
    expect(names).not.toContain('越权修改')
    expect(await t.db.select().from(accounts).where(eq(accounts.phone, '13955551111'))).toHaveLength(0)
    const people = await t.db
      .select({ phone: accounts.phone, r: responders })
      .from(responders)
      .innerJoin(accounts, eq(accounts.id, responders.account_id))
      .where(inArray(accounts.phone, ['13711110001', '13711110002', '13711110003', '13711110009']))
    expect(people.map((p) => [p.phone, p.r.agency_id, p.r.paused, p.r.certificate_expire])).toEqual([
      ['13711110001', sz, false, '2030-01-01'],
    ])
    const calls = await t.db.select().from(callEvents).where(eq(callEvents.phone, '13712340000'))
    expect(calls.map((c) => [c.agency_id, c.status])).toEqual([[sz, 1]])
    const reviews = await t.db
      .select({ v: volunteers.audit_status, p: thirdPartyAeds.brand })
      .from(volunteers)
      .innerJoin(thirdPartyAeds, eq(thirdPartyAeds.submitter_phone, volunteers.submitter_phone))
      .where(eq(volunteers.submitter_phone, '13966660000'))
    expect(reviews).toEqual([{ v: 1, p: '迈瑞' }])
    const [switches] = await t.db.select().from(backendConfig)
    expect([switches.call_event_notify_aid_volunteer, switches.xcx_display_third_party_aed]).toEqual([0, 0])
  })

  const lists = Object.entries(cases).flatMap(([key, c]) =>
    'list' in c && c.list ? [[key, c.list] as const] : [],
  )
  it.each(lists)('lists never show another branch’s rows: %s', async (key, list) => {
    const r = await t.call(key.split(' ')[0] as Method, key.split(' ')[1], {
      token: tok.hzAdmin,
      query: list.query,
    })
    expect(r.code).toBe(0)
    list.check(r.data)
  })
})

describe('signed file links (outside /api/v1: the link is the permission)', () => {
  it('open Shenzhen’s ECG only by the link its admin got; the old public URL and forged links open nothing', async () => {
    expect(szEcg.url).toMatch(/^\/private-files\/device-files\//)
    const ok = await t.app.inject({ method: 'GET', url: szEcg.url })
    expect([ok.statusCode, ok.body]).toEqual([200, 'SHENZHEN-ECG'])
    const u = new URL(szEcg.url, 'http://x')
    const key = u.pathname.slice('/private-files/'.length)
    const refused = [
      // The public files route, which served it before it was private.
      { url: `/files/${key}`, status: 404 },
      // The path without its signature, even with a member's token.
      { url: u.pathname, status: 403, token: tok.hzAdmin },
      // Its signature on another key, and a later expiry under its signature.
      { url: `${u.pathname.replace(/\.bin$/, '0.bin')}${u.search}`, status: 403 },
      {
        url: `${u.pathname}?${new URLSearchParams({ ...Object.fromEntries(u.searchParams), expires: '99999999999' })}`,
        status: 403,
      },
    ]
    for (const r of refused) {
      const res = await t.app.inject({
        method: 'GET',
        url: r.url,
        headers: r.token ? { authorization: `JWT ${r.token}` } : {},
      })
      expect([r.url, res.statusCode]).toEqual([r.url, r.status])
      expect(res.body).not.toContain('SHENZHEN-ECG')
    }
  })
})
