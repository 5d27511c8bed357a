import { Code } from '@aed/contracts'
import { type DeviceForm, deviceApi } from '@aed/contracts/device'
import type { NearbyAed, OpenAed, OpenEvent } from '@aed/contracts/open-api'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock.ts'
import { deviceLink } from '../../test/device-link.ts'
import type { AgencyRow } from '../../test/factories.ts'
import { factories } from '../../test/factories.ts'
import { createTestApp, type TestApp } from '../../test/harness.ts'
import { queryOf, recordCounts, type TestIntegrator, testIntegrator } from '../../test/open-api.ts'
import { fromGcj02 } from '../engine/gcj02.ts'
import { toGcj02 } from '../engine/reducer.ts'
import { explainNearby } from './open-api.repository.ts'
import { chinaTime } from './open-api.service.ts'

// The open API's reads end to end: signed calls as an integrator makes them, AEDs registered
// through the console's API and made ready by their own messages through the gateway.

// Monday 2026-11-23, 10:00 in China.
const MONDAY_10 = Date.parse('2026-11-23T02:00:00.000Z')
const clock = new TestClock(MONDAY_10)
const HOUR = 3_600_000

let t: TestApp
let f: ReturnType<typeof factories>
let branch: AgencyRow
let sibling: AgencyRow
let admin: string
let siblingAdmin: string
let A: TestIntegrator
let B: TestIntegrator

// A quiet place far from the demo network: Wuhan.
const C = { lat: 30.5, lon: 114.3 }

beforeAll(async () => {
  // The request limit is the guard's test: here every read is let through.
  t = await createTestApp({ env: { OPEN_API_BURST: '1000000' } })
  t.ctx.clock = clock
  f = factories(t)
  const agent = await f.agency(await f.root())
  branch = await f.agency(agent)
  sibling = await f.agency(agent)
  admin = (await f.signedIn(branch)).token
  siblingAdmin = (await f.signedIn(sibling)).token
  A = await testIntegrator(t, branch.id)
  B = await testIntegrator(t, sibling.id)
})
afterAll(() => t.close())

/** The great-circle distance in metres on the mean sphere (haversine), written here on its own. */
function haversine(a: { lat: number; lon: number }, b: { lat: number; lon: number }) {
  const R = 6371008.8
  const r = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * r) / 2) ** 2 +
    Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lon - a.lon) * r) / 2) ** 2
  return 2 * R * Math.asin(Math.sqrt(h))
}

/** A point `north` and `east` metres from C (a local flat approximation; the answers are checked by haversine). */
const near = (north: number, east: number) => ({
  lat: C.lat + north / 111_195,
  lon: C.lon + east / (111_195 * Math.cos((C.lat * Math.PI) / 180)),
})

/** An AED registered in an organisation at a point and made ready by its own hello and passed self-test. */
async function readyAed(
  token: string,
  agency: AgencyRow,
  at: { lat: number; lon: number },
  over: Partial<DeviceForm> = {},
) {
  const d = await f.registeredDevice(token, agency, { ...at, ...over })
  const link = await deviceLink(t, d.device_sn)
  await link.send(
    link.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 86_400 }),
    link.msg('selftest', { report_type: 0, result: 'pass' }),
  )
  return { ...link, at, deviceId: d.id }
}

const nearby = (who: TestIntegrator, q: Record<string, string | number | undefined>) =>
  who.get<{ resource: NearbyAed[] }>(`/open-api/v1/aed/nearby${queryOf({ lat: C.lat, lon: C.lon, ...q })}`)

const sns = (r: { data: { resource: { sn: string }[] } }) => r.data.resource.map((x) => x.sn)

describe('GET /open-api/v1/aed/nearby', () => {
  let n100: Awaited<ReturnType<typeof readyAed>>
  let e300: Awaited<ReturnType<typeof readyAed>>
  let s700: Awaited<ReturnType<typeof readyAed>>
  let n1500: Awaited<ReturnType<typeof readyAed>>
  let theirs: Awaited<ReturnType<typeof readyAed>>
  beforeAll(async () => {
    // Registered out of order, so the answer's order is the search's.
    s700 = await readyAed(admin, branch, near(-700, 0))
    n1500 = await readyAed(admin, branch, near(1500, 0))
    n100 = await readyAed(admin, branch, near(100, 0))
    e300 = await readyAed(admin, branch, near(0, 300))
    // The sibling organisation's AED, nearer than all of them.
    theirs = await readyAed(siblingAdmin, sibling, near(10, 10))
  })

  it('answers the ready AEDs within the radius, nearest first, with their distances in whole metres', async () => {
    const r = await nearby(A, {})
    expect([r.status, r.code]).toEqual([200, 0])
    expect(sns(r)).toEqual([n100.sn, e300.sn, s700.sn])
    for (const [row, aed] of [
      [r.data.resource[0], n100],
      [r.data.resource[1], e300],
      [r.data.resource[2], s700],
    ] as const) {
      expect(Math.abs(row.distance - haversine(C, aed.at))).toBeLessThanOrEqual(1)
      expect(row).toMatchObject({ lat: aed.at.lat, lon: aed.at.lon, coord: 'gcj02', readiness: 'ready' })
    }
    expect(r.data.resource.map((x) => x.distance)).toEqual([100, 300, 700])
  })

  it('keeps to the radius and the limit', async () => {
    expect(sns(await nearby(A, { radius: 200 }))).toEqual([n100.sn])
    expect(sns(await nearby(A, { radius: 5000 }))).toEqual([n100.sn, e300.sn, s700.sn, n1500.sn])
    expect(sns(await nearby(A, { radius: 5000, limit: 2 }))).toEqual([n100.sn, e300.sn])
    expect(sns(await nearby(A, { radius: 99 }))).toEqual([])
    // 1500 m north is 1500 m away: at the boundary it is in.
    const d1500 = Math.round(haversine(C, n1500.at))
    expect(sns(await nearby(A, { radius: d1500 + 1 }))).toContain(n1500.sn)
    expect(sns(await nearby(A, { radius: d1500 - 2 }))).not.toContain(n1500.sn)
  })

  it('presents each AED whole: photos as absolute URLs, opening hours, readiness, battery, cabinet, organisation', async () => {
    const [row] = (await nearby(A, { radius: 200 })).data.resource
    expect(row).toMatchObject({
      sn: n100.sn,
      model: 'D100',
      status: 0,
      readiness_reasons: [],
      address: '浙江省杭州市西湖区文三路100号',
      location_desc: '一楼大厅',
      address_code: '330106',
      opening_hours: { open_state: 2, open_day: [], open_time_period: [] },
      cabinet: null,
      agency_id: branch.id,
      agency_name: branch.name,
    })
    expect(row.photos).toHaveLength(2)
    for (const p of row.photos) expect(p).toMatch(/^http:\/\/localhost(:\d+)?\/files\/(near|far)\.png$/)
    expect(row.last_verified_time).toBe(new Date(MONDAY_10).toISOString())
  })

  it('an AED that turns not ready leaves the answer at once, and comes back when ready', async () => {
    await n100.send(n100.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
    expect(sns(await nearby(A, {}))).toEqual([e300.sn, s700.sn])
    // Its detail still answers it, not ready and why.
    const detail = await A.get<OpenAed>(`/open-api/v1/aed/${n100.sn}`)
    expect(detail.data).toMatchObject({ readiness: 'not_ready', readiness_reasons: ['fault'], status: 2 })
    await n100.send(n100.msg('selftest', { report_type: 1, result: 'pass' }))
    expect(sns(await nearby(A, {}))).toEqual([n100.sn, e300.sn, s700.sn])
  })

  it('answers by the opening hours at the clock: always, on listed days within a period (past midnight too), never', async () => {
    const semi = await readyAed(admin, branch, near(0, -50), {
      open_state: 1,
      open_day: [1, 3],
      open_time_period: [['09:00', '11:00']],
    })
    const closed = await readyAed(admin, branch, near(0, -60), { open_state: 0 })
    const hidden = await readyAed(admin, branch, near(0, -70), { xcx_display: 0 })
    // Past midnight: the form refuses a start after its end, an imported register may hold one.
    const late = await readyAed(admin, branch, near(0, -80), {
      open_state: 1,
      open_day: [1],
      open_time_period: [['08:00', '09:00']],
    })
    await t.db.execute(
      sql`UPDATE installations SET open_time_period = '[["22:00","02:00"]]'::jsonb
          WHERE device_id = ${late.id} AND removed_at IS NULL`,
    )
    const at = async (ms: number) => {
      clock.set(ms)
      const found = sns(await nearby(A, { radius: 100 }))
      return [semi.sn, closed.sn, hidden.sn, late.sn].map((sn) => found.includes(sn))
    }
    try {
      // Monday 10:00, 09:00 and 11:00 (the ends count), 11:01, 08:59.
      expect(await at(MONDAY_10)).toEqual([true, false, false, false])
      expect(await at(MONDAY_10 - HOUR)).toEqual([true, false, false, false])
      expect(await at(MONDAY_10 + HOUR)).toEqual([true, false, false, false])
      expect(await at(MONDAY_10 + HOUR + 60_000)).toEqual([false, false, false, false])
      expect(await at(MONDAY_10 - HOUR - 60_000)).toEqual([false, false, false, false])
      // Tuesday 10:00: not a listed day; Wednesday 10:00: listed.
      expect(await at(MONDAY_10 + 24 * HOUR)).toEqual([false, false, false, false])
      expect(await at(MONDAY_10 + 48 * HOUR)).toEqual([true, false, false, false])
      // Monday 23:00 and 01:30 (China time) in the 22:00-02:00 period; 03:00 not.
      expect(await at(MONDAY_10 + 13 * HOUR)).toEqual([false, false, false, true])
      expect(await at(MONDAY_10 - 8.5 * HOUR)).toEqual([false, false, false, true])
      expect(await at(MONDAY_10 - 7 * HOUR)).toEqual([false, false, false, false])
      expect(chinaTime(new Date(MONDAY_10 - 8.5 * HOUR))).toEqual({ day: 1, hhmm: '01:30' })
    } finally {
      clock.set(MONDAY_10)
    }
  })

  it('takes and answers WGS-84 with coord=wgs84: the same AEDs, distances within a metre, points back in WGS-84', async () => {
    const q = fromGcj02(C.lat, C.lon)
    const back = toGcj02(q.lat, q.lon)
    expect(Math.abs(back.lat - C.lat)).toBeLessThan(1e-6)
    expect(Math.abs(back.lon - C.lon)).toBeLessThan(1e-6)
    const gcj = (await nearby(A, {})).data.resource
    const wgs = (
      await A.get<{ resource: NearbyAed[] }>(
        `/open-api/v1/aed/nearby${queryOf({ lat: q.lat, lon: q.lon, coord: 'wgs84' })}`,
      )
    ).data.resource
    expect(wgs.map((x) => x.sn)).toEqual(gcj.map((x) => x.sn))
    for (const [i, w] of wgs.entries()) {
      expect(w.coord).toBe('wgs84')
      expect(Math.abs(w.distance - gcj[i].distance)).toBeLessThanOrEqual(1)
      // The answer's point, taken to GCJ-02 again, is the stored one.
      const g = toGcj02(w.lat as number, w.lon as number)
      expect(Math.abs(g.lat - (gcj[i].lat as number))).toBeLessThan(1e-6)
      expect(Math.abs(g.lon - (gcj[i].lon as number))).toBeLessThan(1e-6)
      // And WGS-84 is a few hundred metres off GCJ-02 in China.
      expect(
        haversine(w as { lat: number; lon: number }, gcj[i] as { lat: number; lon: number }),
      ).toBeGreaterThan(100)
    }
    const one = await A.get<OpenAed>(`/open-api/v1/aed/${n100.sn}?coord=wgs84`)
    const listed = wgs.find((w) => w.sn === n100.sn)
    expect(one.data).toMatchObject({ coord: 'wgs84', lat: listed?.lat, lon: listed?.lon })
  })

  it("a sibling organisation never sees or reads the other's AEDs", async () => {
    expect(sns(await nearby(B, {}))).toEqual([theirs.sn])
    expect(sns(await nearby(A, { radius: 50 }))).not.toContain(theirs.sn)
    for (const [who, sn] of [
      [B, n100.sn],
      [A, theirs.sn],
      [A, 'A64NOSUCH99'],
    ] as const) {
      const r = await who.get(`/open-api/v1/aed/${sn}`)
      expect([r.status, r.code, r.msg, r.data]).toEqual([200, Code.NOT_FOUND, '设备不存在', null])
    }
    const en = await B.get(`/open-api/v1/aed/${n100.sn}`, { lang: 'en-US' })
    expect(en.msg).toBe('No such device')
    const status = await B.get<{ resource: OpenAed[] }>('/open-api/v1/aed/status?page_size=500')
    expect(status.data.resource.map((x) => x.sn)).toEqual([theirs.sn])
  })

  it("searches through the GiST index installations_earth_idx (its order is the benchmark's: a few rows here)", async () => {
    const plan = await explainNearby(
      t.db,
      { index_link: '/' },
      {
        ...C,
        radius: 1000,
        limit: 10,
        at: chinaTime(new Date(MONDAY_10)),
      },
    )
    expect(plan).toMatch(/Index Scan using installations_earth_idx on installations/)
  })
})

describe('fromGcj02', () => {
  it('inverts toGcj02 to within 1e-6° across China (a grid from 18°N to 53°N, 74°E to 134°E)', () => {
    let worst = 0
    for (let lat = 18; lat <= 53; lat += 2.5) {
      for (let lon = 74; lon <= 134; lon += 2.5) {
        const w = fromGcj02(lat, lon)
        const g = toGcj02(w.lat, w.lon)
        worst = Math.max(worst, Math.abs(g.lat - lat), Math.abs(g.lon - lon))
        // The datum's shift is a few hundred metres at most.
        expect(haversine(w, { lat, lon })).toBeLessThan(1000)
      }
    }
    expect(worst).toBeLessThan(1e-6)
  })
})

describe('GET /open-api/v1/aed/status and /open-api/v1/event/', () => {
  it('answers what changed at or after changed_since, oldest change first, paged, events open and closed', async () => {
    // After every row written so far (the register's own times are the database's).
    const T = Date.now() + HOUR
    clock.set(T)
    try {
      const x = await readyAed(admin, branch, near(3000, 3000))
      const y = await readyAed(admin, branch, near(3100, 3000))
      const since = new Date(clock.now().getTime() + 1000).toISOString()
      clock.advance(60_000)
      await y.send(y.msg('heartbeat', { battery: 80 }))
      clock.advance(60_000)
      await x.send(x.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))
      const page = (q: Record<string, string | number>) =>
        A.get<{ count: number; resource: OpenAed[] }>(`/open-api/v1/aed/status${queryOf(q)}`)
      const all = await page({ changed_since: since })
      expect(all.code).toBe(0)
      expect(all.data.count).toBe(2)
      expect(all.data.resource.map((r) => [r.sn, r.readiness, r.battery])).toEqual([
        [y.sn, 'ready', 80],
        [x.sn, 'not_ready', null],
      ])
      expect(all.data.resource[1].update_time).toBe(clock.now().toISOString())
      const second = await page({ changed_since: since, page: 2, page_size: 1 })
      expect([second.data.count, second.data.resource.map((r) => r.sn)]).toEqual([2, [x.sn]])
      // With an offset other than Z, the same instant.
      const cn = new Date(Date.parse(since) + 8 * HOUR).toISOString().replace('Z', '+08:00')
      expect((await page({ changed_since: cn })).data.count).toBe(2)
      expect(
        (await B.get<{ count: number }>(`/open-api/v1/aed/status${queryOf({ changed_since: since })}`)).data
          .count,
      ).toBe(0)

      const events = (who: TestIntegrator, lang?: 'en-US') =>
        who.get<{ count: number; resource: OpenEvent[] }>(
          `/open-api/v1/event/${queryOf({ changed_since: since })}`,
          { lang },
        )
      const opened = await events(A)
      expect(opened.data.resource).toEqual([
        expect.objectContaining({
          kind: 'fault',
          code: 'E02',
          description: '电池故障',
          sn: x.sn,
          agency_id: branch.id,
          state: 'open',
          open_time: clock.now().toISOString(),
          close_time: null,
          update_time: clock.now().toISOString(),
        }),
      ])
      clock.advance(60_000)
      await x.send(x.msg('selftest', { report_type: 1, result: 'pass' }))
      const closed = await events(A, 'en-US')
      expect(closed.data.resource).toEqual([
        expect.objectContaining({
          id: opened.data.resource[0].id,
          description: 'Battery fault',
          state: 'closed',
          close_time: clock.now().toISOString(),
          update_time: clock.now().toISOString(),
        }),
      ])
      expect((await events(B)).data).toEqual({ count: 0, resource: [] })
    } finally {
      clock.set(MONDAY_10)
    }
  })
})

describe('GET /open-api/v1/aed/status: AEDs that left the network', () => {
  it('lists an uninstalled or deleted AED with removed: true at its removal time, from before it only; a re-installed one live', async () => {
    const T = Date.now() + 3 * HOUR
    clock.set(T)
    try {
      const here = near(-3000, -3000)
      const kept = await readyAed(admin, branch, here)
      const gone = await readyAed(admin, branch, near(-3050, -3000))
      const back = await readyAed(admin, branch, near(-3100, -3000))
      const since = new Date(clock.now().getTime() + 1000).toISOString()
      const feed = (who: TestIntegrator, q: Record<string, string | number | undefined>) =>
        who.get<{ count: number; resource: OpenAed[] }>(`/open-api/v1/aed/status${queryOf(q)}`)
      const remove = async (id: number, device_list_type?: number) => {
        const r = await t.api(deviceApi.remove, {
          token: admin,
          params: { id },
          ...(device_list_type ? { query: { device_list_type } } : {}),
        })
        return { code: r.code, msg: r.msg }
      }

      clock.advance(60_000)
      expect((await remove(gone.deviceId)).code).toBe(0)
      const goneAt = clock.now().toISOString()
      clock.advance(60_000)
      expect((await remove(back.deviceId)).code).toBe(0)
      clock.advance(60_000)
      const again = await t.api(deviceApi.register, {
        token: admin,
        body: f.deviceForm(branch, back.sn, near(-3100, -3000)),
      })
      expect(again.code).toBe(0)
      await back.send(back.msg('heartbeat', { battery: 70 }))

      const before = await feed(A, { changed_since: since })
      expect(before.code).toBe(0)
      expect(before.data.resource.map((r) => [r.sn, r.removed])).toEqual([
        [gone.sn, true],
        [back.sn, false],
      ])
      expect(before.data.count).toBe(2)
      const left = before.data.resource[0]
      expect(left).toMatchObject({
        update_time: goneAt,
        agency_id: branch.id,
        address: '浙江省杭州市西湖区文三路100号',
      })
      expect([left.lat, left.lon]).toEqual([gone.at.lat, gone.at.lon])
      // Paged in the same order.
      const second = await feed(A, { changed_since: since, page: 2, page_size: 1 })
      expect([second.data.count, second.data.resource.map((r) => r.sn)]).toEqual([2, [back.sn]])
      // Asked from after the removal: not listed; without changed_since (a first sync): not listed.
      const after = await feed(A, { changed_since: new Date(Date.parse(goneAt) + 1).toISOString() })
      expect(after.data.resource.map((r) => r.sn)).toEqual([back.sn])
      const first = await feed(A, { page_size: 500 })
      expect(first.data.resource.map((r) => r.sn)).not.toContain(gone.sn)
      expect(first.data.resource.every((r) => r.removed === false)).toBe(true)
      expect(first.data.resource.map((r) => r.sn)).toEqual(expect.arrayContaining([kept.sn, back.sn]))
      // Another organisation never sees it; nearby and detail answer live AEDs only, removed: false.
      expect((await feed(B, { changed_since: since })).data).toEqual({ count: 0, resource: [] })
      const close = await nearby(A, { ...here, radius: 1000 })
      expect(sns(close)).not.toContain(gone.sn)
      expect(close.data.resource.every((r) => r.removed === false)).toBe(true)
      expect((await A.get(`/open-api/v1/aed/${gone.sn}`)).code).toBe(Code.NOT_FOUND)
      expect((await A.get<OpenAed>(`/open-api/v1/aed/${kept.sn}`)).data.removed).toBe(false)

      // Deleted from the factory list later: it left when it was deleted.
      clock.advance(60_000)
      expect((await remove(gone.deviceId, 2)).code).toBe(0)
      const deletedAt = clock.now().toISOString()
      const later = await feed(A, { changed_since: since })
      expect(later.data.resource.map((r) => [r.sn, r.removed, r.update_time])).toEqual([
        [back.sn, false, expect.any(String)],
        [gone.sn, true, deletedAt],
      ])
    } finally {
      clock.set(MONDAY_10)
    }
  })
})

describe('GET /open-api/v1/classroom/', () => {
  it("answers the items owned in the organisation's subtree, and needs the mini_program service", async () => {
    const mine = await f.classroom(admin, { title: '本机构课程' })
    const theirs = await f.classroom(siblingAdmin, { title: '兄弟机构课程' })
    const r = await A.get<{ count: number; resource: { id: number; title: string }[] }>(
      '/open-api/v1/classroom/',
    )
    expect(r.code).toBe(0)
    expect(r.data.resource.map((x) => x.id)).toContain(mine.id)
    expect(r.data.resource.map((x) => x.id)).not.toContain(theirs.id)
    const byCategory = await A.get<{ resource: { category: number }[] }>('/open-api/v1/classroom/?category=1')
    expect(byCategory.data.resource.every((x) => x.category === 1)).toBe(true)
    // One configuration per organisation: a child organisation's, without mini_program.
    const onlyApi = await testIntegrator(t, (await f.agency(branch)).id, ['open_api'])
    const denied = await onlyApi.get('/open-api/v1/classroom/')
    expect([denied.status, (denied.data as { error: string }).error]).toEqual([403, 'service_denied'])
  })
})

describe('bad input', () => {
  const counts = () => recordCounts(t)

  it.each([
    ['lat 91', `/open-api/v1/aed/nearby?lat=91&lon=114`, '纬度须为-90到90之间的数字'],
    ['lon text', `/open-api/v1/aed/nearby?lat=30&lon=east`, '经度须为-180到180之间的数字'],
    ['no lat', `/open-api/v1/aed/nearby?lon=114`, '纬度须为-90到90之间的数字'],
    ['radius 5001', `/open-api/v1/aed/nearby?lat=30&lon=114&radius=5001`, 'radius不能超过5000米'],
    ['radius 0', `/open-api/v1/aed/nearby?lat=30&lon=114&radius=0`, 'radius须为正整数（米）'],
    ['limit 51', `/open-api/v1/aed/nearby?lat=30&lon=114&limit=51`, 'limit不能超过50'],
    ['coord bd09', `/open-api/v1/aed/nearby?lat=30&lon=114&coord=bd09`, 'coord须为gcj02或wgs84'],
    [
      'changed_since malformed',
      '/open-api/v1/aed/status?changed_since=yesterday',
      'changed_since须为带时区的ISO时间',
    ],
    [
      'changed_since without offset',
      '/open-api/v1/event/?changed_since=2026-11-23T10:00:00',
      'changed_since须为带时区的ISO时间',
    ],
    ['page_size 501', '/open-api/v1/event/?page_size=501', 'page须为正整数，page_size为1到500'],
    ['NUL in sn', '/open-api/v1/aed/A64%00X', '参数不能包含空字符（\\u0000）：params.sn'],
    ['a slash-free bad sn', '/open-api/v1/aed/A64%20X', '设备序列号格式不正确'],
    ['coord of a detail', '/open-api/v1/aed/A64000001?coord=bd09', 'coord须为gcj02或wgs84'],
  ])('%s: HTTP 200, code 1 and its message, nothing written', async (_name, target, msg) => {
    const before = await counts()
    const r = await A.get(target)
    expect([r.status, r.code, r.msg]).toEqual([200, Code.INVALID, msg])
    expect(await counts()).toEqual(before)
  })
})

describe('GET /open-api/docs', () => {
  it('is an OpenAPI 3.1 document of the /open-api routes only, with the signed-request scheme, and /api/docs has none of them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/open-api/docs' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/open-api/v1/aed/nearby',
      '/open-api/v1/aed/status',
      '/open-api/v1/aed/{sn}',
      '/open-api/v1/call-event/',
      '/open-api/v1/call-event/{external_id}',
      '/open-api/v1/classroom/',
      '/open-api/v1/event/',
      '/open-api/v1/file/',
      '/open-api/v1/third-party-aed/',
      '/open-api/v1/volunteer/',
    ])
    expect(Object.values(doc.components.securitySchemes).map((s) => (s as { name: string }).name)).toEqual([
      'x-aed-key',
      'x-aed-timestamp',
      'x-aed-nonce',
      'x-aed-signature',
    ])
    const nearbyOp = doc.paths['/open-api/v1/aed/nearby'].get
    expect(nearbyOp.parameters.map((p: { name: string }) => p.name)).toEqual([
      'lat',
      'lon',
      'radius',
      'limit',
      'coord',
    ])
    expect(nearbyOp.parameters[2].schema).toMatchObject({ maximum: 5000, default: 1000 })
    expect(doc.paths['/open-api/v1/classroom/'].get['x-aed-service']).toBe('mini_program')
    // Every schema inline: a $ref of z.toJSONSchema's own $defs would point into nothing here.
    expect(res.body).not.toContain('$ref')
    const api = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(Object.keys(api.json().paths).filter((p) => p.startsWith('/open-api'))).toEqual([])
  })
})
