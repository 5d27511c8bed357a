import { regionChildren, regionFullName } from '@aed/contracts/regions'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { one } from '../../db/sql.ts'
import { FEMALE_CHARS, MALE_CHARS, SURNAMES } from '../../seed/names.ts'

// The bench responders beside network.ts's network (`npm run bench:responders`, `npm run
// bench:dispatch`): people living in Zhejiang's districts, registered with the East China general
// agent's bench organisations.

/** The province the responders live in. */
export const RESPONDER_PROVINCE = '330000'
/** The bench responders' phones: 1450 and seven digits (no demo responder has a 145 number). */
export const PHONE_PREFIX = '1450'

/** Zhejiang's cities, about their centres (GCJ-02), and how many shares of the responders each gets. */
const CITIES: [code: string, weight: number, lat: number, lon: number][] = [
  ['330100', 5, 30.27, 120.15],
  ['330200', 3, 29.87, 121.55],
  ['330300', 3, 28.0, 120.7],
  ['330400', 1, 30.75, 120.76],
  ['330500', 1, 30.89, 120.09],
  ['330600', 2, 30.0, 120.58],
  ['330700', 2, 29.08, 119.65],
  ['330800', 1, 28.94, 118.87],
  ['330900', 1, 30.0, 122.2],
  ['331000', 2, 28.66, 121.42],
  ['331100', 1, 28.45, 119.92],
]

/** A PostgreSQL array literal of plain words and numbers: one parameter, not one per element. */
const pgArray = (values: readonly (string | number)[]) => `{${values.join(',')}}`

/** Every district of the cities, repeated by its city's weight: code, full name, city centre. */
function districts() {
  const out = { code: [] as string[], name: [] as string[], lat: [] as number[], lon: [] as number[] }
  for (const [city, weight, lat, lon] of CITIES) {
    for (const d of (regionChildren(city) ?? []).filter((x) => !x.code.endsWith('01'))) {
      for (let w = 0; w < weight; w++) {
        out.code.push(d.code)
        out.name.push(regionFullName(d.code) ?? d.name)
        out.lat.push(lat)
        out.lon.push(lon)
      }
    }
  }
  return out
}

/**
 * Bulk-loads the responders with generate_series unless they are there: an account each (a
 * Chinese name, gender, birth 1960-2004, a resident place in a Zhejiang district within ±0.1° of
 * its city's centre) and a register entry with one of the East China general agent's bench
 * organisations: 45 % professionals, their certificates spread from 180 days expired to four
 * years ahead (about 12 % expired), 3 % paused, 60 % bound to their organisation's devices.
 */
export async function loadResponders(ctx: AppContext, count: number) {
  const { db } = ctx
  const have = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM responders r JOIN accounts a ON a.id = r.account_id
        WHERE a.phone LIKE ${`${PHONE_PREFIX}%`}`,
  )
  if ((have?.n ?? 0) >= count) return 0
  const t0 = performance.now()
  const h = (salt: number, mod: number) => sql.raw(`(abs(hashint4(g * ${salt} + ${salt})) % ${mod})`)
  const surnames = SURNAMES.flatMap(([s, w]) => Array<string>(Math.max(1, Math.round(w * 10))).fill(s))
  const d = districts()
  await db.execute(sql`
    WITH n AS (SELECT ${pgArray(surnames)}::text[] AS surname, ${pgArray(MALE_CHARS)}::text[] AS male,
                      ${pgArray(FEMALE_CHARS)}::text[] AS female),
         r AS (SELECT ${pgArray(d.code)}::text[] AS code, ${pgArray(d.name)}::text[] AS name,
                      ${pgArray(d.lat)}::float8[] AS lat, ${pgArray(d.lon)}::float8[] AS lon)
    INSERT INTO accounts (phone, name, gender, birth, nationality, location, location_desc, address_code, lat, lon,
                          create_time, update_time)
    SELECT ${PHONE_PREFIX} || lpad(g::text, 7, '0'),
           n.surname[1 + ${h(3, 100_000)} % cardinality(n.surname)]
             || CASE WHEN ${h(5, 2)} = 0 THEN n.male[1 + ${h(7, 1000)} % cardinality(n.male)]
                                              || CASE WHEN ${h(11, 10)} < 7 THEN n.male[1 + ${h(13, 1000)} % cardinality(n.male)] ELSE '' END
                     ELSE n.female[1 + ${h(7, 1000)} % cardinality(n.female)]
                          || CASE WHEN ${h(11, 10)} < 7 THEN n.female[1 + ${h(13, 1000)} % cardinality(n.female)] ELSE '' END END,
           1 + ${h(5, 2)}, date '1960-01-01' + ${h(17, 16_436)}, 'CN',
           r.name[1 + k.i] || '压测小区' || (1 + ${h(19, 80)}) || '幢', (1 + ${h(23, 30)}) || '0' || (1 + ${h(29, 4)}) || '室',
           r.code[1 + k.i], r.lat[1 + k.i] + (${h(31, 2000)} - 1000) / 10000.0, r.lon[1 + k.i] + (${h(37, 2000)} - 1000) / 10000.0,
           now() - ${h(41, 700)} * interval '1 day', now()
    FROM generate_series(1, ${count}) g CROSS JOIN n CROSS JOIN r
    CROSS JOIN LATERAL (SELECT ${h(43, 100_000)} % cardinality(r.code) AS i) k`)
  await db.execute(sql`
    WITH ag AS (SELECT array_agg(id ORDER BY id) AS ids FROM agencies WHERE name LIKE '压测机构%' AND parent_id = 2),
         mgr AS (SELECT min(id) AS id FROM members)
    INSERT INTO responders (account_id, agency_id, aid_aptitude, certificate_num, certificate_expire, certificate_img,
                            status, paused, pause_reason, paused_at, creator, create_time, updator, update_time)
    SELECT a.id, ag.ids[1 + x.agency % cardinality(ag.ids)], x.pro,
           CASE WHEN x.pro = 1 THEN 'JHB' || lpad(a.id::text, 10, '0') END,
           CASE WHEN x.pro = 1 THEN current_date + x.days END,
           CASE WHEN x.pro = 1 THEN '/files/demo/responder-certificate.png' END,
           CASE WHEN x.bound < 60 THEN 1 ELSE 0 END, x.paused < 3, CASE WHEN x.paused < 3 THEN '休假中' END,
           CASE WHEN x.paused < 3 THEN now() - interval '3 days' END, mgr.id, a.create_time, mgr.id, a.create_time
    FROM accounts a CROSS JOIN ag CROSS JOIN mgr
    CROSS JOIN LATERAL (SELECT a.id::int AS g) gg
    CROSS JOIN LATERAL (SELECT abs(hashint4(gg.g * 47 + 47)) % 100000 AS agency,
                               CASE WHEN abs(hashint4(gg.g * 53 + 53)) % 100 < 45 THEN 1 ELSE 0 END AS pro,
                               abs(hashint4(gg.g * 59 + 59)) % 1640 - 180 AS days,
                               abs(hashint4(gg.g * 61 + 61)) % 100 AS bound,
                               abs(hashint4(gg.g * 67 + 67)) % 100 AS paused) x
    WHERE a.phone LIKE ${`${PHONE_PREFIX}%`}
      AND NOT EXISTS (SELECT 1 FROM responders r WHERE r.account_id = a.id)`)
  // Settled as autovacuum leaves a database (PGlite has none): statistics and the visibility map.
  await db.execute(sql`VACUUM ANALYZE accounts`)
  await db.execute(sql`VACUUM ANALYZE responders`)
  return performance.now() - t0
}
