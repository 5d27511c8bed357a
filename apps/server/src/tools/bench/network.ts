import { regionChildren } from '@aed/contracts/regions'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { one } from '../../db/sql.ts'
import { newDeviceSecret } from '../../lib/sealed.ts'
import { envNumber } from './harness/options.ts'

// `npm run bench`'s network, bulk-loaded with generate_series on top of the demo seed: a large
// organisation tree with its users and operation-log rows, 100,000 registered devices (and
// factory stock) across the big cities' districts, and 20,000 rescues. `npm run bench:dashboard`
// loads the same.

/** Its size: BENCH_AGENCIES, BENCH_MEMBERS, BENCH_LOGS, BENCH_DEVICES (registered), BENCH_STOCK. */
export const NETWORK = {
  agencies: envNumber('BENCH_AGENCIES', 2000),
  members: envNumber('BENCH_MEMBERS', 20000),
  logs: envNumber('BENCH_LOGS', 200000),
  devices: envNumber('BENCH_DEVICES', 100_000),
  /** Factory stock beside the registered devices. */
  stock: envNumber('BENCH_STOCK', 10_000),
}
const { agencies: AGENCIES, members: MEMBERS, logs: LOGS, devices: DEVICES, stock: STOCK } = NETWORK

/**
 * Where the bench's devices are installed: every district of these cities, a city's share by its
 * weight (more devices in the big cities), each at about the city's centre (GCJ-02).
 */
const BENCH_CITIES: [code: string, weight: number, lat: number, lon: number][] = [
  ['310100', 12, 31.23, 121.47],
  ['110100', 12, 39.9, 116.4],
  ['440300', 10, 22.54, 114.06],
  ['440100', 9, 23.13, 113.26],
  ['330100', 9, 30.27, 120.15],
  ['320100', 7, 32.06, 118.79],
  ['510100', 7, 30.66, 104.07],
  ['420100', 6, 30.59, 114.3],
  ['500100', 6, 29.56, 106.55],
  ['610100', 5, 34.34, 108.94],
  ['350200', 4, 24.48, 118.09],
  ['370200', 4, 36.07, 120.38],
  ['430100', 4, 28.23, 112.94],
  ['120100', 5, 39.13, 117.2],
]

/** A PostgreSQL array literal: one parameter, not one per element. */
const pgArray = (values: (string | number)[]) => `{${values.join(',')}}`

/** One entry per device share: [address_code, lat, lon], repeated by the city's weight. */
function benchRegions() {
  const out: { code: string[]; lat: number[]; lon: number[] } = { code: [], lat: [], lon: [] }
  for (const [city, weight, lat, lon] of BENCH_CITIES) {
    const districts = (regionChildren(city) ?? []).filter((d) => !d.code.endsWith('01'))
    for (let w = 0; w < weight; w++) {
      for (const d of districts) {
        out.code.push(d.code)
        out.lat.push(lat)
        out.lon.push(lon)
      }
    }
  }
  return out
}

/** Bulk-loads the organisations, users, log rows and devices the requests run on. */
export async function load(ctx: AppContext) {
  const { db } = ctx
  const t0 = performance.now()
  // Ordinary agencies spread under the two general agents (ids 2 and 3 in the demo seed).
  await db.execute(sql`
    INSERT INTO agencies (name, agency_type, parent_id, level, index_link, phone, contact_name, address_code, disabled, time_zone)
    SELECT '压测机构' || g, 2, 2 + g % 2, 3, '', '13900000000', '联系人', '330106', false, 'Asia/Shanghai'
    FROM generate_series(1, ${AGENCIES}) g`)
  await db.execute(sql`UPDATE agencies a SET index_link = p.index_link || a.id || '/'
                       FROM agencies p WHERE a.parent_id = p.id AND a.index_link = ''`)
  await db.execute(sql`
    INSERT INTO accounts (phone, name, email, nationality, location)
    SELECT '17' || lpad(g::text, 9, '0'), '压测用户' || g, 'u' || g || '@bench.cn', 'CN', '杭州'
    FROM generate_series(1, ${MEMBERS}) g`)
  await db.execute(sql`
    INSERT INTO members (account_id, agency_id, role_type, permissions)
    SELECT a.id, (SELECT min(id) FROM agencies WHERE name LIKE '压测机构%') + (a.id % ${AGENCIES}), 1 + a.id % 2, '{"device":"READ_ONLY"}'
    FROM accounts a WHERE a.phone LIKE '17%'`)
  await db.execute(sql`
    INSERT INTO operation_logs (agency_id, member_id, operator, operation_type, content, create_time)
    SELECT 2 + g % 2, 1, '压测用户' || (g % 500), '修改机构', '修改机构信息：压测机构' || g, now() - (g % 170) * interval '1 day'
    FROM generate_series(1, ${LOGS}) g`)
  const adminLoadMs = performance.now() - t0

  // Devices: DEVICES registered and STOCK in the factory list, over the bench's agencies. A
  // pseudo-random number per row (hashint4) spreads models, statuses (mostly normal), batteries,
  // expiry dates (every band), regions, install times and managers. They never sign in, so they
  // share one sealed secret.
  const t1 = performance.now()
  const h = (salt: number, mod: number) => sql.raw(`(abs(hashint4(g * ${salt} + ${salt})) % ${mod})`)
  await db.execute(sql`
    INSERT INTO devices (device_sn, model, fw_version, agency_id, secret_enc, status, battery, create_time, update_time)
    SELECT 'B' || m.code || lpad(g::text, 8, '0'), m.model, 'V1.' || ${h(3, 3)} || '.' || ${h(5, 9)},
           (SELECT min(id) FROM agencies WHERE name LIKE '压测机构%') + g % ${AGENCIES}, ${ctx.sealer.seal(newDeviceSecret())},
           CASE WHEN g > ${DEVICES} THEN 0 WHEN ${h(7, 100)} < 82 THEN 0 WHEN ${h(7, 100)} < 89 THEN 1
                WHEN ${h(7, 100)} < 93 THEN 2 WHEN ${h(7, 100)} < 95 THEN 3 ELSE 4 END,
           CASE WHEN g > ${DEVICES} OR ${h(11, 100)} < 2 THEN NULL WHEN ${h(11, 100)} < 5 THEN ${h(13, 6)}
                WHEN ${h(11, 100)} < 10 THEN 6 + ${h(13, 4)} ELSE 10 + ${h(13, 91)} END,
           now() - (800 + ${h(17, 400)}) * interval '1 day', now()
    FROM generate_series(1, ${DEVICES + STOCK}) g
    CROSS JOIN LATERAL (SELECT (ARRAY['64','64','64','70','70','67','73','65','71','66'])[1 + ${h(19, 10)}] AS code) c
    CROSS JOIN LATERAL (SELECT c.code, CASE c.code WHEN '64' THEN 'D100' WHEN '70' THEN 'D100A' WHEN '67' THEN 'D10'
                               WHEN '73' THEN 'D10A' WHEN '65' THEN 'B100' WHEN '71' THEN 'B100A' ELSE 'E100' END AS model) m`)
  const regions = benchRegions()
  await db.execute(sql`
    WITH r AS (SELECT ${pgArray(regions.code)}::text[] AS code, ${pgArray(regions.lat)}::float8[] AS lat,
                      ${pgArray(regions.lon)}::float8[] AS lon),
         mgr AS (SELECT array_agg(m.id ORDER BY m.id) AS ids FROM members m JOIN agencies a ON a.id = m.agency_id
                 WHERE m.role_type = 1 AND a.name LIKE '压测机构%'),
         dev AS (SELECT d.id, d.agency_id, row_number() OVER (ORDER BY d.id) AS n
                 FROM devices d WHERE d.device_sn LIKE 'B%' ORDER BY d.id LIMIT ${DEVICES})
    INSERT INTO installations (register_code, device_id, agency_id, location, location_desc, address_code, lat, lon,
      device_manager_id, contact, contact_phone, open_state, open_day, open_time_period, chest_shot_img, long_shot_img,
      battery_expire, electrode_sheet_expire, host_expire, registrant, register_time, update_time)
    SELECT 'RB' || lpad(dev.id::text, 10, '0'), dev.id, dev.agency_id, '压测路' || dev.n || '号', '一楼大厅',
           r.code[1 + k.i], r.lat[1 + k.i] + (${h(23, 2000)} - 1000) / 20000.0, r.lon[1 + k.i] + (${h(29, 2000)} - 1000) / 20000.0,
           mgr.ids[1 + ${h(31, 100000)} % cardinality(mgr.ids)], '联系人', '13912345678', o.state,
           CASE WHEN o.state = 1 THEN '{1,2,3,4,5}'::smallint[] ELSE '{}' END,
           CASE WHEN o.state = 1 THEN '[["08:30","17:30"]]'::jsonb ELSE '[]'::jsonb END,
           '/files/demo/aed-cabinet-near.png', '/files/demo/aed-cabinet-far.png',
           current_date + (${h(37, 1300)} - 250), current_date + (${h(41, 1300)} - 250), current_date + (${h(43, 2400)} - 300),
           mgr.ids[1 + ${h(31, 100000)} % cardinality(mgr.ids)],
           now() - ${h(47, 1095 * 24)} * interval '1 hour', now()
    FROM dev CROSS JOIN r CROSS JOIN mgr
    CROSS JOIN LATERAL (SELECT dev.n::int AS g) gg
    CROSS JOIN LATERAL (SELECT abs(hashint4(gg.g * 53 + 53)) % cardinality(r.code) AS i) k
    CROSS JOIN LATERAL (SELECT CASE WHEN abs(hashint4(gg.g * 59 + 59)) % 10 < 6 THEN 2
                                    WHEN abs(hashint4(gg.g * 59 + 59)) % 10 < 9 THEN 1 ELSE 0 END AS state) o`)
  await db.execute(sql`UPDATE devices d SET installation_id = i.id FROM installations i
                       WHERE i.device_id = d.id AND d.device_sn LIKE 'B%'`)
  // The change records (a registration each, and a routine change for one in five) and a year of
  // inspections (one per device on average), for the maintenance line.
  await db.execute(sql`
    INSERT INTO installation_changes (installation_id, update_type, update_field, updator, updator_name, update_time)
    SELECT i.id, 0, '注册设备', i.registrant, '压测用户', i.register_time FROM installations i WHERE i.register_code LIKE 'RB%'
    UNION ALL
    SELECT i.id, 1, '电极片有效期', i.registrant, '压测用户', now() - (i.id % 360) * interval '1 day'
    FROM installations i WHERE i.register_code LIKE 'RB%' AND i.id % 5 = 0`)
  await db.execute(sql`
    INSERT INTO device_inspections (device_id, installation_id, agency_id, inspect_status, inspector_name, inspect_time)
    SELECT i.device_id, i.id, i.agency_id, CASE WHEN i.id % 13 = 0 THEN 0 ELSE 1 END, '压测用户',
           now() - ((i.id * 7) % 365) * interval '1 day' - (i.id % 24) * interval '1 hour'
    FROM installations i WHERE i.register_code LIKE 'RB%'`)
  // A settled database, as PostgreSQL's autovacuum leaves it: statistics, and the visibility map
  // the index-only scans of the statistics rely on (PGlite has no autovacuum: see benchmarks.md).
  await db.execute(sql`VACUUM ANALYZE`)
  const deviceLoadMs = performance.now() - t1
  return { adminLoadMs, deviceLoadMs }
}

/**
 * The dashboard's rescue layer: 20,000 rescues of the bench's devices spread over the last 60
 * days (about 330 ended in any 24 hours) and 40 in progress. Loaded once, beside the devices, so
 * a kept BENCH_DIR gets them too.
 */
export async function loadRescues(ctx: AppContext) {
  const { db } = ctx
  const have = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM rescue_events WHERE rescue_event_id LIKE 'BR%'`,
  )
  if (have?.n) return 0
  const t0 = performance.now()
  await db.execute(sql`
    WITH dev AS (SELECT i.id, i.device_id, i.agency_id, row_number() OVER (ORDER BY i.id) AS n
                 FROM installations i WHERE i.register_code LIKE 'RB%' AND i.removed_at IS NULL),
         total AS (SELECT count(*) AS c FROM dev)
    INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id, event_time, ended_at)
    SELECT dev.device_id, dev.id, dev.agency_id, a.index_link, 'BR' || g,
           now() - g * interval '60 days' / 20000,
           CASE WHEN g <= 40 THEN NULL ELSE now() - g * interval '60 days' / 20000 + interval '20 minutes' END
    FROM generate_series(1, 20000) g CROSS JOIN total
    JOIN dev ON dev.n = 1 + (g * 37) % total.c
    JOIN agencies a ON a.id = dev.agency_id`)
  await db.execute(sql`VACUUM ANALYZE rescue_events`)
  return performance.now() - t0
}

/**
 * Readiness as the engine would leave a fleet: 85 % ready, the rest not ready or never heard of
 * (load() leaves every device 'unknown'). Opening hours are network.ts's: 60 % always open,
 * 30 % weekdays 08:30-17:30, 10 % closed.
 */
export async function makeReady(db: AppContext['db']) {
  await db.execute(sql`
    UPDATE devices SET readiness = CASE WHEN abs(hashint4((id * 61 + 61)::int)) % 100 < 85 THEN 'ready'
                                        WHEN abs(hashint4((id * 61 + 61)::int)) % 100 < 95 THEN 'not_ready' ELSE 'unknown' END,
                       readiness_reasons = CASE WHEN abs(hashint4((id * 61 + 61)::int)) % 100 < 85 THEN '{}'::text[]
                                                WHEN abs(hashint4((id * 61 + 61)::int)) % 100 < 95 THEN '{fault}'::text[]
                                                ELSE '{never_reported}'::text[] END
    WHERE device_sn LIKE 'B%' AND readiness = 'unknown'`)
  await db.execute(sql`VACUUM ANALYZE devices`)
}
