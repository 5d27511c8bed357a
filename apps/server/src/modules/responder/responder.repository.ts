import type { DispatchState, ResponderChangeKind } from '@aed/contracts/responder'
import { eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { EARTH_SCALE } from '../../db/nearest.ts'
import { responderChanges, responders } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, insertOne, many, one, pageOf, paginate, updateOne } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'

/** A responder with its account (the person), organisation, and who created and last changed it. */
export type ResponderRow = {
  id: number
  account_id: number
  agency_id: number
  agency_name: string
  index_link: string
  aid_aptitude: number
  certificate_num: string | null
  certificate_expire: string | null
  certificate_img: string | null
  status: number
  paused: boolean
  pause_reason: string | null
  volunteer: boolean
  create_time: Date
  update_time: Date
  creator_name: string | null
  updator_name: string | null
  name: string
  phone: string
  email: string | null
  gender: number | null
  birth: string | null
  location: string | null
  location_desc: string | null
  address_code: string | null
  lat: number | null
  lon: number | null
}

const from = sql`FROM responders r JOIN accounts a ON a.id = r.account_id JOIN agencies g ON g.id = r.agency_id`
const select = sql`
  SELECT r.id, r.account_id, r.agency_id, g.name AS agency_name, g.index_link, r.aid_aptitude, r.certificate_num,
         r.certificate_expire, r.certificate_img, r.status, r.paused, r.pause_reason, r.volunteer, r.create_time,
         r.update_time, ca.name AS creator_name, ua.name AS updator_name,
         a.name, a.phone, a.email, a.gender, a.birth, a.location, a.location_desc, a.address_code, a.lat, a.lon
  ${from}
  LEFT JOIN members cm ON cm.id = r.creator LEFT JOIN accounts ca ON ca.id = cm.account_id
  LEFT JOIN members um ON um.id = r.updator LEFT JOIN accounts ua ON ua.id = um.account_id`
const scoped = (scope: Scope) => pathInScope(scope, sql`g.index_link`)

/** The list's sort fields (order_by), by name. */
const RESPONDER_ORDER = {
  name: sql`a.name`,
  birth: sql`a.birth`,
  certificate_expire: sql`r.certificate_expire`,
  create_time: sql`r.create_time`,
  update_time: sql`r.update_time`,
}

/** `today` is the organisations' date: certificate status and dispatch state are derived from it. */
const expired = (today: string) => sql`(r.aid_aptitude = 1 AND r.certificate_expire < ${today}::date)`

const DISPATCH: Record<DispatchState, (today: string) => SQL> = {
  paused: () => sql`r.paused`,
  certificate_expired: (today) => sql`(NOT r.paused AND ${expired(today)})`,
  ready: (today) => sql`(NOT r.paused AND NOT ${expired(today)})`,
}

/** The list's filters. */
export type ResponderFilter = {
  name?: string
  aid_aptitude?: number
  certificate_status?: number
  agency_id?: number
  dispatch_state?: DispatchState
  order_by?: string
}

/** Names are Chinese mostly: LIKE finds the same rows as ILIKE for them, without folding every name's case. */
const nameMatch = (name: string) =>
  name.toLowerCase() === name.toUpperCase()
    ? sql`a.name LIKE ${containsPattern(name)}`
    : sql`a.name ILIKE ${containsPattern(name)}`

function conditions(scope: Scope, f: ResponderFilter, today: string): SQL[] {
  const where: SQL[] = [scoped(scope)]
  if (f.name) where.push(nameMatch(f.name))
  if (f.aid_aptitude !== undefined) where.push(sql`r.aid_aptitude = ${f.aid_aptitude}`)
  if (f.certificate_status === 1)
    where.push(sql`r.aid_aptitude = 1 AND r.certificate_expire >= ${today}::date`)
  if (f.certificate_status === 0) where.push(expired(today))
  if (f.agency_id !== undefined) where.push(sql`r.agency_id = ${f.agency_id}`)
  if (f.dispatch_state) where.push(DISPATCH[f.dispatch_state](today))
  return where
}

/** The sort fields that read the person (the account): the page's ids need it joined then. */
const ACCOUNT_ORDER = new Set(['name', 'birth'])

/**
 * One page of the responders in the scope, filtered and sorted in the database. The page's ids
 * are chosen from the register and the organisations alone (the accounts only when the name is
 * filtered or sorted on), and only those rows are joined to their people and names: a deep page
 * then sorts ids, not 20,000 joined rows.
 */
export function listPage(
  db: DbOrTx,
  scope: Scope,
  f: ResponderFilter & { page: number; page_size: number },
  today: string,
) {
  const orderBy = sql.join(orderTerms(f.order_by, RESPONDER_ORDER, [sql`r.id DESC`]), sql`, `)
  const where = sql.join(conditions(scope, f, today), sql` AND `)
  const people = f.name || ACCOUNT_ORDER.has((f.order_by ?? '').replace(/^-/, ''))
  const base = sql`FROM responders r JOIN agencies g ON g.id = r.agency_id
    ${people ? sql`JOIN accounts a ON a.id = r.account_id` : sql``} WHERE ${where}`
  return paginate(
    f,
    (limit, offset) =>
      many<ResponderRow>(
        db,
        sql`${select} JOIN (SELECT r.id ${base} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}) p ON p.id = r.id
            ORDER BY ${orderBy}`,
      ),
    async () => (await one<{ n: number }>(db, sql`SELECT count(*) AS n ${base}`))?.n ?? 0,
  )
}

/** Every matching responder (the export), in the list's order, at most `limit`. */
export function listAll(db: DbOrTx, scope: Scope, f: ResponderFilter, today: string, limit: number) {
  const orderBy = orderTerms(f.order_by, RESPONDER_ORDER, [sql`r.id DESC`])
  return many<ResponderRow>(
    db,
    sql`${select} WHERE ${sql.join(conditions(scope, f, today), sql` AND `)}
        ORDER BY ${sql.join(orderBy, sql`, `)} LIMIT ${limit}`,
  )
}

/** How many responders match (to refuse an export past its limit before building it). */
export async function countMatching(db: DbOrTx, scope: Scope, f: ResponderFilter, today: string) {
  const row = await one<{ n: number }>(
    db,
    sql`SELECT count(*) AS n ${from} WHERE ${sql.join(conditions(scope, f, today), sql` AND `)}`,
  )
  return row?.n ?? 0
}

/** A responder, only when its organisation lies in the scope. */
export function findInScope(db: DbOrTx, scope: Scope, id: number) {
  return one<ResponderRow>(db, sql`${select} WHERE r.id = ${id} AND ${scoped(scope)}`)
}

/** The register entry of an account, wherever it is (one per person in the network). */
export async function findByAccount(db: DbOrTx, accountId: number) {
  const [row] = await db
    .select({ id: responders.id })
    .from(responders)
    .where(eq(responders.account_id, accountId))
  return row ?? null
}

/** Registered responders of the scope holding one of these certificate numbers (other than `exceptId`). */
export async function takenCertificates(
  db: DbOrTx,
  scope: Scope,
  nums: string[],
  exceptId: number | null = null,
) {
  if (nums.length === 0) return new Set<string>()
  const rows = await many<{ certificate_num: string }>(
    db,
    sql`SELECT r.certificate_num FROM responders r JOIN agencies g ON g.id = r.agency_id
        WHERE r.certificate_num IN (${sql.join(
          nums.map((n) => sql`${n}`),
          sql`, `,
        )}) AND ${scoped(scope)} ${exceptId === null ? sql`` : sql`AND r.id <> ${exceptId}`}`,
  )
  return new Set(rows.map((r) => r.certificate_num))
}

/** Accounts of these phones that already hold a register entry, or belong to an organisation outside the scope. */
export async function phonesInUse(db: DbOrTx, scope: Scope, phones: string[]) {
  if (phones.length === 0) return { registered: new Set<string>(), elsewhere: new Set<string>() }
  const list = sql.join(
    phones.map((p) => sql`${p}`),
    sql`, `,
  )
  const rows = await many<{ phone: string; registered: boolean; elsewhere: boolean }>(
    db,
    sql`SELECT a.phone,
          EXISTS (SELECT 1 FROM responders r WHERE r.account_id = a.id) AS registered,
          EXISTS (SELECT 1 FROM members m JOIN agencies g ON g.id = m.agency_id
                  WHERE m.account_id = a.id AND NOT ${scoped(scope)}) AS elsewhere
        FROM accounts a WHERE a.phone IN (${list})`,
  )
  return {
    registered: new Set(rows.filter((r) => r.registered).map((r) => r.phone)),
    elsewhere: new Set(rows.filter((r) => r.elsewhere).map((r) => r.phone)),
  }
}

export const insertResponder = (db: DbOrTx, values: typeof responders.$inferInsert) =>
  insertOne(db, responders, values)

export const updateResponder = (db: DbOrTx, id: number, values: Partial<typeof responders.$inferInsert>) =>
  updateOne(db, responders, id, values)

/** Gives an account without a place the one a volunteer guards (the profile is otherwise left alone). */
export async function fillAccountPlace(
  db: DbOrTx,
  accountId: number,
  p: { location: string; lat: number | null; lon: number | null },
) {
  if (p.lat === null || p.lon === null) return
  await db.execute(
    sql`UPDATE accounts SET lat = ${p.lat}, lon = ${p.lon}, location = coalesce(location, ${p.location})
        WHERE id = ${accountId} AND (lat IS NULL OR lon IS NULL)`,
  )
}

export async function deleteResponder(db: DbOrTx, id: number) {
  await db.delete(responders).where(eq(responders.id, id))
}

/** A line of a responder's history. */
export type NewChange = {
  responder_id: number
  kind: ResponderChangeKind
  detail?: Record<string, unknown>
  cert_expire?: string | null
  operator_id?: number | null
  operator?: string | null
}

/** Writes history lines; a system notice already written for the same expiry is skipped (answers the new ids). */
export async function insertChanges(db: DbOrTx, rows: NewChange[], now: Date) {
  if (rows.length === 0) return []
  return db
    .insert(responderChanges)
    .values(rows.map((r) => ({ detail: {}, ...r, create_time: now })))
    .onConflictDoNothing()
    .returning({ id: responderChanges.id, responder_id: responderChanges.responder_id })
}

/** One page of a responder's history, newest first. */
export function changesPage(db: DbOrTx, responderId: number, page: number, page_size: number) {
  return pageOf<{
    id: number
    kind: ResponderChangeKind
    detail: Record<string, unknown>
    operator: string | null
    create_time: Date
  }>(db, {
    select: sql`SELECT c.id, c.kind, c.detail, c.operator, c.create_time FROM responder_changes c`,
    from: sql`FROM responder_changes c`,
    where: [sql`c.responder_id = ${responderId}`],
    orderBy: [sql`c.id DESC`],
    page,
    page_size,
  })
}

/**
 * The dashboard's layer: responders of the scope with a place, in the region, at most `limit` (and
 * one more, to tell there were more; which ones is the database's choice: no sort of 20,000 rows).
 * The points come as JSON text, `[id,lon,lat,aptitude,state,name]` joined by commas without the
 * brackets, written by string_agg: a province's 20,000 points cost more to carry out of the
 * database as values (and to check and serialise again) than to find. The dispatch state (0 ready,
 * 1 paused, 2 certificate expired) is derived here, on `today`.
 */
export async function locationsJson(
  db: DbOrTx,
  scope: Scope,
  prefix: string | null,
  today: string,
  limit: number,
) {
  // Region prefixes are digits only (regionPrefix of a validated code): no LIKE escaping needed.
  const region = prefix ? sql`AND a.address_code LIKE ${`${prefix}%`}` : sql``
  // Every part is non-null (a null would drop the point from string_agg); the ranges keep NaN out.
  const point = sql`'[' || r.id || ',' || a.lon || ',' || a.lat || ',' || r.aid_aptitude || ','
    || CASE WHEN r.paused THEN 1 WHEN ${expired(today)} THEN 2 ELSE 0 END || ',' || to_json(a.name) || ']'`
  const row = await one<{ total: number; points: string | null }>(
    db,
    sql`SELECT count(*) AS total, string_agg(p, ',') AS points
        FROM (SELECT ${point} AS p ${from}
              WHERE ${scoped(scope)} AND a.lat BETWEEN -90 AND 90 AND a.lon BETWEEN -180 AND 180 ${region}
              LIMIT ${limit + 1}) x`,
  )
  return { total: Number(row?.total ?? 0), points: row?.points ?? '' }
}

/** A professional whose certificate needs a notice today: reminded before expiry, or told it expired. */
export type CertificateDue = {
  id: number
  agency_id: number
  index_link: string
  agency_name: string
  name: string
  phone: string
  certificate_num: string | null
  certificate_expire: string
}

/** The notice a certificate needs on `today`: expired, or reminded 7 or 30 days before. */
const noticeKind = (today: string) => sql`CASE WHEN r.certificate_expire < ${today}::date THEN 'expired'
  WHEN r.certificate_expire <= ${today}::date + 7 THEN 'reminded_7' ELSE 'reminded_30' END`

/**
 * Professionals whose certificate needs a notice today that it has not had for this expiry: it
 * expires within 30 days, or has expired. A renewal moves the expiry, so notices start afresh.
 */
export function certificatesDue(db: DbOrTx, today: string, limit: number) {
  return many<CertificateDue & { kind: 'expired' | 'reminded_7' | 'reminded_30' }>(
    db,
    sql`SELECT * FROM (
          SELECT r.id, r.agency_id, g.index_link, g.name AS agency_name, a.name, a.phone, r.certificate_num,
                 r.certificate_expire, ${noticeKind(today)} AS kind
          FROM responders r JOIN accounts a ON a.id = r.account_id JOIN agencies g ON g.id = r.agency_id
          WHERE r.aid_aptitude = 1 AND r.certificate_expire <= ${today}::date + 30) d
        WHERE NOT EXISTS (SELECT 1 FROM responder_changes c
                          WHERE c.responder_id = d.id AND c.kind = d.kind AND c.cert_expire = d.certificate_expire)
        ORDER BY d.id LIMIT ${limit}`,
  )
}

/** Responders of the scope whose resident point lies within `radius` metres of a point, nearest first. */
export function near(
  db: DbOrTx,
  scope: Scope,
  at: { lat: number; lon: number },
  radius: number,
  limit: number,
) {
  const here = sql`ll_to_earth(${at.lat}, ${at.lon})`
  return many<{
    id: number
    name: string
    lon: number
    lat: number
    distance: number
    aid_aptitude: number
    paused: boolean
    certificate_expire: string | null
  }>(
    db,
    sql`SELECT * FROM (
          SELECT r.id, a.name, a.lon, a.lat, r.aid_aptitude, r.paused, r.certificate_expire,
                 round(earth_distance(ll_to_earth(a.lat, a.lon), ${here}) * ${EARTH_SCALE})::int AS distance
          ${from}
          WHERE ${scoped(scope)} AND a.lat IS NOT NULL AND a.lon IS NOT NULL
            AND earth_box(${here}, ${radius / EARTH_SCALE}) @> ll_to_earth(a.lat, a.lon)) n
        WHERE n.distance <= ${radius} ORDER BY n.distance, n.id LIMIT ${limit}`,
  )
}
