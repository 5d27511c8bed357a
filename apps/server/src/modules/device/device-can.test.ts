import { Code } from '@aed/contracts'
import { type DeviceListCan, deviceApi } from '@aed/contracts/device'
import { deviceCommandApi } from '@aed/contracts/device-command'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { deviceIoApi } from '@aed/contracts/device-io'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { factories } from '../../test/factories.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'
import { TEMPLATE_HEADERS } from '../system/import-template.ts'

// The device pages' buttons follow `can` (sent with the lists and the rows): for every kind of
// member, what `can` says is what the write then does: done when true, the permission error when false.

let t: TestApp
let f: ReturnType<typeof factories>
type Agency = Awaited<ReturnType<ReturnType<typeof factories>['agency']>>
let branch: Agency // ordinary organisation under a general agent
const members: Record<string, string> = {}

/** What each member may do from the toolbars, by the rules the writes enforce. */
const expected: Record<string, DeviceListCan> = {
  // super administrator of the system organisation: everything
  system: {
    register: true,
    export: true,
    abnormal_switches: true,
    clean: true,
    clean_all: true,
    import: true,
    assign: true,
    delete: true,
  },
  // super administrator of a general agent: all but clean-up of everything
  agentAdmin: {
    register: true,
    export: true,
    abnormal_switches: true,
    clean: true,
    clean_all: false,
    import: true,
    assign: true,
    delete: true,
  },
  // administrator of the agent with device EDIT: registers, exports and imports
  agentEditor: {
    register: true,
    export: true,
    abnormal_switches: false,
    clean: false,
    clean_all: false,
    import: true,
    assign: false,
    delete: false,
  },
  // super administrator of an ordinary organisation: no import
  branchAdmin: {
    register: true,
    export: true,
    abnormal_switches: true,
    clean: true,
    clean_all: false,
    import: false,
    assign: true,
    delete: true,
  },
  // administrator of the branch with ALL on device registration: deletes and cleans, no super administrator's rights
  branchAll: {
    register: true,
    export: true,
    abnormal_switches: false,
    clean: true,
    clean_all: false,
    import: false,
    assign: false,
    delete: true,
  },
  // read-only
  reader: {
    register: false,
    export: false,
    abnormal_switches: false,
    clean: false,
    clean_all: false,
    import: false,
    assign: false,
    delete: false,
  },
}

/** Who may send a device a command (self-test, locate): super administrators. */
const commands: Record<string, boolean> = {
  system: true,
  agentAdmin: true,
  agentEditor: false,
  branchAdmin: true,
  branchAll: false,
  reader: false,
}

beforeAll(async () => {
  t = await createTestApp()
  f = factories(t)
  const agent = await f.agency(await f.root())
  branch = await f.agency(agent)
  members.system = await t.login(demo.superAdmin)
  members.agentAdmin = (await f.signedIn(agent)).token
  members.agentEditor = (await f.signedIn(agent, { role_type: 1, permissions: { device: 'EDIT' } })).token
  members.branchAdmin = (await f.signedIn(branch)).token
  members.branchAll = (
    await f.signedIn(branch, { role_type: 1, permissions: { device: 'EDIT', device_reg: 'ALL' } })
  ).token
  members.reader = (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token
})
afterAll(() => t.close())

/** The `can` of a device list (registered or factory). */
async function listCan(token: string, device_list_type: 1 | 2) {
  const r = await t.api(deviceApi.list, { token, query: { device_list_type } })
  expect(r.code).toBe(0)
  if (!('can' in r.data)) throw new Error('the list answered no can')
  return r.data.can
}

/** A write answered as `can` said: done when allowed, the permission error when not. */
function followsCan(allowed: boolean, r: { code: number; msg: string }, what: string) {
  expect({ what, code: r.code, msg: r.msg }).toMatchObject({ what, code: allowed ? 0 : Code.FORBIDDEN })
}

async function importFile(serial: string) {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('设备导入')
  sheet.addRow([...TEMPLATE_HEADERS])
  sheet.addRow([serial, '', ''])
  const body = new FormData()
  body.append('import_file', new Blob([new Uint8Array(await book.xlsx.writeBuffer())]), '设备导入.xlsx')
  return body
}

let serial = 0
const freshSerial = () => `A64${String(9_000_000 + ++serial)}`

describe('the device lists’ can', () => {
  it('is the same on both lists, and says what each member may do', async () => {
    for (const [who, token] of Object.entries(members)) {
      const registered = await listCan(token, 1)
      expect({ who, can: registered }).toEqual({ who, can: expected[who] })
      expect(await listCan(token, 2)).toEqual(registered)
    }
  })

  it('register, export and the abnormal-status switches: the write does what can said', async () => {
    for (const [who, token] of Object.entries(members)) {
      const can = await listCan(token, 1)
      const plain = await f.device(branch)
      const registered = await t.api(deviceApi.register, {
        token,
        body: f.deviceForm(branch, plain.device_sn),
      })
      followsCan(can.register, registered, `${who} registers`)
      const switched = await f.device(branch)
      const withSwitches = await t.api(deviceApi.register, {
        token,
        body: f.deviceForm(branch, switched.device_sn, { disable_abnormal_sms_notify: 1 }),
      })
      followsCan(can.abnormal_switches, withSwitches, `${who} registers with SMS off`)
      const exported = await t.api(deviceIoApi.dataExport, { token, query: { export_type: 1 } })
      followsCan(can.export, exported, `${who} exports`)
    }
  })

  it('clean-up, and clean-up of everything: the write does what can said', async () => {
    for (const [who, token] of Object.entries(members)) {
      const can = await listCan(token, 1)
      const d = await f.registeredDevice(members.system, branch)
      const clean = (data_type: (number | 'all')[]) =>
        t.api(deviceDetailApi.clean, { token, body: { device_sn: d.device_sn, data_type } })
      followsCan(can.clean, await clean([1]), `${who} cleans`)
      followsCan(can.clean_all, await clean(['all']), `${who} cleans everything`)
    }
  })

  it('the factory list’s import, assign and delete: the write does what can said', async () => {
    for (const [who, token] of Object.entries(members)) {
      const can = await listCan(token, 2)
      const imported = await t.call('POST', deviceIoApi.importDevices.path, {
        token,
        body: await importFile(freshSerial()),
      })
      followsCan(can.import, imported, `${who} imports`)
      const d = await f.device(branch)
      const assigned = await t.api(deviceApi.assign, {
        token,
        body: { agency_id: branch.id, device_ids: [d.id] },
      })
      followsCan(can.assign, assigned, `${who} assigns`)
      const removed = await t.api(deviceApi.remove, {
        token,
        params: { id: d.id },
        query: { device_list_type: 2 },
      })
      followsCan(can.delete, removed, `${who} deletes a factory device`)
    }
  })
})

describe('a device’s can', () => {
  it('says who may send it a command, and the command does what it said', async () => {
    const d = await f.registeredDevice(members.system, branch)
    for (const [who, token] of Object.entries(members)) {
      const detail = await t.api(deviceApi.detail, { token, params: { id: d.id } })
      expect(detail.code).toBe(0)
      const listed = await t.api(deviceApi.list, { token, query: { device_sn: d.device_sn } })
      const row = 'resource' in listed.data ? listed.data.resource[0] : undefined
      expect(row?.can).toEqual(detail.data.can)
      expect({ who, command: detail.data.can.command }).toEqual({ who, command: commands[who] })
      const sent = await t.api(deviceCommandApi.send, {
        token,
        params: { id: d.id },
        body: { name: 'selftest' },
      })
      followsCan(detail.data.can.command, sent, `${who} sends a command`)
    }
  })
})
