import zlib from 'node:zlib'
import { Code } from '@aed/contracts'
import {
  type DeviceLocations,
  dashboardApi,
  deviceLocationSchema,
  devicePopupSchema,
  eventFocusSchema,
  rescueLocationsSchema,
} from '@aed/contracts/dashboard'
import { deviceApi } from '@aed/contracts/device'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { devices } from '../../db/schema.ts'
import { one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import type { AgencyRow } from '../../test/factories.ts'
import { insertMessage } from '../message/message.repository.ts'

// A branch with a child (a leaf) and a sibling branch, each with devices of known status and
// place, so every layer below is exact; the sibling's devices and rescues share the branch's
// regions and must never show. The clock stands still so the rescue layer's window can move.

const NOW = new Date('2026-11-22T02:00:00.000Z')
const HOUR = 3_600_000
const clock = new TestClock(NOW)

const env = deviceTestFile(clock, async ({ f, agent, branch }) => {
  const child = await f.agency(branch)
  const sibling = await f.agency(agent)
  return {
    child,
    sibling,
    reader: (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
    outsider: (await f.signedIn(branch, { role_type: 2, permissions: { member: 'READ_ONLY' } })).token,
    childAdmin: (await f.signedIn(child)).token,
    siblingAdmin: (await f.signedIn(sibling)).token,
    system: (await f.signedIn(await f.root())).token,
  }
})

type Made = { id: number; device_sn: string }
const d: Record<string, Made> = {}
let stock: Made
let removed: Made

/** Registers a device and sets its status (the triggers copy it onto the installation). */
async function build(
  name: string,
  token: string,
  agency: AgencyRow,
  status: number,
  over: { address_code?: string; lat?: number; lon?: number; hide?: boolean } = {},
) {
  const { hide, ...form } = over
  const made = await env.f.registeredDevice(token, agency, {
    ...form,
    ...(hide ? { disable_abnormal_display: 1 as const } : {}),
  })
  await env.t.db.update(devices).set({ status }).where(eq(devices.id, made.id))
  d[name] = { id: made.id, device_sn: made.device_sn }
}

/** A rescue at a device's installation, written as the engine writes it. */
async function rescue(
  of: Made,
  o: { started: number; ended?: number; lat?: number; lon?: number; location?: string },
) {
  const r = await one<{ id: number }>(
    env.t.db,
    sql`INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id,
          event_time, ended_at, event_lat, event_lon, event_location)
        SELECT i.device_id, i.id, i.agency_id, g.index_link, ${`R-${of.id}-${o.started}`},
               ${new Date(NOW.getTime() + o.started * HOUR).toISOString()}::timestamptz,
               ${o.ended === undefined ? null : new Date(NOW.getTime() + o.ended * HOUR).toISOString()}::timestamptz,
               ${o.lat ?? null}::float8, ${o.lon ?? null}::float8, ${o.location ?? null}
        FROM installations i JOIN agencies g ON g.id = i.agency_id
        WHERE i.device_id = ${of.id} AND i.removed_at IS NULL
        RETURNING id`,
  )
  return r!.id
}

/** The message the engine would write for an event (type and event id as messages keep them). */
async function messageFor(type: number, eventId: number, of: Made, agency: AgencyRow) {
  const m = await insertMessage(env.t.db, {
    msg_type: type,
    event_type: type,
    event_id: eventId,
    device_id: of.id,
    device_sn: of.device_sn,
    cabinet_sn: null,
    location: '浙江省杭州市西湖区文三路100号',
    agency_id: agency.id,
    index_link: agency.index_link,
    msg_time: NOW,
    detail: type === 3 ? { offset_distance: 1500 } : {},
    escalate_at: null,
  })
  return m!.id
}

const rescues: Record<string, number> = {}

beforeAll(async () => {
  await build('normal', env.admin, env.branch, 0)
  await build('warning', env.admin, env.branch, 1, { lat: 30.123456789, lon: 120.987654321 })
  await build('fault', env.admin, env.branch, 2, { address_code: '330108', lat: 30.29, lon: 120.08 })
  await build('offset', env.admin, env.branch, 3, { address_code: '320106', lat: 32.05, lon: 118.77 })
  await build('hidden', env.admin, env.branch, 4, { hide: true, lat: 30.25, lon: 120.2 })
  // An installation registered at 0,0 (no real place): counted, not drawn.
  await build('nowhere', env.admin, env.branch, 2, { lat: 0, lon: 0 })
  await build('childFault', env.childAdmin, env.child, 2, { address_code: '110105', lat: 39.92, lon: 116.44 })
  await build('childOffline', env.childAdmin, env.child, 4, {
    address_code: '110108',
    lat: 39.96,
    lon: 116.3,
  })
  await build('theirs', env.siblingAdmin, env.sibling, 2)
  await build('theirsOffline', env.siblingAdmin, env.sibling, 4, { address_code: '110105' })
  // Neither an uninstalled device nor factory stock is on the map.
  await build('gone', env.admin, env.branch, 0)
  removed = d.gone
  delete d.gone
  expect((await env.t.api(deviceApi.remove, { token: env.admin, params: { id: removed.id } })).code).toBe(0)
  stock = await env.f.device(env.branch)

  rescues.open = await rescue(d.normal, { started: -2 })
  rescues.ownPlace = await rescue(d.warning, {
    started: -3,
    ended: -1,
    lat: 30.3,
    lon: 120.1,
    location: '文一路',
  })
  rescues.old = await rescue(d.fault, { started: -26, ended: -25 })
  rescues.child = await rescue(d.childFault, { started: -4, ended: -3 })
  rescues.nowhere = await rescue(d.nowhere, { started: -1 })
  rescues.theirs = await rescue(d.theirs, { started: -1 })
})

/** The device layer as a member sees it (code 0 expected), its points sorted by id. */
async function layer(token: string, query: Record<string, string> = {}) {
  const r = await env.t.api(dashboardApi.deviceLocation, { token, query })
  expect(r.code, r.msg).toBe(0)
  const data = deviceLocationSchema.parse(r.data)
  for (const k of ['0', '1', '2', '3', '4'] as const) data[k].sort((a, b) => a[0] - b[0])
  return data
}

/** The ids per status key. */
const ids = (data: DeviceLocations) =>
  Object.fromEntries((['0', '1', '2', '3', '4'] as const).map((k) => [k, data[k].map((p) => p[0])]))
const sorted = (...made: Made[]) => made.map((m) => m.id).sort((a, b) => a - b)

describe('device layer', () => {
  it('answers the scope’s registered devices per shown status as [id, lon, lat], 5 decimals', async () => {
    const data = await layer(env.reader)
    expect(ids(data)).toEqual({
      // An installation hiding abnormal states is drawn as normal.
      '0': sorted(d.normal, d.hidden),
      '1': [d.warning.id],
      '2': sorted(d.fault, d.childFault),
      '3': [d.offset.id],
      '4': [d.childOffline.id],
    })
    expect(data.unplaced).toBe(1)
    expect(data['1'][0]).toEqual([d.warning.id, 120.98765, 30.12346])
    expect(data['3'][0]).toEqual([d.offset.id, 118.77, 32.05])
    const text = JSON.stringify(data)
    for (const m of [removed, stock, d.theirs, d.theirsOffline, d.nowhere]) {
      expect(text).not.toContain(`[${m.id},`)
    }
  })

  it('shows a leaf organisation only its own devices, and another branch only its own', async () => {
    expect(ids(await layer(env.childAdmin))).toEqual({
      '0': [],
      '1': [],
      '2': [d.childFault.id],
      '3': [],
      '4': [d.childOffline.id],
    })
    const theirs = await layer(env.siblingAdmin)
    expect(ids(theirs)).toEqual({ '0': [], '1': [], '2': [d.theirs.id], '3': [], '4': [d.theirsOffline.id] })
    expect(theirs.unplaced).toBe(0)
  })

  it('filters by status_list: a JSON array, a comma list, or [] for none', async () => {
    const none = await layer(env.admin, { status_list: '[]' })
    expect(none).toEqual({ '0': [], '1': [], '2': [], '3': [], '4': [], unplaced: 0 })
    const faults = await layer(env.admin, { status_list: '[2]' })
    expect(ids(faults)).toEqual({ '0': [], '1': [], '2': sorted(d.fault, d.childFault), '3': [], '4': [] })
    // The installation at 0,0 is a fault: counted unplaced when faults are asked for, not otherwise.
    expect(faults.unplaced).toBe(1)
    const two = await layer(env.admin, { status_list: '2,3' })
    expect(ids(two)).toMatchObject({ '0': [], '2': sorted(d.fault, d.childFault), '3': [d.offset.id] })
    expect(two.unplaced).toBe(1)
    // The shown status: the hidden offline device is normal, not offline.
    expect(ids(await layer(env.admin, { status_list: '[4]' }))['4']).toEqual([d.childOffline.id])
    expect(ids(await layer(env.admin, { status_list: '[0]' }))['0']).toEqual(sorted(d.normal, d.hidden))
    const all = await layer(env.admin, { status_list: '[0,1,2,3,4]' })
    expect(all).toEqual(await layer(env.admin))
    expect((await layer(env.admin, { status_list: '[1,3]' })).unplaced).toBe(0)
  })

  it('answers bad filters with the validation envelope', async () => {
    for (const status_list of ['[9]', 'x', '[1,', '2,,3', '[-1]', '[1.5]', '{"a":1}']) {
      const r = await env.t.api(dashboardApi.deviceLocation, { token: env.admin, query: { status_list } })
      expect(r.status, status_list).toBe(200)
      expect(r.code, status_list).toBe(Code.INVALID)
      expect(r.data).toBeNull()
    }
    const region = await env.t.api(dashboardApi.deviceLocation, {
      token: env.admin,
      query: { address_code: '33a' },
    })
    expect(region.code).toBe(Code.INVALID)
  })

  it('filters by region: the devices installed in it and below it', async () => {
    expect(ids(await layer(env.admin, { address_code: '33' }))).toEqual({
      '0': sorted(d.normal, d.hidden),
      '1': [d.warning.id],
      '2': [d.fault.id],
      '3': [],
      '4': [],
    })
    expect(ids(await layer(env.admin, { address_code: '330108' }))['2']).toEqual([d.fault.id])
    const beijing = await layer(env.admin, { address_code: '110000', status_list: '[4]' })
    expect(ids(beijing)).toEqual({ '0': [], '1': [], '2': [], '3': [], '4': [d.childOffline.id] })
    expect(await layer(env.admin, { address_code: '440000' })).toEqual({
      '0': [],
      '1': [],
      '2': [],
      '3': [],
      '4': [],
      unplaced: 0,
    })
  })

  it('needs the device area', async () => {
    expect((await env.t.api(dashboardApi.deviceLocation, { token: env.outsider })).code).toBe(Code.FORBIDDEN)
  })
})

describe('compression', () => {
  it('gzips a large JSON answer when the client accepts it, and sends it plain when not', async () => {
    // 300 registered devices in an organisation of their own, loaded as the bench loads them.
    const bulk = await env.f.agency(await env.f.root())
    await env.t.db.execute(sql`
      INSERT INTO devices (device_sn, model, agency_id, secret_enc, status)
      SELECT 'M64' || lpad(g::text, 7, '0'), 'D100', ${bulk.id}, 'x', g % 5 FROM generate_series(1, 300) g`)
    await env.t.db.execute(sql`
      INSERT INTO installations (register_code, device_id, agency_id, location, address_code, lat, lon, open_state,
        chest_shot_img, long_shot_img, battery_expire, electrode_sheet_expire, host_expire)
      SELECT 'RM' || d.id, d.id, d.agency_id, '压测路', '330106', 30 + d.id % 1000 / 1000.0, 120 + d.id % 997 / 1000.0,
             2, '/n.png', '/f.png', '2030-01-01', '2030-01-01', '2030-01-01'
      FROM devices d WHERE d.agency_id = ${bulk.id}`)
    await env.t.db.execute(sql`UPDATE devices d SET installation_id = i.id FROM installations i
                           WHERE i.device_id = d.id AND d.agency_id = ${bulk.id}`)
    const url = `${dashboardApi.deviceLocation.path}?address_code=`
    const headers = { authorization: `JWT ${env.system}` }
    const plain = await env.t.app.inject({ method: 'GET', url, headers })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers['content-type']).toMatch(/^application\/json/)
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    const zipped = await env.t.app.inject({
      method: 'GET',
      url,
      headers: { ...headers, 'accept-encoding': 'gzip' },
    })
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zipped.headers['content-type']).toMatch(/^application\/json/)
    const text = zlib.gunzipSync(zipped.rawPayload).toString('utf8')
    expect(JSON.parse(text)).toEqual(JSON.parse(plain.body))
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length)
    const br = await env.t.app.inject({
      method: 'GET',
      url,
      headers: { ...headers, 'accept-encoding': 'br' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(
      JSON.parse(plain.body),
    )
  })

  it('leaves a small answer plain', async () => {
    const r = await env.t.app.inject({
      method: 'GET',
      url: dashboardApi.deviceLocation.path,
      query: { status_list: '[]' },
      headers: { authorization: `JWT ${env.admin}`, 'accept-encoding': 'gzip' },
    })
    expect(r.headers['content-encoding']).toBeUndefined()
    expect(r.json()).toMatchObject({ code: 0, data: { unplaced: 0 } })
  })
})

describe('device popup', () => {
  it('answers one registered device of the scope, labelled in the reader’s language', async () => {
    await env.t.db.execute(
      sql`INSERT INTO device_states (device_id, last_seen_at) VALUES (${d.warning.id}, '2026-11-22T02:03:04Z')`,
    )
    const r = await env.t.api(dashboardApi.devicePopup, {
      token: env.reader,
      params: { id: d.warning.id },
    })
    expect(r.code, r.msg).toBe(0)
    expect(devicePopupSchema.parse(r.data)).toEqual({
      id: d.warning.id,
      device_sn: d.warning.device_sn,
      device_model: 'D100',
      agency_name: env.branch.name,
      location: '浙江省杭州市西湖区文三路100号 一楼大厅',
      status: 1,
      status_text: '预警',
      readiness: 'unknown',
      readiness_text: expect.any(String),
      reasons: [expect.any(String)],
      last_report_time: '2026-11-22 10:03:04',
      lon: 120.987654321,
      lat: 30.123456789,
    })
    const en = await env.t.api(dashboardApi.devicePopup, {
      token: env.reader,
      params: { id: d.warning.id },
      lang: 'en-US',
    })
    expect(en.data.status_text).toBe('Warning')
    expect(en.data.reasons[0]).toMatch(/[a-z]/i)
  })

  it('shows a hidden site as normal, and a site at 0,0 without a point', async () => {
    const hidden = await env.t.api(dashboardApi.devicePopup, {
      token: env.admin,
      params: { id: d.hidden.id },
    })
    expect(hidden.data).toMatchObject({ status: 0, status_text: '正常', last_report_time: null })
    const nowhere = await env.t.api(dashboardApi.devicePopup, {
      token: env.admin,
      params: { id: d.nowhere.id },
    })
    expect(nowhere.data).toMatchObject({ lat: null, lon: null })
  })

  it('is not found outside the scope, uninstalled or unregistered', async () => {
    const of = async (token: string, id: number) =>
      (await env.t.api(dashboardApi.devicePopup, { token, params: { id } })).code
    expect(await of(env.admin, d.theirs.id)).toBe(Code.NOT_FOUND)
    expect(await of(env.childAdmin, d.normal.id)).toBe(Code.NOT_FOUND)
    expect(await of(env.admin, removed.id)).toBe(Code.NOT_FOUND)
    expect(await of(env.admin, stock.id)).toBe(Code.NOT_FOUND)
    expect(await of(env.admin, 999_999_999)).toBe(Code.NOT_FOUND)
    expect(await of(env.childAdmin, d.childFault.id)).toBe(0)
    expect(await of(env.outsider, d.normal.id)).toBe(Code.FORBIDDEN)
  })
})

describe('rescue layer', () => {
  const layerOf = async (token: string, query: Record<string, string> = {}) => {
    const r = await env.t.api(dashboardApi.rescueLocation, { token, query })
    expect(r.code, r.msg).toBe(0)
    return rescueLocationsSchema.parse(r.data)
  }

  it('answers rescues of the scope in progress or ended within 24 hours, newest first, with a place', async () => {
    clock.set(NOW)
    const data = await layerOf(env.reader)
    expect(data.resource.map((r) => r.id)).toEqual([rescues.open, rescues.ownPlace, rescues.child])
    expect(data.count).toBe(3)
    expect(data.resource[0]).toEqual({
      id: rescues.open,
      device_id: d.normal.id,
      device_sn: d.normal.device_sn,
      location: '浙江省杭州市西湖区文三路100号',
      lon: 120.1307,
      lat: 30.2741,
      event_time: '2026-11-22 08:00:00',
      end_time: null,
      in_progress: 1,
    })
    // Where the device said it was used, before its installation.
    expect(data.resource[1]).toMatchObject({
      lon: 120.1,
      lat: 30.3,
      location: '文一路',
      end_time: '2026-11-22 09:00:00',
      in_progress: 0,
    })
  })

  it('shows a leaf only its own rescues, and filters by region', async () => {
    expect((await layerOf(env.childAdmin)).resource.map((r) => r.id)).toEqual([rescues.child])
    expect((await layerOf(env.siblingAdmin)).resource.map((r) => r.id)).toEqual([rescues.theirs])
    expect((await layerOf(env.admin, { address_code: '110000' })).resource.map((r) => r.id)).toEqual([
      rescues.child,
    ])
    expect(await layerOf(env.admin, { address_code: '330108' })).toEqual({ count: 0, resource: [] })
  })

  it('drops a rescue 24 hours after it ended; one in progress stays', async () => {
    clock.set(NOW.getTime() + 21.5 * HOUR)
    expect((await layerOf(env.admin)).resource.map((r) => r.id)).toEqual([rescues.open, rescues.ownPlace])
    clock.set(NOW.getTime() + 23.5 * HOUR)
    expect((await layerOf(env.admin)).resource.map((r) => r.id)).toEqual([rescues.open])
    clock.set(NOW.getTime() + 30 * 24 * HOUR)
    expect((await layerOf(env.admin)).resource.map((r) => r.id)).toEqual([rescues.open])
    clock.set(NOW)
  })
})

describe('event focus', () => {
  const focus = (token: string, event_type: number, event_id: number, lang?: 'en-US') =>
    env.t.api(dashboardApi.eventFocus, { token, query: { event_type, event_id }, lang })

  it('opens a rescue at its place, with its message', async () => {
    const before = await focus(env.reader, 2, rescues.ownPlace)
    expect(before.code, before.msg).toBe(0)
    expect(eventFocusSchema.parse(before.data)).toMatchObject({
      event_type: 2,
      event_id: rescues.ownPlace,
      title: `急救事件：设备 ${d.warning.device_sn} 开始使用`,
      event_time: '2026-11-22 07:00:00',
      end_time: '2026-11-22 09:00:00',
      device_id: d.warning.id,
      device_sn: d.warning.device_sn,
      cabinet_sn: null,
      agency_name: env.branch.name,
      location: '文一路',
      lon: 120.1,
      lat: 30.3,
      message: null,
    })
    const msg = await messageFor(2, rescues.ownPlace, d.warning, env.branch)
    const after = await focus(env.reader, 2, rescues.ownPlace, 'en-US')
    expect(after.data.title).toBe(`First aid: device ${d.warning.device_sn} is in use`)
    expect(after.data.message).toMatchObject({
      id: msg,
      msg_type: 2,
      event_type: 2,
      event_id: rescues.ownPlace,
    })
    // At the installation when the device sent no place.
    expect((await focus(env.admin, 2, rescues.open)).data).toMatchObject({ lon: 120.1307, lat: 30.2741 })
  })

  it('opens a location offset where the device was found, with its message', async () => {
    const e = await one<{ id: number }>(
      env.t.db,
      sql`INSERT INTO device_events (device_id, installation_id, agency_id, index_link, kind, event_time,
            install_location, offset_location, offset_lat, offset_lon, offset_distance)
          SELECT i.device_id, i.id, i.agency_id, g.index_link, 'offset', ${NOW.toISOString()}::timestamptz,
                 i.location, '江苏省南京市玄武区', 32.06, 118.79, 1500
          FROM installations i JOIN agencies g ON g.id = i.agency_id
          WHERE i.device_id = ${d.offset.id} AND i.removed_at IS NULL RETURNING id`,
    )
    const msg = await messageFor(3, e!.id, d.offset, env.branch)
    const r = await focus(env.admin, 3, e!.id)
    expect(r.code, r.msg).toBe(0)
    expect(eventFocusSchema.parse(r.data)).toMatchObject({
      event_type: 3,
      event_id: e!.id,
      title: `位置偏移：设备 ${d.offset.device_sn} 偏离安装位置 1.5 公里`,
      end_time: null,
      device_sn: d.offset.device_sn,
      location: '江苏省南京市玄武区',
      lon: 118.79,
      lat: 32.06,
      message: { id: msg, msg_type: 3 },
    })
    // Another kind of device event is not an offset.
    const w = await one<{ id: number }>(
      env.t.db,
      sql`INSERT INTO device_events (device_id, agency_id, index_link, kind, code, event_time)
          VALUES (${d.offset.id}, ${env.branch.id}, ${env.branch.index_link}, 'warning', 'battery_low', now()) RETURNING id`,
    )
    expect((await focus(env.admin, 3, w!.id)).code).toBe(Code.NOT_FOUND)
    expect((await focus(env.siblingAdmin, 3, e!.id)).code).toBe(Code.NOT_FOUND)
  })

  it('opens a cabinet door at the cabinet, else at its AED’s site', async () => {
    const cabinet = async (sn: string, agency: AgencyRow, device: Made | null, at: [number, number] | null) =>
      (await one<{ id: number }>(
        env.t.db,
        sql`INSERT INTO cabinets (cabinet_sn, agency_id, secret_enc, device_id, lat, lon, location)
            VALUES (${sn}, ${agency.id}, 'x', ${device?.id ?? null}, ${at?.[0] ?? null}::float8,
                    ${at?.[1] ?? null}::float8, ${at ? '西湖文化广场' : null}) RETURNING id`,
      ))!.id
    const door = async (cabinetId: number, agency: AgencyRow, device: Made | null) =>
      (await one<{ id: number }>(
        env.t.db,
        sql`INSERT INTO cabinet_door_events (cabinet_id, agency_id, index_link, device_id, opened_at)
            VALUES (${cabinetId}, ${agency.id}, ${agency.index_link}, ${device?.id ?? null},
                    ${NOW.toISOString()}::timestamptz) RETURNING id`,
      ))!.id
    const placed = await door(
      await cabinet('MAPCAB0001', env.branch, d.normal, [30.28, 120.16]),
      env.branch,
      d.normal,
    )
    const r = await focus(env.admin, 4, placed)
    expect(r.code, r.msg).toBe(0)
    expect(eventFocusSchema.parse(r.data)).toMatchObject({
      event_type: 4,
      title: '救护箱开门：MAPCAB0001',
      cabinet_sn: 'MAPCAB0001',
      device_sn: d.normal.device_sn,
      location: '西湖文化广场',
      lat: 30.28,
      lon: 120.16,
      message: null,
    })
    const unplaced = await door(await cabinet('MAPCAB0002', env.branch, d.hidden, null), env.branch, d.hidden)
    expect((await focus(env.admin, 4, unplaced)).data).toMatchObject({ lat: 30.25, lon: 120.2 })
    const bare = await door(await cabinet('MAPCAB0003', env.branch, null, null), env.branch, null)
    expect((await focus(env.admin, 4, bare)).data).toMatchObject({ device_sn: null, lat: null, lon: null })
    expect((await focus(env.childAdmin, 4, placed)).code).toBe(Code.NOT_FOUND)
  })

  it('answers another branch’s or a missing event as not found (calls: modules/call/call.test.ts)', async () => {
    expect((await focus(env.admin, 1, 999_999_999)).code).toBe(Code.NOT_FOUND)
    expect((await focus(env.siblingAdmin, 2, rescues.open)).code).toBe(Code.NOT_FOUND)
    expect((await focus(env.childAdmin, 2, rescues.open)).code).toBe(Code.NOT_FOUND)
    expect((await focus(env.admin, 2, rescues.theirs)).code).toBe(Code.NOT_FOUND)
    expect((await focus(env.admin, 2, 999_999_999)).code).toBe(Code.NOT_FOUND)
    expect((await focus(env.childAdmin, 2, rescues.child)).code).toBe(0)
    expect((await focus(env.outsider, 2, rescues.open)).code).toBe(Code.FORBIDDEN)
  })

  it('answers bad input with the validation envelope', async () => {
    for (const query of [
      { event_type: 5, event_id: 1 },
      { event_type: 2, event_id: 0 },
      { event_type: 'x' },
      {},
    ]) {
      const r = await env.t.api(dashboardApi.eventFocus, { token: env.admin, query: query as never })
      expect(r.code, JSON.stringify(query)).toBe(Code.INVALID)
    }
  })
})
