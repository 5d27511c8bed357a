import { DUPLICATE_RADIUS_M, DUPLICATE_SIMILARITY, type Duplicate } from '@aed/contracts/review'
import { eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { EARTH_SCALE } from '../../db/nearest.ts'
import { backendConfig, thirdPartyAeds, volunteers } from '../../db/schema.ts'
import { containsPattern, many, one, type PageRequest, paginate, updateOne } from '../../db/sql.ts'

/** The review columns both kinds share, as read. */
type ReviewRow = {
  id: number
  submitter_name: string
  submitter_phone: string
  audit_status: number
  rejected_reason: string | null
  audit_time: Date | null
  auditor: string | null
  config_id: number | null
  agency_id: number | null
  source: string | null
  index_link: string | null
  duplicates: Duplicate[]
  create_time: Date
}

export type VolunteerRow = ReviewRow & {
  guard_area: string
  has_cert: number
  cert_img: string | null
  lat: number | null
  lon: number | null
  responder_id: number | null
  responder_created: boolean
}

export type ThirdPartyRow = ReviewRow & {
  brand: string
  location: string
  location_desc: string | null
  address_code: string | null
  lat: number
  lon: number
  install_imgs: string[]
  device_sn: string | null
}

const sourceJoin = sql`LEFT JOIN agencies g ON g.id = t.agency_id`
const sourceCols = sql`g.name AS source, g.index_link`

const volunteerSelect = sql`SELECT t.*, ${sourceCols} FROM volunteers t ${sourceJoin}`
const thirdPartySelect = sql`SELECT t.*, ${sourceCols} FROM third_party_aeds t ${sourceJoin}`

/** Names are Chinese mostly: LIKE finds the same rows as ILIKE for them, without folding every name's case. */
const nameMatch = (name: string) =>
  name.toLowerCase() === name.toUpperCase()
    ? sql`t.submitter_name LIKE ${containsPattern(name)}`
    : sql`t.submitter_name ILIKE ${containsPattern(name)}`

const newestFirst = sql.raw('DESC')
const oldestFirst = sql.raw('ASC')

/**
 * One page of a tab, newest first (and the count when the page is full). The page's ids are chosen
 * from the table alone (a walk of its tab index, which carries the volunteer's name for the name
 * filter) and only those rows are read and joined to their source: joined before the limit, a
 * deep page sorted the whole tab (the last of 16,666 volunteers: 35 ms on PGlite). Past the middle
 * the page is read from the oldest end, as the call lists do: an offset is walked row by row.
 */
async function tabPage<T>(db: DbOrTx, table: SQL, where: SQL[], p: PageRequest) {
  const filter = sql.join(where, sql` AND `)
  const rows = (order: SQL, limit: number, offset: number) =>
    many<T>(
      db,
      sql`SELECT t.*, ${sourceCols}
          FROM (SELECT t.id FROM ${table} t WHERE ${filter} ORDER BY t.id ${order} LIMIT ${limit} OFFSET ${offset}) p
          JOIN ${table} t ON t.id = p.id ${sourceJoin}
          ORDER BY t.id DESC`,
    )
  const total = async () =>
    (await one<{ n: number }>(db, sql`SELECT count(*) AS n FROM ${table} t WHERE ${filter}`))?.n ?? 0
  if (p.page === 1) return paginate(p, (limit, offset) => rows(newestFirst, limit, offset), total)
  const count = await total()
  const offset = (p.page - 1) * p.page_size
  // The rows from this page's first to the oldest: fewer than those before it, walk those.
  const rest = count - offset
  if (rest <= 0) return { count, rows: [] as T[] }
  if (offset <= rest) return { count, rows: await rows(newestFirst, p.page_size, offset) }
  const n = Math.min(p.page_size, rest)
  return { count, rows: await rows(oldestFirst, n, rest - n) }
}

function volunteerFilter(q: { audit_status: number; name?: string; has_cert?: number }) {
  const where: SQL[] = [sql`t.audit_status = ${q.audit_status}`]
  if (q.name) where.push(nameMatch(q.name))
  if (q.has_cert !== undefined) where.push(sql`t.has_cert = ${q.has_cert}`)
  return where
}

/** A tab of volunteers, newest first (by id: by submission). */
export function volunteerPage(
  db: DbOrTx,
  q: { audit_status: number; name?: string; has_cert?: number; page: number; page_size: number },
) {
  return tabPage<VolunteerRow>(db, sql`volunteers`, volunteerFilter(q), q)
}

/** Every volunteer of a tab the filters match, newest first (the export), at most `limit`. */
export function volunteersAll(
  db: DbOrTx,
  q: { audit_status: number; name?: string; has_cert?: number },
  limit: number,
) {
  return many<VolunteerRow>(
    db,
    sql`${volunteerSelect} WHERE ${sql.join(volunteerFilter(q), sql` AND `)} ORDER BY t.id DESC LIMIT ${limit}`,
  )
}

function thirdPartyFilter(q: { audit_status: number; brand?: string }) {
  const where: SQL[] = [sql`t.audit_status = ${q.audit_status}`]
  if (q.brand) where.push(sql`t.brand = ${q.brand}`)
  return where
}

/** A tab of third-party AEDs, newest first. */
export function thirdPartyPage(
  db: DbOrTx,
  q: { audit_status: number; brand?: string; page: number; page_size: number },
) {
  return tabPage<ThirdPartyRow>(db, sql`third_party_aeds`, thirdPartyFilter(q), q)
}

export function thirdPartyAll(db: DbOrTx, q: { audit_status: number; brand?: string }, limit: number) {
  return many<ThirdPartyRow>(
    db,
    sql`${thirdPartySelect} WHERE ${sql.join(thirdPartyFilter(q), sql` AND `)} ORDER BY t.id DESC LIMIT ${limit}`,
  )
}

/** One volunteer; `lock` holds it for a decision (FOR UPDATE). */
export function volunteerById(db: DbOrTx, id: number, lock = false) {
  return one<VolunteerRow>(
    db,
    lock
      ? sql`${volunteerSelect} WHERE t.id = ${id} FOR UPDATE OF t`
      : sql`${volunteerSelect} WHERE t.id = ${id}`,
  )
}

export function thirdPartyById(db: DbOrTx, id: number, lock = false) {
  return one<ThirdPartyRow>(
    db,
    lock
      ? sql`${thirdPartySelect} WHERE t.id = ${id} FOR UPDATE OF t`
      : sql`${thirdPartySelect} WHERE t.id = ${id}`,
  )
}

/** The phone's application in review, if any. */
export function volunteerInReview(db: DbOrTx, phone: string) {
  return one<VolunteerRow>(
    db,
    sql`${volunteerSelect} WHERE t.submitter_phone = ${phone} AND t.audit_status = 1`,
  )
}

export function thirdPartyInReview(db: DbOrTx, phone: string) {
  return one<ThirdPartyRow>(
    db,
    sql`${thirdPartySelect} WHERE t.submitter_phone = ${phone} AND t.audit_status = 1`,
  )
}

/** Inserts a submission; null when the phone's one-in-review index refused it (a race with its twin). */
export async function insertVolunteer(db: DbOrTx, values: typeof volunteers.$inferInsert) {
  const rows = await db
    .insert(volunteers)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: volunteers.id })
  return rows[0]?.id ?? null
}

export async function insertThirdParty(db: DbOrTx, values: typeof thirdPartyAeds.$inferInsert) {
  const rows = await db
    .insert(thirdPartyAeds)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: thirdPartyAeds.id })
  return rows[0]?.id ?? null
}

export const updateVolunteer = (db: DbOrTx, id: number, values: Partial<typeof volunteers.$inferInsert>) =>
  updateOne(db, volunteers, id, values)

export const updateThirdParty = (
  db: DbOrTx,
  id: number,
  values: Partial<typeof thirdPartyAeds.$inferInsert>,
) => updateOne(db, thirdPartyAeds, id, values)

export async function deleteVolunteer(db: DbOrTx, id: number) {
  await db.delete(volunteers).where(eq(volunteers.id, id))
}

export async function deleteThirdParty(db: DbOrTx, id: number) {
  await db.delete(thirdPartyAeds).where(eq(thirdPartyAeds.id, id))
}

/** A duplicate as stored: what the reviewer compares, photos included. */
type DuplicateDb = Omit<Duplicate, 'photos'> & { photos: string[] | null }

/**
 * Possible duplicates of a third-party AED: any AED of ours or approved third-party AED with the
 * same serial, and those within DUPLICATE_RADIUS_M whose place text is similar (pg_trgm): two
 * AEDs in one building are common, so distance alone never flags. The nearest walk of each GiST
 * index reads a handful of points; `exceptId` leaves the record itself out (an edit).
 */
export async function aedDuplicates(
  db: DbOrTx,
  at: { lat: number; lon: number; text: string; sn: string | null },
  exceptId: number | null = null,
): Promise<Duplicate[]> {
  const here = sql`ll_to_earth(${at.lat}, ${at.lon})`
  const box = sql`earth_box(${here}, ${DUPLICATE_RADIUS_M / EARTH_SCALE})`
  const dist = (p: SQL) => sql`round(earth_distance(${p}, ${here}) * ${EARTH_SCALE})::int`
  const sim = (t: SQL) => sql`round(similarity(${t}, ${at.text})::numeric, 2)::float8`
  const dev = sql`ll_to_earth(i.lat, i.lon)`
  const tp = sql`ll_to_earth(p.lat, p.lon)`
  const devText = sql`(i.location || ' ' || coalesce(i.location_desc, ''))`
  const tpText = sql`(p.location || ' ' || coalesce(p.location_desc, ''))`
  const sn = at.sn
  const rows = await many<DuplicateDb>(
    db,
    sql`
    WITH near_devices AS (
      SELECT d.id, d.device_sn AS sn, i.location AS label, ${dist(dev)} AS distance, ${sim(devText)} AS similarity,
             i.lat, i.lon, i.location_desc, jsonb_build_array(i.chest_shot_img, i.long_shot_img) AS photos
      FROM installations i JOIN devices d ON d.id = i.device_id AND d.installation_id = i.id AND d.deleted_at IS NULL
      WHERE i.removed_at IS NULL AND i.device_id IS NOT NULL AND ${box} @> ${dev}
      ORDER BY ${dev} <-> ${here} LIMIT 20
    ),
    near_third AS (
      SELECT p.id, p.device_sn AS sn, p.brand || ' ' || p.location AS label, ${dist(tp)} AS distance,
             ${sim(tpText)} AS similarity, p.lat, p.lon, p.location_desc, p.install_imgs AS photos
      FROM third_party_aeds p
      WHERE p.audit_status = 2 AND ${box} @> ${tp} AND p.id <> ${exceptId ?? 0}
      ORDER BY ${tp} <-> ${here} LIMIT 20
    )
    SELECT 'device' AS kind, id, sn, label, distance, similarity, 'place' AS reason, lat, lon, location_desc, photos
      FROM near_devices WHERE distance <= ${DUPLICATE_RADIUS_M} AND similarity >= ${DUPLICATE_SIMILARITY}
        AND (${sn}::text IS NULL OR sn <> ${sn})
    UNION ALL
    SELECT 'third_party', id, sn, label, distance, similarity, 'place', lat, lon, location_desc, photos
      FROM near_third WHERE distance <= ${DUPLICATE_RADIUS_M} AND similarity >= ${DUPLICATE_SIMILARITY}
        AND (${sn}::text IS NULL OR sn IS NULL OR sn <> ${sn})
    UNION ALL
    SELECT 'device', d.id, d.device_sn, coalesce(i.location, d.device_sn),
           CASE WHEN i.id IS NULL THEN NULL ELSE ${dist(dev)} END,
           CASE WHEN i.id IS NULL THEN NULL ELSE ${sim(devText)} END, 'sn', i.lat, i.lon, i.location_desc,
           CASE WHEN i.id IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(i.chest_shot_img, i.long_shot_img) END
      FROM devices d LEFT JOIN installations i ON i.id = d.installation_id AND i.removed_at IS NULL
      WHERE ${sn}::text IS NOT NULL AND d.device_sn = ${sn} AND d.deleted_at IS NULL
    UNION ALL
    SELECT 'third_party', p.id, p.device_sn, p.brand || ' ' || p.location, ${dist(tp)}, ${sim(tpText)}, 'sn',
           p.lat, p.lon, p.location_desc, p.install_imgs
      FROM third_party_aeds p
      WHERE ${sn}::text IS NOT NULL AND p.device_sn = ${sn} AND p.audit_status = 2 AND p.id <> ${exceptId ?? 0}`,
  )
  return rows
    .map((r) => ({
      ...r,
      photos: (r.photos ?? []).filter((p): p is string => typeof p === 'string' && p !== ''),
    }))
    .sort((a, b) =>
      a.reason === b.reason ? (a.distance ?? 0) - (b.distance ?? 0) : a.reason === 'sn' ? -1 : 1,
    )
}

/** The responder a volunteer's phone already is, if any: a duplicate the reviewer decides on. */
export function responderOfPhone(db: DbOrTx, phone: string) {
  return one<{
    id: number
    account_id: number
    name: string
    agency_name: string
    lat: number | null
    lon: number | null
    location_desc: string | null
    certificate_img: string | null
    volunteer: boolean
  }>(
    db,
    sql`SELECT r.id, r.account_id, a.name, g.name AS agency_name, a.lat, a.lon, a.location_desc, r.certificate_img,
               r.volunteer
        FROM accounts a JOIN responders r ON r.account_id = a.id JOIN agencies g ON g.id = r.agency_id
        WHERE a.phone = ${phone}`,
  )
}

/** The system organisation (the root of the tree): where reviewers sit and volunteers are registered. */
export function systemAgency(db: DbOrTx) {
  return one<{ id: number; name: string; index_link: string }>(
    db,
    sql`SELECT id, name, index_link FROM agencies WHERE agency_type = 0 ORDER BY length(index_link), id LIMIT 1`,
  )
}

/** 后台配置's row. */
export async function sysConfig(db: DbOrTx) {
  const [row] = await db.select().from(backendConfig)
  return (
    row ?? {
      id: true,
      call_event_notify_aid_volunteer: 0,
      xcx_display_third_party_aed: 0,
      updator: null,
      update_time: null,
    }
  )
}

export async function saveSysConfig(
  db: DbOrTx,
  values: { call_event_notify_aid_volunteer: number; xcx_display_third_party_aed: number; updator: string },
  now: Date,
) {
  await db
    .insert(backendConfig)
    .values({ id: true, ...values, update_time: now })
    .onConflictDoUpdate({ target: backendConfig.id, set: { ...values, update_time: now } })
}

/** An approved third-party AED near a point, for the nearby answer. */
export type NearThirdParty = {
  id: number
  device_sn: string | null
  brand: string
  lat: number
  lon: number
  location: string
  location_desc: string | null
  address_code: string | null
  install_imgs: string[]
  distance: number
}

/** Approved third-party AEDs within `radius` metres, nearest first, at most `limit`. */
export function thirdPartyNear(db: DbOrTx, at: { lat: number; lon: number }, radius: number, limit: number) {
  const here = sql`ll_to_earth(${at.lat}, ${at.lon})`
  const there = sql`ll_to_earth(p.lat, p.lon)`
  return many<NearThirdParty>(
    db,
    sql`SELECT * FROM (
          SELECT p.id, p.device_sn, p.brand, p.lat, p.lon, p.location, p.location_desc, p.address_code, p.install_imgs,
                 round(earth_distance(${there}, ${here}) * ${EARTH_SCALE})::int AS distance
          FROM third_party_aeds p
          WHERE p.audit_status = 2 AND earth_box(${here}, ${radius / EARTH_SCALE}) @> ${there}
          ORDER BY ${there} <-> ${here} LIMIT ${limit}) n
        WHERE n.distance <= ${radius} ORDER BY n.distance, n.id`,
  )
}

/** The dashboard layer's points of approved third-party AEDs in a region (a code prefix), newest first. */
export function thirdPartyPoints(db: DbOrTx, prefix: string | null, limit: number) {
  return many<{ id: number; lon: number; lat: number; brand: string; location: string }>(
    db,
    sql`SELECT id, lon, lat, brand, location FROM third_party_aeds
        WHERE audit_status = 2 ${prefix ? sql`AND address_code LIKE ${`${prefix}%`}` : sql``}
        ORDER BY id DESC LIMIT ${limit}`,
  )
}

/** Submissions of a kind by id (the webhooks of their outcome). */
export function reviewsByIds(db: DbOrTx, kind: 'volunteer' | 'third_party', ids: number[]) {
  const table = kind === 'volunteer' ? sql`volunteers` : sql`third_party_aeds`
  return many<
    Pick<
      VolunteerRow,
      | 'id'
      | 'submitter_name'
      | 'submitter_phone'
      | 'audit_status'
      | 'rejected_reason'
      | 'audit_time'
      | 'create_time'
    >
  >(
    db,
    sql`SELECT id, submitter_name, submitter_phone, audit_status, rejected_reason, audit_time, create_time
        FROM ${table} WHERE id = ANY(${sql.param(ids)}::bigint[])`,
  )
}
