import { DATA_DICT } from '@aed/contracts/constants'
import { deviceApi } from '@aed/contracts/device'
import { deviceStatsApi } from '@aed/contracts/device-stats'
import { isLeafRegion } from '@aed/contracts/regions'
import { RESPONDER_PHONE } from '@aed/contracts/responder'
import { dispatchState } from '@aed/contracts/responder-rules'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many } from '../db/sql.ts'
import { formatDate } from '../lib/time.ts'
import { createTestApp, demo, type TestApp } from '../test/harness.ts'
import { demoAgencies, demoMembers, seedDemo } from './seed.ts'
import { DEMO_RESPONDERS } from './seed-responders.ts'

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

describe('the demo responders', () => {
  type Row = {
    id: number
    agency_id: number
    agency_name: string
    aid_aptitude: number
    certificate_num: string | null
    certificate_expire: string | null
    certificate_img: string | null
    paused: boolean
    pause_reason: string | null
    days_left: number | null
    name: string
    phone: string
    gender: number
    birth: string
    address_code: string
    location: string
    lat: number
    lon: number
    created: number
    paused_lines: number
  }
  const responders = () =>
    many<Row>(
      t.db,
      sql`SELECT r.id, r.agency_id, g.name AS agency_name, r.aid_aptitude, r.certificate_num,
                 r.certificate_expire::text AS certificate_expire, r.certificate_img, r.paused, r.pause_reason,
                 r.certificate_expire - ${formatDate(t.ctx.clock.now())}::date AS days_left,
                 a.name, a.phone, a.gender, a.birth::text AS birth, a.address_code, a.location, a.lat, a.lon,
                 (SELECT count(*) FROM responder_changes c WHERE c.responder_id = r.id AND c.kind = 'created') AS created,
                 (SELECT count(*) FROM responder_changes c WHERE c.responder_id = r.id AND c.kind = 'paused') AS paused_lines
          FROM responders r JOIN accounts a ON a.id = r.account_id JOIN agencies g ON g.id = r.agency_id`,
    )
  /** Great-circle metres between two points. */
  const metres = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
    const rad = Math.PI / 180
    const h =
      Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
      Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2
    return 2 * 6_371_000 * Math.asin(Math.sqrt(h))
  }

  it('registers two per registered AED in every demo organisation, each with its created line', async () => {
    const rows = await responders()
    expect(rows).toHaveLength(300 * DEMO_RESPONDERS.perDevice)
    const names = new Set(demoAgencies.map((a) => a.name))
    for (const r of rows) expect(names.has(r.agency_name), r.agency_name).toBe(true)
    expect(new Set(rows.map((r) => r.agency_id)).size).toBe(demoAgencies.length)
    for (const r of rows) {
      expect(r.created).toBe(1)
      expect(r.paused_lines).toBe(r.paused ? 1 : 0)
    }
  })

  it('mixes professionals and lay responders, certificate bands counted from the seed’s clock, and pauses', async () => {
    const rows = await responders()
    const pro = rows.filter((r) => r.aid_aptitude === 1)
    expect(pro.length / rows.length).toBeGreaterThan(0.4)
    expect(pro.length / rows.length).toBeLessThan(0.5)
    for (const r of pro) {
      expect(r.certificate_num).toBeTruthy()
      expect(r.certificate_img).toMatch(/\.png$/)
    }
    expect(new Set(pro.map((r) => r.certificate_num)).size).toBe(pro.length)
    for (const r of rows.filter((x) => x.aid_aptitude === 0)) {
      expect([r.certificate_num, r.certificate_expire, r.certificate_img]).toEqual([null, null, null])
    }
    const days = pro.map((r) => r.days_left as number)
    expect(days.filter((d) => d < 0)).toHaveLength(DEMO_RESPONDERS.expired)
    expect(days.filter((d) => d >= 0 && d <= 7)).toHaveLength(DEMO_RESPONDERS.within7)
    expect(days.filter((d) => d > 7 && d <= 30)).toHaveLength(DEMO_RESPONDERS.within30)
    const paused = rows.filter((r) => r.paused)
    expect(paused).toHaveLength(DEMO_RESPONDERS.paused)
    for (const r of paused) expect(r.pause_reason).toBeTruthy()
    const today = formatDate(t.ctx.clock.now())
    const states = new Set(rows.map((r) => dispatchState(r, today)))
    expect(states).toEqual(new Set(['ready', 'paused', 'certificate_expired']))
  })

  it('are real-looking people near an AED of their organisation: unique phones none of the sign-ins have, births 1960-2004, districts', async () => {
    const rows = await responders()
    const phones = rows.map((r) => r.phone)
    expect(new Set(phones).size).toBe(rows.length)
    for (const p of phones) expect(p).toMatch(RESPONDER_PHONE)
    const signIns = new Set(demoMembers.map((m) => m.phone))
    expect(phones.filter((p) => signIns.has(p))).toEqual([])
    const [accounts] = await many<{ n: number; phones: number }>(
      t.db,
      sql`SELECT count(*) AS n, count(DISTINCT phone) AS phones FROM accounts`,
    )
    expect(accounts.phones).toBe(accounts.n)
    const aeds = await many<{ agency_id: number; lat: number; lon: number }>(
      t.db,
      sql`SELECT agency_id, lat, lon FROM installations WHERE removed_at IS NULL`,
    )
    for (const r of rows) {
      expect(r.name).toMatch(/^[\u4e00-\u9fa5]{2,4}$/)
      expect([1, 2]).toContain(r.gender)
      expect(r.birth >= '1960-01-01' && r.birth <= '2004-12-31', r.birth).toBe(true)
      expect(isLeafRegion(r.address_code), r.address_code).toBe(true)
      expect(r.location).toMatch(/[区县]/)
      const nearest = Math.min(...aeds.filter((a) => a.agency_id === r.agency_id).map((a) => metres(a, r)))
      expect(nearest, r.name).toBeLessThanOrEqual(1500)
    }
    expect(new Set(rows.map((r) => r.gender))).toEqual(new Set([1, 2]))
  })

  it('stores the certificate image as a real PNG', async () => {
    const [row] = await responders().then((rows) => rows.filter((r) => r.certificate_img))
    const res = await t.app.inject({ method: 'GET', url: row.certificate_img! })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG')
  })
})
