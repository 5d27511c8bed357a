import { Code } from '@aed/contracts'
import { deviceApi } from '@aed/contracts/device'
import { deviceStatsApi } from '@aed/contracts/device-stats'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { deviceInspections, devices, installations } from '../../db/schema.ts'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { formatDate } from '../../lib/time.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import type { AgencyRow } from '../../test/factories.ts'

// Devices built in an organisation branch of this file's own, each with a known status, battery
// and expiry dates, so every count below is exact; a sibling branch's devices sit in the same
// regions and must never be counted.
//
// The server's "today" is this clock: the real now when the file starts, standing still, so the
// expiry dates built here and the bands the server computes agree. (The database's own defaults,
// as an installation's register time, and current_date run on real time.)
const clock = new TestClock(Date.now())
const env = deviceTestFile(clock, async ({ f, agent, branch }) => {
  const sibling = await f.agency(agent, { address_code: '330106' })
  return {
    child: await f.agency(branch, { address_code: '110105' }),
    sibling,
    reader: (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
    outsider: (await f.signedIn(branch, { role_type: 2, permissions: { member: 'READ_ONLY' } })).token,
    siblingAdmin: (await f.signedIn(sibling)).token,
  }
})

const DAY = 86_400_000
const day = (offset: number) => formatDate(new Date(clock.now().getTime() + offset * DAY))
/** Days from today well inside each band: pads and battery (expiry_band), host (host_expiry_band). */
const EXPIRY = { 0: -30, 1: 45, 2: 135, 3: 300 } as const
const HOST = { 0: -30, 1: 90, 2: 270, 3: 500 } as const

type Spec = {
  agency: () => AgencyRow
  address_code: string
  status: number
  battery: number | null
  pads: keyof typeof EXPIRY
  cell: keyof typeof EXPIRY
  host: keyof typeof HOST
  hide?: boolean
}

/** The branch's devices (the child's are in the branch's scope too). */
const mine: Spec[] = [
  { agency: () => env.branch, address_code: '330106', status: 0, battery: 80, pads: 3, cell: 3, host: 3 },
  { agency: () => env.branch, address_code: '330106', status: 1, battery: 7, pads: 0, cell: 1, host: 1 },
  { agency: () => env.branch, address_code: '330106', status: 2, battery: 3, pads: 1, cell: 0, host: 0 },
  { agency: () => env.branch, address_code: '330108', status: 3, battery: null, pads: 2, cell: 2, host: 2 },
  { agency: () => env.branch, address_code: '330108', status: 4, battery: 50, pads: 3, cell: 3, host: 3 },
  // Hides its abnormal state: counts as normal.
  {
    agency: () => env.branch,
    address_code: '320106',
    status: 4,
    battery: 9,
    pads: 3,
    cell: 2,
    host: 3,
    hide: true,
  },
  { agency: () => env.child, address_code: '110105', status: 2, battery: 100, pads: 0, cell: 3, host: 2 },
  { agency: () => env.child, address_code: '110108', status: 0, battery: 5, pads: 3, cell: 3, host: 3 },
]
/** The sibling's devices, in the same regions. */
const theirs: Spec[] = [
  { agency: () => env.sibling, address_code: '330106', status: 2, battery: 1, pads: 0, cell: 0, host: 0 },
  { agency: () => env.sibling, address_code: '110105', status: 4, battery: 6, pads: 1, cell: 1, host: 1 },
]

async function build(token: string, s: Spec) {
  const d = await env.f.registeredDevice(token, s.agency(), { address_code: s.address_code })
  await env.t.db.update(devices).set({ status: s.status, battery: s.battery }).where(eq(devices.id, d.id))
  await env.t.db
    .update(installations)
    .set({
      electrode_sheet_expire: day(EXPIRY[s.pads]),
      battery_expire: day(EXPIRY[s.cell]),
      host_expire: day(HOST[s.host]),
      disable_abnormal_display: s.hide ? 1 : 0,
    })
    .where(eq(installations.device_id, d.id))
  return d
}

let first: Awaited<ReturnType<typeof build>>
let mineInstallation: number

beforeAll(async () => {
  const built = []
  for (const s of mine) built.push(await build(env.admin, s))
  const theirsBuilt = []
  for (const s of theirs) theirsBuilt.push(await build(env.siblingAdmin, s))
  first = built[0]
  // Neither an uninstalled device nor factory stock is counted.
  const gone = await env.f.registeredDevice(env.admin, env.branch, { address_code: '330106' })
  expect((await env.t.api(deviceApi.remove, { token: env.admin, params: { id: gone.id } })).code).toBe(0)
  await env.f.device(env.branch)
  const [row] = await env.t.db.select().from(installations).where(eq(installations.device_id, first.id))
  mineInstallation = row.id
  // Rescues: two at the first device's installation (330106), one at the child's (110105), one of the sibling's.
  const rescue = async (device: { id: number }, n: number) => {
    const [r] = await many<{ installation_id: number; agency_id: number; index_link: string }>(
      env.t.db,
      sql`SELECT i.id AS installation_id, i.agency_id, g.index_link FROM installations i
          JOIN agencies g ON g.id = i.agency_id WHERE i.device_id = ${device.id}`,
    )
    await env.t.db.execute(sql`INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id, event_time, ended_at)
      VALUES (${device.id}, ${r.installation_id}, ${r.agency_id}, ${r.index_link}, ${`R-${device.id}-${n}`}, now(), now())`)
  }
  await rescue(first, 1)
  await rescue(first, 2)
  await rescue(built[6], 1)
  await rescue(theirsBuilt[0], 1)
})

describe('state distribution', () => {
  it('counts the scope’s devices per shown status; a site hiding abnormal states counts as normal', async () => {
    const r = await env.t.api(deviceStatsApi.stateDistribution, { token: env.reader })
    expect(r.code).toBe(0)
    expect(r.data).toEqual({
      all_count: 8,
      rescue_event_count: 3,
      normal_count: 3,
      warn_event_count: 1,
      error_report_count: 2,
      offset_event_count: 1,
      disconnect_count: 1,
    })
  })

  it('counts the devices installed in the region and below it', async () => {
    const of = async (address_code: string) =>
      (await env.t.api(deviceStatsApi.stateDistribution, { token: env.admin, query: { address_code } })).data
    expect(await of('330000')).toMatchObject({ all_count: 5, normal_count: 1, disconnect_count: 1 })
    expect(await of('330100')).toMatchObject({ all_count: 5 })
    expect(await of('330106')).toMatchObject({
      all_count: 3,
      rescue_event_count: 2,
      warn_event_count: 1,
      error_report_count: 1,
    })
    expect(await of('110000')).toMatchObject({ all_count: 2, rescue_event_count: 1, normal_count: 1 })
    expect(await of('320106')).toMatchObject({ all_count: 1, normal_count: 1, disconnect_count: 0 })
    expect(await of('440000')).toMatchObject({ all_count: 0 })
  })

  it('shows another branch only its own devices', async () => {
    const r = await env.t.api(deviceStatsApi.stateDistribution, { token: env.siblingAdmin })
    expect(r.data).toMatchObject({
      all_count: 2,
      error_report_count: 1,
      disconnect_count: 1,
      normal_count: 0,
    })
  })

  it('needs the device area, and a region code', async () => {
    expect((await env.t.api(deviceStatsApi.stateDistribution, { token: env.outsider })).code).toBe(
      Code.FORBIDDEN,
    )
    const bad = await env.t.api(deviceStatsApi.stateDistribution, {
      token: env.admin,
      query: { address_code: '33a' },
    })
    expect(bad.code).toBe(Code.INVALID)
    const empty = await env.t.api(deviceStatsApi.stateDistribution, {
      token: env.admin,
      query: { address_code: '' },
    })
    expect(empty.data.all_count).toBe(8)
  })
})

describe('main state distribution', () => {
  it('counts per band of the data dictionary, labelled', async () => {
    const r = await env.t.api(deviceStatsApi.mainStateDistribution, { token: env.admin })
    expect(r.code).toBe(0)
    const counts = (k: keyof typeof r.data) => r.data[k].map((b) => [b.value, b.count])
    // Battery 80, 7, 3, (none), 50, 9, 100, 5: exhausted <= 5, low 5-9, normal above 9.
    expect(counts('battery')).toEqual([
      [0, 2],
      [1, 2],
      [2, 3],
    ])
    expect(counts('electrode_sheet_expire')).toEqual([
      [0, 2],
      [1, 1],
      [2, 1],
      [3, 4],
    ])
    expect(counts('battery_expire')).toEqual([
      [0, 1],
      [1, 1],
      [2, 2],
      [3, 4],
    ])
    expect(counts('host_expire')).toEqual([
      [0, 1],
      [1, 1],
      [2, 2],
      [3, 4],
    ])
    expect(r.data.battery.map((b) => b.label)).toEqual(['电量耗尽', '电量低', '电量正常'])
    expect(r.data.host_expire[3].label).toBe('1年以上')
  })

  it('in a region, and in English', async () => {
    const r = await env.t.api(deviceStatsApi.mainStateDistribution, {
      token: env.admin,
      query: { address_code: '330106' },
      lang: 'en-US',
    })
    expect(r.data.electrode_sheet_expire.map((b) => [b.label, b.count])).toEqual([
      ['Expired', 1],
      ['Under 3 months', 1],
      ['3-6 months', 0],
      ['Over 6 months', 1],
    ])
  })
})

describe('regional distribution', () => {
  const of = async (address_code?: string, token = env.admin) =>
    (
      await env.t.api(deviceStatsApi.regionalDistribution, {
        token,
        query: address_code ? { address_code } : {},
      })
    ).data

  it('answers provinces for the whole country, most devices first', async () => {
    expect(await of()).toEqual({
      address_code: null,
      name: '全国',
      items: [
        { address_code: '330000', name: '浙江省', device_count: 5 },
        { address_code: '110000', name: '北京市', device_count: 2 },
        { address_code: '320000', name: '江苏省', device_count: 1 },
      ],
    })
  })

  it('answers cities for a province and districts for a city', async () => {
    expect(await of('330000')).toMatchObject({
      name: '浙江省',
      items: [{ address_code: '330100', name: '杭州市', device_count: 5 }],
    })
    expect((await of('330100')).items).toEqual([
      { address_code: '330106', name: '西湖区', device_count: 3 },
      { address_code: '330108', name: '滨江区', device_count: 2 },
    ])
  })

  it('answers a municipality’s districts directly', async () => {
    const districts = [
      { address_code: '110105', name: '朝阳区', device_count: 1 },
      { address_code: '110108', name: '海淀区', device_count: 1 },
    ]
    expect(await of('110000')).toMatchObject({ address_code: '110000', name: '北京市', items: districts })
    expect((await of('110100')).items).toEqual(districts)
    expect((await of('11')).items).toEqual(districts)
  })

  it('has nothing below a district, and counts only the scope', async () => {
    expect(await of('330106')).toEqual({ address_code: '330106', name: '西湖区', items: [] })
    expect((await of(undefined, env.siblingAdmin)).items).toEqual([
      { address_code: '110000', name: '北京市', device_count: 1 },
      { address_code: '330000', name: '浙江省', device_count: 1 },
    ])
  })
})

describe('key maintenance', () => {
  it('counts the devices needing attention per reason, each with its list filter', async () => {
    const r = await env.t.api(deviceStatsApi.keyMaintenance, { token: env.admin })
    expect(r.data.all_count).toBe(8)
    expect(Object.fromEntries(r.data.items.map((i) => [i.key, i.count]))).toEqual({
      electrode_sheet_expired: 2,
      electrode_sheet_expiring: 1,
      battery_expired: 1,
      battery_expiring: 1,
      host_expired: 1,
      host_expiring: 1,
      battery_exhausted: 2,
      battery_low: 2,
      // The hidden offline installation is not counted as offline.
      fault: 2,
      offline: 1,
    })
    expect(r.data.items[0]).toMatchObject({
      label: '电极片已过期',
      filter: { electrode_sheet_expire_state: 0 },
    })
  })

  it('agrees with the device list’s filters', async () => {
    const r = await env.t.api(deviceStatsApi.keyMaintenance, {
      token: env.admin,
      query: { address_code: '330000' },
    })
    // Every condition of the answer, some with devices: no agreement of nothing with nothing.
    expect(r.data.items.length).toBeGreaterThan(0)
    expect(r.data.items.filter((item) => item.count > 0).length).toBeGreaterThan(0)
    for (const item of r.data.items) {
      const list = await env.t.api(deviceApi.list, {
        token: env.admin,
        query: { address_code: '330000', ...item.filter },
      })
      expect([item.key, (list.data as { count: number }).count]).toEqual([item.key, item.count])
    }
  })
})

describe('maintenance monthly', () => {
  const month = (offset: number) => formatDate(new Date(clock.now().getTime() + offset * DAY)).slice(0, 7)

  it('counts registrations, inspections, changes and replacements per month for 12 months', async () => {
    const inspect = (days: number) => ({
      device_id: first.id,
      installation_id: mineInstallation,
      agency_id: env.branch.id,
      inspect_status: 1,
      inspector_name: '巡检员',
      inspect_time: new Date(clock.now().getTime() - days * DAY),
    })
    await env.t.db.insert(deviceInspections).values([inspect(0), inspect(0), inspect(100), inspect(400)])
    // A routine change and a replacement of the first device's installation this month.
    const [row] = await env.t.db.select().from(installations).where(eq(installations.id, mineInstallation))
    // The installation's own place and dates, so its bands stay as built.
    const form = {
      ...env.f.deviceForm(env.branch, first.device_sn),
      address_code: row.address_code,
      battery_expire: row.battery_expire,
      electrode_sheet_expire: row.electrode_sheet_expire,
      host_expire: row.host_expire,
    }
    const change = await env.t.api(deviceApi.update, {
      token: env.admin,
      params: { id: first.id },
      body: { ...form, update_type: 1, contact: '新联系人' },
    })
    expect(change.code).toBe(0)
    const next = await env.f.device(env.branch)
    const replace = await env.t.api(deviceApi.update, {
      token: env.admin,
      params: { id: first.id },
      body: { ...form, update_type: 3, new_device_sn: next.device_sn },
    })
    expect(replace.code).toBe(0)

    const r = await env.t.api(deviceStatsApi.maintenanceMonthly, { token: env.admin })
    expect(r.data.items).toHaveLength(12)
    expect(r.data.items.at(-1)).toEqual({
      month: month(0),
      // The 8 devices and the uninstalled one were registered this month.
      register_count: 9,
      inspect_count: 2,
      change_count: 1,
      replace_count: 1,
    })
    const earlier = r.data.items.find((i) => i.month === month(-100))
    expect(earlier).toMatchObject({ inspect_count: 1, register_count: 0 })
    expect(r.data.items.reduce((n, i) => n + i.inspect_count, 0)).toBe(3)
    expect(r.data.items[0].month < r.data.items[11].month).toBe(true)

    const theirs = await env.t.api(deviceStatsApi.maintenanceMonthly, { token: env.siblingAdmin })
    expect(theirs.data.items.at(-1)).toMatchObject({ register_count: 2, inspect_count: 0, change_count: 0 })
    const elsewhere = await env.t.api(deviceStatsApi.maintenanceMonthly, {
      token: env.admin,
      query: { address_code: '110000' },
    })
    expect(elsewhere.data.items.at(-1)).toMatchObject({ register_count: 2, inspect_count: 0 })
  })
})
