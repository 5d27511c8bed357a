import { sql } from 'drizzle-orm'
import type { AppContext } from '../../../context.ts'
import { many, one } from '../../../db/sql.ts'
import { log } from '../harness/report.ts'
import { load, makeReady } from '../network.ts'
import { loadResponders, PHONE_PREFIX } from '../responder-load.ts'
import type { Areas, Place } from './types.ts'

// 1. The bench's data: `npm run bench`'s network (network.ts: 100,000 registered devices in
// fourteen cities), most of it made ready (network.ts's makeReady, as the nearby bench), and
// `bench:responders`' people (responder-load.ts: 20,000 in Zhejiang); then, every run, earlier runs'
// dispatches closed and a few responders given a fresh shared position. And the places calls come
// from, by area.

/** The bench's calls say this (their description), so a later run finds and closes them. */
export const CALL_DESCRIPTION = '压测派单'

/** Share of the responders with a shared position under 30 minutes old (percent). */
const LOCATED_PCT = 3

/** Loads what is missing; answers the seconds each part took. */
export async function loadData(ctx: AppContext, responders: number) {
  const t0 = performance.now()
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  if (!loaded?.n) await load(ctx)
  await makeReady(ctx.db)
  const t1 = performance.now()
  await loadResponders(ctx, responders)
  const t2 = performance.now()
  return { networkS: (t1 - t0) / 1000, respondersS: (t2 - t1) / 1000 }
}

/**
 * What an earlier run left is closed (its calls and their dispatches: an accepted alert of an open
 * dispatch keeps a responder from being chosen), and LOCATED_PCT % of the responders shared their
 * position in the last 20 minutes, within about 500 m of home (the candidates' second branch).
 */
export async function resetRun(ctx: AppContext) {
  const closed = await many<{ id: number }>(
    ctx.db,
    sql`UPDATE call_events SET status = 0, outcome = 'cancelled', closed_at = now(), close_reason = 'member'
        WHERE status = 1 AND description = ${CALL_DESCRIPTION} RETURNING id`,
  )
  await ctx.db.execute(sql`UPDATE dispatches SET state = 'closed', next_phase_at = NULL, closed_at = now()
                           WHERE state <> 'closed'`)
  await ctx.db.execute(sql`
    UPDATE responders r SET last_lat = a.lat + (abs(hashint4((r.id * 71)::int)) % 1000 - 500) / 222000.0,
                            last_lon = a.lon + (abs(hashint4((r.id * 73)::int)) % 1000 - 500) / 190000.0,
                            located_at = now() - (abs(hashint4((r.id * 79)::int)) % 1200) * interval '1 second'
    FROM accounts a WHERE a.id = r.account_id AND a.phone LIKE ${`${PHONE_PREFIX}%`}
      AND abs(hashint4((r.id * 67)::int)) % 100 < ${LOCATED_PCT}`)
  await ctx.db.execute(sql`VACUUM ANALYZE responders`)
  await ctx.db.execute(sql`VACUUM ANALYZE dispatch_alerts`)
  await ctx.db.execute(sql`VACUUM ANALYZE dispatches`)
  return closed.length
}

/** The network's size as the bench sees it. */
export function counts(ctx: AppContext) {
  return one<{ installed: number; ready: number; responders: number; located: number }>(
    ctx.db,
    sql`SELECT (SELECT count(*) FROM installations WHERE removed_at IS NULL AND device_id IS NOT NULL) AS installed,
               (SELECT count(*) FROM installations i JOIN devices d ON d.id = i.device_id
                WHERE i.removed_at IS NULL AND d.readiness = 'ready') AS ready,
               (SELECT count(*) FROM responders) AS responders,
               (SELECT count(*) FROM responders WHERE located_at > now() - interval '30 minutes') AS located`,
  )
}

/** The places calls come from: `n` of each area, in a seeded order (hashint4 of the row's id). */
export async function areas(ctx: AppContext, n: number, seed: number): Promise<Areas> {
  const pick = (from: ReturnType<typeof sql>) =>
    many<Place>(
      ctx.db,
      sql`SELECT lat, lon FROM (${from}) p ORDER BY hashint4((p.id + ${seed})::int) LIMIT ${n}`,
    )
  return {
    // A city full of AEDs and people: by a Hangzhou AED.
    city: await pick(sql`SELECT id, lat, lon FROM installations
                         WHERE register_code LIKE 'RB%' AND address_code LIKE '3301%' AND removed_at IS NULL`),
    // Sparse: by a responder's home away from the network's AEDs (Hangzhou's edge, Zhejiang's other cities).
    sparse: await pick(sql`SELECT id, lat, lon FROM accounts WHERE phone LIKE ${`${PHONE_PREFIX}%`}
                           AND NOT (abs(lat - 30.27) < 0.06 AND abs(lon - 120.15) < 0.06)`),
    // AEDs and nobody to send: by an AED of a city outside Zhejiang.
    aedsOnly: await pick(sql`SELECT id, lat, lon FROM installations
                             WHERE register_code LIKE 'RB%' AND address_code NOT LIKE '33%' AND removed_at IS NULL`),
  }
}

/** A seeded jitter of up to ±`metres` around a place. */
export function jitter(places: Place[], metres: number, seed: number): Place[] {
  let s = seed
  const rnd = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    return s / 2 ** 31
  }
  return places.map((p) => ({
    lat: p.lat + ((rnd() - 0.5) * 2 * metres) / 111_195,
    lon: p.lon + ((rnd() - 0.5) * 2 * metres) / (111_195 * Math.cos((p.lat * Math.PI) / 180)),
  }))
}

/** The root organisation's path: the system administrator's calls dispatch over the whole network. */
export async function rootScope(ctx: AppContext) {
  const root = await one<{ index_link: string }>(
    ctx.db,
    sql`SELECT index_link FROM agencies WHERE agency_type = 0 ORDER BY id LIMIT 1`,
  )
  if (!root) throw new Error('no root organisation')
  log(`scope ${root.index_link} (the whole network)`)
  return { index_link: root.index_link }
}
