import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { EARTH_SCALE, inDistanceOrder } from '../../db/nearest.ts'
import { type LocalTime, openAt } from '../../db/opening-hours.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many, one } from '../../db/sql.ts'

/**
 * The scope's registered devices in normal status within `radius` metres of a point (GCJ-02),
 * nearest first: the emergency page's marker 9 around a call. The installations' GiST index
 * (installations_earth_idx) serves the box.
 */
export function normalDevicesNear(
  db: DbOrTx,
  scope: Scope,
  at: { lat: number; lon: number },
  radius: number,
  limit: number,
) {
  const here = sql`ll_to_earth(${at.lat}, ${at.lon})`
  return many<{
    id: number
    device_sn: string
    location: string | null
    lon: number
    lat: number
    distance: number
    readiness: string
  }>(
    db,
    sql`SELECT * FROM (
          SELECT d.id, d.device_sn, i.location, i.lon, i.lat, d.readiness,
                 round(earth_distance(ll_to_earth(i.lat, i.lon), ${here}) * ${EARTH_SCALE})::int AS distance
          FROM installations i
          JOIN devices d ON d.id = i.device_id AND d.installation_id = i.id AND d.deleted_at IS NULL
          JOIN agencies g ON g.id = i.agency_id
          WHERE i.removed_at IS NULL AND i.device_id IS NOT NULL
            AND earth_box(${here}, ${radius / EARTH_SCALE}) @> ll_to_earth(i.lat, i.lon)
            AND d.status = 0 AND ${pathInScope(scope, sql`g.index_link`)}) n
        WHERE n.distance <= ${radius} ORDER BY n.distance, n.id LIMIT ${limit}`,
  )
}

/** The district of the live installation nearest a point within `within` metres, or null. */
export async function nearestInstallationDistrict(
  db: DbOrTx,
  at: { lat: number; lon: number },
  within: number,
) {
  const row = await one<{ address_code: string | null }>(
    db,
    sql`SELECT address_code FROM installations
        WHERE removed_at IS NULL AND device_id IS NOT NULL AND address_code IS NOT NULL
          AND earth_box(ll_to_earth(${at.lat}, ${at.lon}), ${within}) @> ll_to_earth(lat, lon)
        ORDER BY ll_to_earth(lat, lon) <-> ll_to_earth(${at.lat}, ${at.lon}) LIMIT 1`,
  )
  return row?.address_code ?? null
}

/** A ready AED dispatch may send a responder to fetch. */
export type ReadyAed = {
  device_id: number
  device_sn: string
  lat: number
  lon: number
  location: string | null
  location_desc: string | null
  photo: string | null
  cabinet_id: number | null
  cabinet_sn: string | null
  distance: number
}

/**
 * The AEDs of the scope usable now within `radius` metres of a point, nearest first: ready by the
 * engine (in use is not ready), open at this hour by their opening hours, and their cabinet (when
 * they sit in one) online. What dispatch chooses from; a public display setting does not matter to
 * a trained responder.
 *
 * The nearest `limit` are read by walking installations_earth_idx in distance order within the box
 * (the cube distance `<->`, in the order of the distance on the ground), which stops once `limit`
 * have passed the checks (db/nearest.ts): in a city a 2.6 km box holds some 3,000 installations,
 * and sorting them all after their joins took 20-40 ms where the walk reads a few dozen. Ties on
 * the rounded distance are ordered by device after the walk, among the rows it found.
 */
export function readyAedsNear(
  db: DbOrTx,
  scope: Scope,
  at: { lat: number; lon: number },
  radius: number,
  now: LocalTime,
  limit: number,
) {
  const here = sql`ll_to_earth(${at.lat}, ${at.lon})`
  const there = sql`ll_to_earth(i.lat, i.lon)`
  return inDistanceOrder(db, (tx) =>
    many<ReadyAed>(
      tx,
      sql`SELECT * FROM (
          SELECT d.id AS device_id, d.device_sn, i.lat, i.lon, i.location, i.location_desc,
                 coalesce(i.chest_shot_img, i.long_shot_img) AS photo, c.id AS cabinet_id, c.cabinet_sn,
                 round(earth_distance(${there}, ${here}) * ${EARTH_SCALE})::int AS distance
          FROM installations i
          JOIN devices d ON d.id = i.device_id AND d.installation_id = i.id AND d.deleted_at IS NULL
          JOIN agencies g ON g.id = i.agency_id
          LEFT JOIN cabinets c ON c.device_id = d.id AND c.deleted_at IS NULL
          LEFT JOIN cabinet_states cs ON cs.cabinet_id = c.id
          WHERE i.removed_at IS NULL AND i.device_id IS NOT NULL
            AND earth_box(${here}, ${radius / EARTH_SCALE}) @> ${there}
            AND round(earth_distance(${there}, ${here}) * ${EARTH_SCALE}) <= ${radius}
            AND d.readiness = 'ready' AND ${openAt(now)}
            AND (c.id IS NULL OR cs.offline IS NOT TRUE)
            AND ${pathInScope(scope, sql`g.index_link`)}
          ORDER BY ${there} <-> ${here} LIMIT ${limit}) n
        ORDER BY n.distance, n.device_id`,
    ),
  )
}

/** Whether these devices are still usable now (an AED a responder was sent to fetch). */
export async function stillReady(db: DbOrTx, deviceIds: number[], now: LocalTime): Promise<Set<number>> {
  if (deviceIds.length === 0) return new Set()
  const rows = await many<{ id: number }>(
    db,
    sql`SELECT d.id FROM devices d
        JOIN installations i ON i.id = d.installation_id AND i.device_id = d.id AND i.removed_at IS NULL
        LEFT JOIN cabinets c ON c.device_id = d.id AND c.deleted_at IS NULL
        LEFT JOIN cabinet_states cs ON cs.cabinet_id = c.id
        WHERE d.id IN (${sql.join(
          deviceIds.map((id) => sql`${id}`),
          sql`, `,
        )}) AND d.deleted_at IS NULL AND d.readiness = 'ready' AND ${openAt(now)}
          AND (c.id IS NULL OR cs.offline IS NOT TRUE)`,
  )
  return new Set(rows.map((r) => r.id))
}
