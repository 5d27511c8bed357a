import { DATA_DICT } from '@aed/contracts/constants'
import { deviceApi } from '@aed/contracts/device'
import { deviceStatsApi } from '@aed/contracts/device-stats'
import { isLeafRegion } from '@aed/contracts/regions'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many } from '../db/sql.ts'
import { createTestApp, demo, type TestApp } from '../test/harness.ts'
import { demoMembers, seedDemo } from './seed.ts'

// The demo network as a first start makes it: seeded here through a server context (its sealer
// and storage) into a migrated database; the test templates hold no demo devices.

let t: TestApp
let token: string

beforeAll(async () => {
  t = await createTestApp({ env: { SEED_DEMO: 'false' } })
  await seedDemo(t.db, t.ctx)
  token = await t.login(demo.superAdmin)
})
afterAll(() => t.close())

type Installation = {
  id: number
  device_sn: string
  agency_code: string
  address_code: string
  lat: number
  lon: number
  open_state: number
  open_day: number[]
  open_time_period: [string, string][]
  chest_shot_img: string
  long_shot_img: string
  manager_role: number
  manager_agency: number
  agency_id: number
  secret_enc: string
}

const installations = () =>
  many<Installation>(
    t.db,
    sql`SELECT d.id, d.device_sn, g.address_code AS agency_code, i.address_code, i.lat, i.lon, i.open_state,
               i.open_day, i.open_time_period, i.chest_shot_img, i.long_shot_img, m.role_type AS manager_role,
               m.agency_id AS manager_agency, i.agency_id, d.secret_enc
        FROM devices d JOIN installations i ON i.id = d.installation_id JOIN agencies g ON g.id = i.agency_id
        JOIN members m ON m.id = i.device_manager_id`,
  )

describe('the demo devices', () => {
  it('registers 300 devices across the demo organisations and keeps 60 in factory stock', async () => {
    const [n] = await many<{ registered: number; stock: number; agencies: number }>(
      t.db,
      sql`SELECT count(*) FILTER (WHERE installation_id IS NOT NULL) AS registered,
                 count(*) FILTER (WHERE installation_id IS NULL) AS stock,
                 count(DISTINCT agency_id) AS agencies
          FROM devices`,
    )
    expect(n).toEqual({ registered: 300, stock: 60, agencies: 7 })
    const factory = await t.api(deviceApi.list, { token, query: { device_list_type: 2, is_register: 0 } })
    expect((factory.data as { count: number }).count).toBe(60)
  })

  it('installs them in their organisation’s city, at a district, near real streets, with managers who are not general users', async () => {
    const rows = await installations()
    expect(rows).toHaveLength(300)
    for (const r of rows) {
      expect(isLeafRegion(r.address_code), r.address_code).toBe(true)
      // Same city as the organisation (Beijing and Shanghai: the municipality).
      expect(r.address_code.slice(0, 4)).toBe(r.agency_code.slice(0, 4))
      expect(r.lat).toBeGreaterThan(18)
      expect(r.lat).toBeLessThan(41)
      expect(r.lon).toBeGreaterThan(110)
      expect(r.lon).toBeLessThan(122)
      expect(r.manager_role).not.toBe(2)
      expect(r.manager_agency).toBe(r.agency_id)
    }
  })

  it('has every opening state; semi-open sites have days and periods', async () => {
    const rows = await installations()
    expect(new Set(rows.map((r) => r.open_state))).toEqual(new Set([0, 1, 2]))
    for (const r of rows.filter((x) => x.open_state === 1)) {
      expect(r.open_day.length).toBeGreaterThan(0)
      expect(r.open_time_period.length).toBeGreaterThan(0)
    }
    for (const r of rows.filter((x) => x.open_state !== 1)) expect(r.open_day).toEqual([])
  })

  it('has every expiry band and battery band, and every status with most devices normal', async () => {
    const bands = await t.api(deviceStatsApi.mainStateDistribution, { token })
    for (const key of ['battery', 'electrode_sheet_expire', 'battery_expire', 'host_expire'] as const) {
      const dict =
        key === 'battery' ? 'battery_band' : key === 'host_expire' ? 'host_expiry_band' : 'expiry_band'
      expect(bands.data[key].map((b) => b.value)).toEqual(DATA_DICT[dict].map((b) => b.value))
      for (const b of bands.data[key]) expect(b.count, `${key} ${b.value}`).toBeGreaterThan(0)
    }
    const states = (await t.api(deviceStatsApi.stateDistribution, { token })).data
    expect(states.all_count).toBe(300)
    for (const k of [
      'warn_event_count',
      'error_report_count',
      'offset_event_count',
      'disconnect_count',
    ] as const) {
      expect(states[k], k).toBeGreaterThan(0)
    }
    expect(states.normal_count).toBeGreaterThan(states.all_count / 2)
    const hidden = await many<{ n: number }>(
      t.db,
      sql`SELECT count(*) AS n FROM installations i JOIN devices d ON d.installation_id = i.id
          WHERE i.disable_abnormal_display = 1 AND d.status <> 0`,
    )
    expect(hidden[0].n).toBeGreaterThan(0)
  })

  it('has photos in storage: a close-up and a far view, real PNG images', async () => {
    const rows = await installations()
    const urls = new Set(rows.flatMap((r) => [r.chest_shot_img, r.long_shot_img]))
    expect(urls.size).toBe(2)
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toBe('image/png')
      const body = res.rawPayload
      expect(body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
      expect(body.toString('ascii', 12, 16)).toBe('IHDR')
      expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([240, 180])
    }
  })

  it('gives every device its own sealed secret', async () => {
    const rows = await many<{ secret_enc: string }>(t.db, sql`SELECT secret_enc FROM devices`)
    const secrets = rows.map((r) => t.ctx.sealer.open(r.secret_enc))
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(secrets).size).toBe(360)
  })

  it('spreads the maintenance of the last year over the months', async () => {
    const r = await t.api(deviceStatsApi.maintenanceMonthly, { token })
    expect(r.data.items.filter((m) => m.inspect_count > 0)).toHaveLength(12)
    expect(r.data.items.reduce((n, m) => n + m.change_count + m.replace_count, 0)).toBeGreaterThan(10)
  })

  it('keeps the demo sign-ins and the organisations’ members as they were', async () => {
    const [n] = await many<{ n: number }>(t.db, sql`SELECT count(*) AS n FROM members`)
    expect(n.n).toBe(demoMembers.length)
    expect(typeof (await t.login(demo.hzAdmin))).toBe('string')
  })
})

describe('the demo cabinets', () => {
  type Row = {
    cabinet_sn: string
    agency_id: number
    device_agency: number | null
    device_sn: string | null
    door_status: number | null
    secret_enc: string
    records: number
    binds: number
  }
  const cabinets = () =>
    many<Row>(
      t.db,
      sql`SELECT c.cabinet_sn, c.agency_id, i.agency_id AS device_agency, d.device_sn, c.door_status, c.secret_enc,
                 (SELECT count(*) FROM cabinet_records r WHERE r.cabinet_id = c.id) AS records,
                 (SELECT count(*) FROM cabinet_binds b WHERE b.cabinet_id = c.id) AS binds
          FROM cabinets c LEFT JOIN devices d ON d.id = c.device_id
          LEFT JOIN installations i ON i.id = d.installation_id`,
    )

  it('puts 60 cabinets in every demo organisation, most holding an installed AED of their own organisation', async () => {
    const rows = await cabinets()
    expect(rows).toHaveLength(60)
    expect(new Set(rows.map((r) => r.agency_id)).size).toBe(7)
    const bound = rows.filter((r) => r.device_sn)
    expect(bound.length).toBeGreaterThan(45)
    expect(bound.length).toBeLessThan(60)
    for (const r of bound) expect(r.device_agency).toBe(r.agency_id)
    expect(new Set(bound.map((r) => r.device_sn)).size).toBe(bound.length)
    // Closed doors; the new ones never reported.
    expect(new Set(rows.map((r) => r.door_status))).toEqual(new Set([0, null]))
  })

  it('gives each cabinet its own sealed secret, its bind records and self-checks of those that reported', async () => {
    const rows = await cabinets()
    const secrets = rows.map((r) => t.ctx.sealer.open(r.secret_enc))
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(secrets).size).toBe(60)
    for (const r of rows) {
      expect(r.binds).toBe(r.device_sn ? 2 : 1)
      expect(r.records).toBe(r.door_status === null ? 0 : 13)
    }
  })
})
