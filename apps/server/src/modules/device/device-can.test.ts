import { Code } from '@aed/contracts'
import { type DeviceListCan, deviceApi } from '@aed/contracts/device'
import { deviceCommandApi } from '@aed/contracts/device-command'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { deviceIoApi } from '@aed/contracts/device-io'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { demo } from '../../test/harness.ts'
import { TEMPLATE_HEADERS } from '../system/import-template.ts'

// The device pages' buttons follow `can` (sent with the lists and the rows): for every kind of
// member, what `can` says is what the write then does: done when true, the permission error when false.

// `branch` is an ordinary organisation under `agent`, a general agent. The server's "today" is
// this clock: the real now when the file starts, standing still.
const clock = new TestClock(Date.now())
const env = deviceTestFile(clock, async ({ t, f, agent, branch, admin }) => ({
  /** A token of each kind of member, by the names `expected` uses. */
  members: {
    system: await t.login(demo.superAdmin),
    agentAdmin: (await f.signedIn(agent)).token,
    agentEditor: (await f.signedIn(agent, { role_type: 1, permissions: { device: 'EDIT' } })).token,
    branchAdmin: admin,
    branchAll: (
      await f.signedIn(branch, { role_type: 1, permissions: { device: 'EDIT', device_reg: 'ALL' } })
    ).token,
    reader: (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
  } as Record<string, string>,
}))

/** Nothing allowed: every toolbar action of the device list (the type makes it exhaustive). */
const NOTHING: DeviceListCan = {
  register: false,
  export: false,
  abnormal_switches: false,
  clean: false,
  clean_all: false,
  cable_voltage: false,
  import: false,
  assign: false,
  delete: false,
}

/** The toolbar with the named actions allowed and every other one not. */
function allowed(names: string): DeviceListCan {
  const can = { ...NOTHING }
  for (const name of names.split(' ').filter(Boolean)) {
    if (!(name in NOTHING)) throw new Error(`not a toolbar action: ${name}`)
    can[name as keyof DeviceListCan] = true
  }
  return can
}

/** What each member may do from the toolbars, by the rules the writes enforce. */
const expected: Record<string, DeviceListCan> = {
  // super administrator of the system organisation: everything, the electrode voltage too
  system: allowed('register export abnormal_switches clean clean_all cable_voltage import assign delete'),
  // super administrator of a general agent: all but clean-up of everything
  agentAdmin: allowed('register export abnormal_switches clean import assign delete'),
  // administrator of the agent with device EDIT: registers, exports and imports
  agentEditor: allowed('register export import'),
  // super administrator of an ordinary organisation: no import
  branchAdmin: allowed('register export abnormal_switches clean assign delete'),
  // administrator of the branch with ALL on device registration: deletes and cleans, no super administrator's rights
  branchAll: allowed('register export clean delete'),
  // read-only
  reader: NOTHING,
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

/** The `can` of a device list (registered or factory). */
async function listCan(token: string, device_list_type: 1 | 2) {
  const r = await env.t.api(deviceApi.list, { token, query: { device_list_type } })
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
    for (const [who, token] of Object.entries(env.members)) {
      const registered = await listCan(token, 1)
      expect({ who, can: registered }).toEqual({ who, can: expected[who] })
      expect(await listCan(token, 2)).toEqual(registered)
    }
  })

  it('register, export and the abnormal-status switches: the write does what can said', async () => {
    for (const [who, token] of Object.entries(env.members)) {
      const can = await listCan(token, 1)
      const plain = await env.f.device(env.branch)
      const registered = await env.t.api(deviceApi.register, {
        token,
        body: env.f.deviceForm(env.branch, plain.device_sn),
      })
      followsCan(can.register, registered, `${who} registers`)
      const switched = await env.f.device(env.branch)
      const withSwitches = await env.t.api(deviceApi.register, {
        token,
        body: env.f.deviceForm(env.branch, switched.device_sn, { disable_abnormal_sms_notify: 1 }),
      })
      followsCan(can.abnormal_switches, withSwitches, `${who} registers with SMS off`)
      const exported = await env.t.api(deviceIoApi.dataExport, { token, query: { export_type: 1 } })
      followsCan(can.export, exported, `${who} exports`)
    }
  })

  it('clean-up, and clean-up of everything: the write does what can said', async () => {
    for (const [who, token] of Object.entries(env.members)) {
      const can = await listCan(token, 1)
      const d = await env.f.registeredDevice(env.members.system, env.branch)
      const clean = (data_type: (number | 'all')[]) =>
        env.t.api(deviceDetailApi.clean, { token, body: { device_sn: d.device_sn, data_type } })
      followsCan(can.clean, await clean([1]), `${who} cleans`)
      followsCan(can.clean_all, await clean(['all']), `${who} cleans everything`)
    }
  })

  it('the factory list’s import, assign and delete: the write does what can said', async () => {
    for (const [who, token] of Object.entries(env.members)) {
      const can = await listCan(token, 2)
      const imported = await env.t.call('POST', deviceIoApi.importDevices.path, {
        token,
        body: await importFile(freshSerial()),
      })
      followsCan(can.import, imported, `${who} imports`)
      const d = await env.f.device(env.branch)
      const assigned = await env.t.api(deviceApi.assign, {
        token,
        body: { agency_id: env.branch.id, device_ids: [d.id] },
      })
      followsCan(can.assign, assigned, `${who} assigns`)
      const removed = await env.t.api(deviceApi.remove, {
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
    const d = await env.f.registeredDevice(env.members.system, env.branch)
    for (const [who, token] of Object.entries(env.members)) {
      const detail = await env.t.api(deviceApi.detail, { token, params: { id: d.id } })
      expect(detail.code).toBe(0)
      const listed = await env.t.api(deviceApi.list, { token, query: { device_sn: d.device_sn } })
      const row = 'resource' in listed.data ? listed.data.resource[0] : undefined
      expect(row?.can).toEqual(detail.data.can)
      expect({ who, command: detail.data.can.command }).toEqual({ who, command: commands[who] })
      const sent = await env.t.api(deviceCommandApi.send, {
        token,
        params: { id: d.id },
        body: { name: 'selftest' },
      })
      followsCan(detail.data.can.command, sent, `${who} sends a command`)
    }
  })
})
