import { Code } from '@aed/contracts'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { rescueApi } from '@aed/contracts/rescue'
import { desc, sql } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { operationLogs } from '../../db/schema.ts'
import { one } from '../../db/sql.ts'
import { createJobRunner } from '../../jobs/runner.ts'
import { TestClock } from '../../lib/clock.ts'
import { signDeviceRequest } from '../../plugins/auth/device.ts'
import { cabinetLink, deviceLink, deviceTestFile } from '../../test/device-link.ts'
import { cabinetEngineJobs } from '../cabinet/cabinet-engine.jobs.ts'
import { AED_RETURN_MS } from '../engine/engine.rules.ts'

// The emergency page's rescue tab: the list of the member's subtree with its filters, the call a
// rescue answered and the AED's way back to its cabinet; the ECG as a private file behind a
// five-minute signed link; the device detail opened from a row. On a clock the test moves.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ f, agent, branch }) => {
  // Another branch under the same general agent: its rescues are not the branch admin's.
  const sibling = await f.agency(agent)
  const siblingAdmin = (await f.signedIn(sibling)).token
  // The general agent's administrator sees both branches.
  const agentAdmin = (await f.signedIn(agent)).token
  // A member of the branch without the emergency area.
  const noArea = (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token
  return { sibling, siblingAdmin, agentAdmin, noArea }
})

type Link = Awaited<ReturnType<typeof deviceLink>>

/** A device registered in the sibling branch, ready to send. */
const siblingDevice = async () =>
  deviceLink(env.t, (await env.f.registeredDevice(env.siblingAdmin, env.sibling)).device_sn)

/** A rescue of the device starting now (its first usage step); answers its row id. */
async function rescue(d: Link, id: string) {
  const time = clock.now().getTime()
  await d.send(d.msg('usage', { rescue_event_id: id, event_time: time, event_desc: 'power_on' }))
  const row = await one<{ id: number }>(
    env.t.db,
    sql`SELECT id FROM rescue_events WHERE device_id = ${d.id} AND rescue_event_id = ${id}`,
  )
  return row!.id
}

/** Uploads an ECG of the device's rescue as the device does (POST /device-api/v1/files). */
async function uploadEcg(d: Link, rescueEventId: string, bytes: Buffer) {
  const path = `/device-api/v1/files?kind=ecg&rescue_event_id=${encodeURIComponent(rescueEventId)}`
  const ts = clock.now().getTime()
  const headers = signDeviceRequest(d.sn, d.secret, { method: 'POST', path, body: bytes, ts })
  const res = await env.t.app.inject({
    method: 'POST',
    url: path,
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    payload: bytes,
  })
  expect(res.json()).toMatchObject({ code: 0 })
}

const list = (token: string, query: Record<string, string | number> = {}) =>
  env.t.api(rescueApi.list, { token, query: { page_size: 100, ...query } })
const idsOf = async (token: string, query: Record<string, string | number> = {}) =>
  (await list(token, query)).data.resource.map((r) => r.id)
const rowOf = async (token: string, id: number) => (await list(token)).data.resource.find((r) => r.id === id)
const download = (token: string, query: { device_sn?: string; rescue_event_id: string }) =>
  env.t.api(rescueApi.fileDownload, { token, query })
const get = (url: string) => env.t.app.inject({ method: 'GET', url })

describe('the rescue list', () => {
  it('lists the subtree’s rescues newest first, with device, place, organisation and Beijing times', async () => {
    const a = await env.registered()
    const first = await rescue(a, 'L-1')
    clock.advance(60_000)
    const second = await rescue(await env.registered(), 'L-2')
    const theirs = await rescue(await siblingDevice(), 'L-3')

    const r = await list(env.admin)
    expect(r.code).toBe(0)
    const ids = r.data.resource.map((x) => x.id)
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first))
    expect(ids).not.toContain(theirs)
    expect(r.data.count).toBe(ids.length)
    expect(r.data.resource.find((x) => x.id === first)).toEqual({
      id: first,
      rescue_event_id: 'L-1',
      event_location: '浙江省杭州市西湖区文三路100号',
      event_time: '2026-11-22 10:00:00',
      ended_at: null,
      device_id: a.id,
      device_sn: a.sn,
      model: 'D100',
      location: '浙江省杭州市西湖区文三路100号',
      name: '一楼大厅',
      agency_id: env.branch.id,
      agency_name: env.branch.name,
      event_lat: 30.2741,
      event_lon: 120.1307,
      has_ecg: false,
      ecg_file_url: null,
      call: null,
      return_state: null,
    })
    // The general agent's administrator sees both branches.
    expect(await idsOf(env.agentAdmin)).toEqual(expect.arrayContaining([first, second, theirs]))
  })

  it('filters by any part of the serial, the installation’s region and the time, and pages', async () => {
    const inHz = await rescue(await env.registered(), 'F-1')
    const sz = await env.f.registeredDevice(env.admin, env.branch, { address_code: '440305' })
    clock.advance(3_600_000)
    const inSz = await rescue(await deviceLink(env.t, sz.device_sn), 'F-2')

    expect(await idsOf(env.admin, { device_sn: sz.device_sn.slice(-5) })).toEqual([inSz])
    expect(await idsOf(env.admin, { device_sn: sz.device_sn.toLowerCase() })).toEqual([inSz])
    // Guangdong, Shenzhen and Nanshan hold Nanshan's 440305; Zhejiang does not.
    for (const code of ['440000', '440300', '440305']) {
      expect(await idsOf(env.admin, { address_code: code })).toEqual([inSz])
    }
    expect(await idsOf(env.admin, { address_code: '330000' })).toContain(inHz)
    expect(await idsOf(env.admin, { address_code: '330000' })).not.toContain(inSz)
    const at = clock.now().toISOString()
    expect(await idsOf(env.admin, { start_time: at })).toEqual([inSz])
    const before = await idsOf(env.admin, { end_time: new Date(clock.now().getTime() - 1).toISOString() })
    expect(before).toContain(inHz)
    expect(before).not.toContain(inSz)

    const all = (await list(env.admin)).data
    const page2 = await list(env.admin, { page: 2, page_size: 1 })
    expect(page2.data).toEqual({ count: all.count, resource: [all.resource[1]] })
    // Pages past the middle are read from the oldest end: each is still its slice, newest first.
    expect(all.count).toBeGreaterThan(2)
    for (let page = 2; page <= all.count + 1; page++) {
      const p = await list(env.admin, { page, page_size: 2 })
      expect(p.data).toEqual({ count: all.count, resource: all.resource.slice(page * 2 - 2, page * 2) })
    }
    const backwards = await list(env.admin, { start_time: at, end_time: '2020-01-01T00:00:00Z' })
    expect(backwards.code).toBe(Code.INVALID)
  })

  it('shows the call a rescue answered, when that call is the member’s to see', async () => {
    const call = (agency: { id: number; index_link: string }, rescueId: number) =>
      one<{ id: number }>(
        env.t.db,
        sql`INSERT INTO call_events (agency_id, index_link, source, phone, lat, lon, location, call_time, rescue_id)
            VALUES (${agency.id}, ${agency.index_link}, 'console', '13700000000', 30.27, 120.13, '文三路口',
                    ${new Date(clock.now().getTime() - 120_000).toISOString()}::timestamptz, ${rescueId})
            RETURNING id`,
      )
    clock.set('2026-11-22T03:00:00.000Z')
    const id = await rescue(await env.registered(), 'C-1')
    const mine = await call(env.branch, id)
    expect((await rowOf(env.admin, id))?.call).toEqual({
      id: mine!.id,
      call_time: '2026-11-22 10:58:00',
      location: '文三路口',
    })
    // A call of the other branch that this branch's device answered stays that branch's.
    const id2 = await rescue(await env.registered(), 'C-2')
    await call(env.sibling, id2)
    expect((await rowOf(env.admin, id2))?.call).toBeNull()
  })

  it('tells the AED’s way back to its cabinet: out, not returned past its time, returned', async () => {
    const d = await env.registered()
    const c = await cabinetLink(env.t, env.branch.id, { deviceId: d.id })
    await c.send(c.msg('door', { door_status: 1 }))
    await c.send(c.msg('cabinet_status', { door_status: 1, aed_present: false }))
    const id = await rescue(d, 'D-1')
    expect((await rowOf(env.admin, id))?.return_state).toBe('out')
    await c.send(c.msg('door', { door_status: 0 }))
    clock.advance(AED_RETURN_MS + 60_000)
    await createJobRunner(env.t.ctx, cabinetEngineJobs, { log: pino({ level: 'silent' }) }).tick()
    expect((await rowOf(env.admin, id))?.return_state).toBe('not_returned')
    await c.send(c.msg('cabinet_status', { door_status: 0, aed_present: true }))
    expect((await rowOf(env.admin, id))?.return_state).toBe('returned')
  })

  it('needs the emergency area, for the list and the download', async () => {
    expect((await list(env.noArea)).code).toBe(Code.FORBIDDEN)
    expect((await download(env.noArea, { rescue_event_id: 'L-1' })).code).toBe(Code.FORBIDDEN)
  })
})

describe('the ECG, a private file', () => {
  it('is stored where no public URL serves it, and reached by a five-minute signed link', async () => {
    const d = await env.registered()
    const id = await rescue(d, 'E-1')
    const bytes = Buffer.from('ECG-SAMPLES'.repeat(500))
    await uploadEcg(d, 'E-1', bytes)

    const row = await rowOf(env.admin, id)
    expect(row).toMatchObject({ has_ecg: true, ecg_file_url: expect.stringMatching(/^device-files\//) })
    // What the device upload recorded as the file's URL answers nothing, in any spelling.
    const stored = await one<{ ecg_file_url: string }>(
      env.t.db,
      sql`SELECT ecg_file_url FROM rescue_events WHERE id = ${id}`,
    )
    expect(stored!.ecg_file_url).toMatch(/^\/files\/device-files\//)
    for (const url of [stored!.ecg_file_url, stored!.ecg_file_url.replace('device-files', 'DEVICE-FILES')]) {
      const old = await get(url)
      expect(old.statusCode).toBe(404)
      expect(old.body).not.toContain('ECG-SAMPLES')
    }

    const r = await download(env.admin, { device_sn: d.sn, rescue_event_id: 'E-1' })
    expect(r.code).toBe(0)
    expect(r.data.file_name).toBe(`ECG_${d.sn}_E-1.bin`)
    expect(r.data.url).toMatch(/^\/private-files\/device-files\/.+\?expires=\d+&download=.+&signature=/)
    expect(Date.parse(r.data.expires_at) - clock.now().getTime()).toBeGreaterThan(4 * 60_000)
    expect(Date.parse(r.data.expires_at) - clock.now().getTime()).toBeLessThanOrEqual(5 * 60_000)
    const file = await get(r.data.url)
    expect(file.statusCode).toBe(200)
    expect(file.rawPayload.equals(bytes)).toBe(true)
    expect(file.headers).toMatchObject({
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-disposition': `attachment; filename*=UTF-8''ECG_${d.sn}_E-1.bin`,
    })
    // The serial is optional: the rescue's own id finds it in the scope.
    expect((await download(env.admin, { rescue_event_id: 'E-1' })).data.file_name).toBe(`ECG_${d.sn}_E-1.bin`)

    // Who took a link to which ECG is in the operation log.
    const [log] = await env.t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log).toMatchObject({ operation_type: '下载心电图', content: `下载心电图：ECG_${d.sn}_E-1.bin` })

    // Tampered links, and the link once expired, open nothing and say nothing.
    const u = new URL(r.data.url, 'http://x')
    const q = u.searchParams
    const tampered = [
      `${u.pathname.replace(/ecg-[0-9a-f]/, 'ecg-0')}?${q}`,
      `${u.pathname}?${new URLSearchParams({ ...Object.fromEntries(q), expires: String(Number(q.get('expires')) + 3600) })}`,
      `${u.pathname}?${new URLSearchParams({ ...Object.fromEntries(q), download: 'x.html' })}`,
      `${u.pathname}?${new URLSearchParams({ ...Object.fromEntries(q), signature: 'A'.repeat(43) })}`,
      `${u.pathname}?expires=${q.get('expires')}&download=${q.get('download')}`,
      u.pathname,
    ]
    for (const url of tampered) {
      const res = await get(url)
      expect([url, res.statusCode]).toEqual([url, 403])
      expect(res.json()).toEqual({ code: Code.FORBIDDEN, msg: '无权限操作！', data: null })
    }
    clock.advance(5 * 60_000)
    const late = await get(r.data.url)
    expect(late.statusCode).toBe(403)
    expect(late.body).not.toContain('ECG-SAMPLES')
  })

  it('answers 文件未上传！ for a rescue without one, and nothing for a rescue the member does not see', async () => {
    const d = await env.registered()
    await rescue(d, 'E-2')
    const none = await download(env.admin, { device_sn: d.sn, rescue_event_id: 'E-2' })
    expect([none.code, none.msg, none.data]).toEqual([Code.INVALID, '文件未上传！', null])

    const theirs = await siblingDevice()
    await rescue(theirs, 'E-3')
    await uploadEcg(theirs, 'E-3', Buffer.from('THEIR-ECG'))
    const other = await download(env.admin, { device_sn: theirs.sn, rescue_event_id: 'E-3' })
    expect([other.code, other.data]).toEqual([Code.NOT_FOUND, null])
    expect((await download(env.siblingAdmin, { device_sn: theirs.sn, rescue_event_id: 'E-3' })).code).toBe(0)
  })

  it('attaches an ECG that came before its rescue, once the rescue starts', async () => {
    const d = await env.registered()
    await uploadEcg(d, 'E-4', Buffer.from('EARLY'))
    // The `file` message names it when the rescue exists.
    const id = await rescue(d, 'E-4')
    const fileId = await one<{ file_id: string }>(
      env.t.db,
      sql`SELECT file_id FROM device_files WHERE sender_id = ${d.id} AND rescue_event_id = 'E-4'`,
    )
    await d.send(d.msg('file', { rescue_event_id: 'E-4', kind: 'ecg', file_id: fileId!.file_id }))
    expect((await rowOf(env.admin, id))?.has_ecg).toBe(true)
    const r = await download(env.admin, { device_sn: d.sn, rescue_event_id: 'E-4' })
    expect((await get(r.data.url)).body).toBe('EARLY')
  })
})

describe('the device detail opened from a rescue row', () => {
  it('answers the rescue’s usage log and the records of its span', async () => {
    const d = await env.registered()
    clock.advance(3_600_000)
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
    clock.advance(60_000)
    const id = await rescue(d, 'V-1')
    clock.advance(30_000)
    await d.send(
      d.msg('usage', {
        rescue_event_id: 'V-1',
        event_time: clock.now().getTime(),
        event_desc: 'pads_on_patient',
      }),
      d.msg('selftest', { report_type: 0, result: 'fail', fault_codes: ['E02'] }),
    )
    const row = (await rowOf(env.admin, id))!
    const query = { device_sn: row.device_sn, rescue_event_id: row.rescue_event_id }

    const base = await env.t.api(deviceDetailApi.single, {
      token: env.admin,
      query: { ...query, data_type: 'base' },
    })
    expect(base.data).toMatchObject({ device_sn: d.sn })
    const steps = await env.t.api(deviceDetailApi.single, {
      token: env.admin,
      query: { ...query, data_type: 'usage_log' },
    })
    expect(steps.data).toMatchObject({
      count: 2,
      resource: [
        { rescue_event_id: 'V-1', event_desc: 'pads_on_patient' },
        { rescue_event_id: 'V-1', event_desc: 'power_on' },
      ],
    })
    // Self-tests of the rescue's span only: the one before it started is left out.
    const detect = await env.t.api(deviceDetailApi.page, {
      token: env.admin,
      query: { ...query, data_type: 'detect' },
    })
    expect(detect.data.count).toBe(1)
    // Another branch's admin gets nothing of it.
    const theirs = await env.t.api(deviceDetailApi.single, {
      token: env.siblingAdmin,
      query: { ...query, data_type: 'usage_log' },
    })
    expect(theirs.data).toEqual({ count: 0, resource: [] })
  })
})
