import type { AlertRole, AlertState } from '@aed/contracts/dispatch'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { inDistanceOrder, EARTH_SCALE as SCALE } from '../../db/nearest.ts'
import { dispatchAlerts, dispatches, dispatchSteps } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { many, one } from '../../db/sql.ts'

const iso = (d: Date) => d.toISOString()

/** A dispatch row. */
export type DispatchRow = typeof dispatches.$inferSelect

/** What a dispatch starts from: a call, or a rescue no call explains. */
export type Origin = {
  call_id: number | null
  rescue_id: number | null
  agency_id: number
  index_link: string
  lat: number
  lon: number
  location: string
}

/** A call that needs a dispatch: open, with its place and owner. */
export function callOrigin(db: DbOrTx, callId: number) {
  return one<Origin & { status: number }>(
    db,
    sql`SELECT id AS call_id, NULL::bigint AS rescue_id, agency_id, index_link, lat, lon, location, status
        FROM call_events WHERE id = ${callId}`,
  )
}

/**
 * Rescues no call explains, of organisations that dispatch on them (dispatch_on_rescue 1): in
 * progress, started between `from` and `to`, with no dispatch, no call linked, and no open call
 * within 1,000 m in the half hour before (the link job may not have run yet).
 */
export function unexplainedRescues(db: DbOrTx, from: Date, to: Date, limit: number) {
  return many<Origin>(
    db,
    sql`SELECT NULL::bigint AS call_id, r.id AS rescue_id, r.agency_id, r.index_link,
               coalesce(r.event_lat, i.lat) AS lat, coalesce(r.event_lon, i.lon) AS lon,
               coalesce(r.event_location, i.location, '') AS location
        FROM rescue_events r
        LEFT JOIN installations i ON i.id = r.installation_id
        JOIN agency_settings st ON st.agency_id = r.agency_id
        WHERE r.event_time BETWEEN ${iso(from)}::timestamptz AND ${iso(to)}::timestamptz AND r.ended_at IS NULL
          AND (st.config->>'dispatch_on_rescue') = '1'
          AND coalesce(r.event_lat, i.lat) IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM dispatches d WHERE d.rescue_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM call_events c WHERE c.rescue_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM call_events c WHERE c.status = 1
                          AND c.call_time BETWEEN r.event_time - interval '30 minutes' AND r.event_time
                          AND earth_distance(ll_to_earth(c.lat, c.lon),
                                ll_to_earth(coalesce(r.event_lat, i.lat), coalesce(r.event_lon, i.lon))) <= 1000)
        ORDER BY r.event_time LIMIT ${limit}`,
  )
}

/** Writes a dispatch once per call or rescue; null when one exists already. */
export async function insertDispatch(
  db: DbOrTx,
  o: Origin,
  settings: Record<string, unknown>,
  nextPhaseAt: Date,
  now: Date,
) {
  const [row] = await db
    .insert(dispatches)
    .values({
      call_id: o.call_id,
      rescue_id: o.rescue_id,
      agency_id: o.agency_id,
      index_link: o.index_link,
      lat: o.lat,
      lon: o.lon,
      settings,
      next_phase_at: nextPhaseAt,
      create_time: now,
    })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

/**
 * A dispatch locked for this transaction: one transaction acts on a dispatch at a time. The jobs
 * skip one that is locked (null: the next tick takes it); a responder's action waits its turn. NO
 * KEY UPDATE: writing an alert or a step (rows referring to the dispatch) must not block it.
 */
export function lockDispatch(db: DbOrTx, id: number, wait = false) {
  return one<DispatchRow>(
    db,
    sql`SELECT * FROM dispatches WHERE id = ${id} FOR NO KEY UPDATE ${wait ? sql`` : sql`SKIP LOCKED`}`,
  )
}

/** The dispatch of a call (for the dispatcher). */
export function dispatchOfCall(db: DbOrTx, callId: number) {
  return one<DispatchRow>(db, sql`SELECT * FROM dispatches WHERE call_id = ${callId}`)
}

/**
 * Responders of the scope (and approved public volunteers while 后台配置's
 * call_event_notify_aid_volunteer is 1) who may be alerted now within `radius` metres of a point,
 * nearest first: not paused, a professional's certificate valid on `today`, not alerted by this dispatch
 * yet, and not busy with another open dispatch's accepted alert. Where they are: their shared
 * position when it is fresher than `freshSince`, else their resident address.
 *
 * The nearest `limit` at home and the nearest `limit` by a fresh position are each read by a walk
 * in distance order within the box (db/nearest.ts: accounts_earth_idx, and responders_position_idx
 * of 0029), which stops once `limit` have passed the checks: in a city a 2 km box holds some 350
 * homes, each joined and checked before a sort (13-22 ms under load), where the walk reads a few.
 * The nearest of both go.
 */
export function candidates(
  db: DbOrTx,
  scope: Scope,
  at: { lat: number; lon: number },
  radius: number,
  q: { dispatchId: number; today: string; freshSince: Date; limit: number },
) {
  const here = sql`ll_to_earth(${at.lat}, ${at.lon})`
  const box = sql`earth_box(${here}, ${radius / SCALE})`
  const home = sql`ll_to_earth(a.lat, a.lon)`
  const shared = sql`ll_to_earth(r.last_lat, r.last_lon)`
  const fresh = sql`${iso(q.freshSince)}::timestamptz`
  // The checks of a responder `r` of agency `g`.
  // Approved public volunteers (issue 27) answer any call near them while 后台配置 says so, and
  // only then, whoever's the call (they are the system organisation's, above every call).
  const volunteers = sql`(r.volunteer AND EXISTS (SELECT 1 FROM backend_config WHERE call_event_notify_aid_volunteer = 1))`
  const dispatchable = sql`((${pathInScope(scope, sql`g.index_link`)} AND NOT r.volunteer) OR ${volunteers}) AND NOT r.paused
        AND NOT (r.aid_aptitude = 1 AND (r.certificate_expire IS NULL OR r.certificate_expire < ${q.today}::date))
        AND NOT EXISTS (SELECT 1 FROM dispatch_alerts x WHERE x.dispatch_id = ${q.dispatchId} AND x.responder_id = r.id)
        AND NOT EXISTS (SELECT 1 FROM dispatch_alerts x JOIN dispatches d ON d.id = x.dispatch_id
                        WHERE x.responder_id = r.id AND x.state IN ('accepted', 'arrived') AND d.state <> 'closed')`
  return inDistanceOrder(db, (tx) =>
    many<{ responder_id: number; lat: number; lon: number; distance: number }>(
      tx,
      sql`
      WITH at_home AS (
        SELECT r.id AS responder_id, a.lat, a.lon
        FROM accounts a JOIN responders r ON r.account_id = a.id JOIN agencies g ON g.id = r.agency_id
        WHERE a.lat IS NOT NULL AND a.lon IS NOT NULL AND ${box} @> ${home}
          AND earth_distance(${home}, ${here}) * ${SCALE} <= ${radius}
          AND (r.located_at IS NULL OR r.located_at < ${fresh}) AND ${dispatchable}
        ORDER BY ${home} <-> ${here} LIMIT ${q.limit}
      ),
      located AS (
        SELECT r.id AS responder_id, r.last_lat AS lat, r.last_lon AS lon
        FROM responders r JOIN agencies g ON g.id = r.agency_id
        WHERE r.located_at >= ${fresh} AND ${box} @> ${shared}
          AND earth_distance(${shared}, ${here}) * ${SCALE} <= ${radius} AND ${dispatchable}
        ORDER BY ${shared} <-> ${here} LIMIT ${q.limit}
      )
      SELECT responder_id, lat, lon, round(earth_distance(ll_to_earth(lat, lon), ${here}) * ${SCALE})::int AS distance
      FROM (SELECT * FROM at_home UNION ALL SELECT * FROM located) p
      ORDER BY distance, responder_id LIMIT ${q.limit}`,
    ),
  )
}

/** A new alert. */
export type NewAlert = {
  dispatch_id: number
  responder_id: number
  token_hash: string
  role: AlertRole
  device_id: number | null
  distance: number
  eta_s: number
  alerted_at: Date
  answer_due_at: Date
}

/** Writes alerts; a responder already alerted by this dispatch is skipped (answers the written ones). */
export function insertAlerts(db: DbOrTx, rows: NewAlert[]) {
  if (rows.length === 0) return Promise.resolve([])
  return db.insert(dispatchAlerts).values(rows).onConflictDoNothing().returning({
    id: dispatchAlerts.id,
    responder_id: dispatchAlerts.responder_id,
    role: dispatchAlerts.role,
  })
}

/** Whether a responder holds an accepted (or arrived) alert of another open dispatch. */
export async function busyElsewhere(db: DbOrTx, responderId: number, dispatchId: number) {
  const row = await one<{ id: number }>(
    db,
    sql`SELECT x.id FROM dispatch_alerts x JOIN dispatches d ON d.id = x.dispatch_id
        WHERE x.responder_id = ${responderId} AND x.dispatch_id <> ${dispatchId}
          AND x.state IN ('accepted', 'arrived') AND d.state <> 'closed' LIMIT 1`,
  )
  return row !== null
}

/** Alerts of a dispatch by state (counts and the AEDs they hold). */
export function alertsOf(db: DbOrTx, dispatchId: number) {
  return many<{
    id: number
    responder_id: number
    role: AlertRole
    device_id: number | null
    state: AlertState
    unlocked_at: Date | null
  }>(
    db,
    sql`SELECT id, responder_id, role, device_id, state, unlocked_at FROM dispatch_alerts WHERE dispatch_id = ${dispatchId}`,
  )
}

/** Writes steps of a dispatch (the timeline); answers their ids. */
export async function insertSteps(
  db: DbOrTx,
  rows: { dispatch_id: number; alert_id?: number | null; kind: string; detail?: Record<string, unknown> }[],
  now: Date,
) {
  if (rows.length === 0) return []
  return db
    .insert(dispatchSteps)
    .values(rows.map((r) => ({ detail: {}, alert_id: null, ...r, time: now })))
    .returning({ id: dispatchSteps.id })
}

/** Marks alerts whose answer window passed as expired; answers them (locked dispatches skipped). */
export function expireDue(db: DbOrTx, now: Date, limit: number) {
  return many<{ id: number; dispatch_id: number }>(
    db,
    sql`UPDATE dispatch_alerts x SET state = 'expired'
        WHERE x.id IN (SELECT a.id FROM dispatch_alerts a WHERE a.state = 'alerted' AND a.answer_due_at <= ${iso(now)}::timestamptz
                       ORDER BY a.answer_due_at LIMIT ${limit} FOR NO KEY UPDATE SKIP LOCKED)
        RETURNING x.id, x.dispatch_id`,
  )
}

/** Running dispatches whose next phase is due. */
export function duePhases(db: DbOrTx, now: Date, limit: number) {
  return many<{ id: number }>(
    db,
    sql`SELECT id FROM dispatches WHERE state = 'running' AND next_phase_at <= ${iso(now)}::timestamptz
        ORDER BY next_phase_at LIMIT ${limit}`,
  )
}

/** Open dispatches whose call has closed. */
export function closedCalls(db: DbOrTx, limit: number) {
  return many<{ id: number }>(
    db,
    sql`SELECT d.id FROM dispatches d JOIN call_events c ON c.id = d.call_id
        WHERE d.state <> 'closed' AND c.status = 0 ORDER BY d.id LIMIT ${limit}`,
  )
}

/** Open dispatches with an AED-role alert still in play (for the readiness re-check). */
export function aedAlertsInPlay(db: DbOrTx, limit: number) {
  return many<{ id: number; dispatch_id: number; responder_id: number; device_id: number }>(
    db,
    sql`SELECT x.id, x.dispatch_id, x.responder_id, x.device_id FROM dispatch_alerts x
        JOIN dispatches d ON d.id = x.dispatch_id
        WHERE d.state <> 'closed' AND x.role = 'aed' AND x.device_id IS NOT NULL
          AND x.state IN ('alerted', 'accepted') ORDER BY x.id LIMIT ${limit}`,
  )
}

/** An alert by its link's token hash, with its dispatch, call and responder. */
export function alertByToken(db: DbOrTx, tokenHash: string) {
  return one<AlertView>(db, sql`${alertView} WHERE x.token_hash = ${tokenHash}`)
}

/** An alert by id, as the page sees it. */
export function alertById(db: DbOrTx, id: number) {
  return one<AlertView>(db, sql`${alertView} WHERE x.id = ${id}`)
}

/** What the responder's page and the actions read of an alert. */
export type AlertView = {
  id: number
  dispatch_id: number
  responder_id: number
  role: AlertRole
  state: AlertState
  device_id: number | null
  distance: number
  eta_s: number
  answer_due_at: Date
  unlocked_at: Date | null
  dispatch_state: 'running' | 'enough' | 'closed'
  call_id: number | null
  location: string
  lat: number
  lon: number
  call_time: Date
  description: string | null
  responder_name: string
  phone: string
  device_sn: string | null
  aed_lat: number | null
  aed_lon: number | null
  aed_location: string | null
  aed_location_desc: string | null
  aed_photo: string | null
  cabinet_id: number | null
  cabinet_sn: string | null
  accepted: number
  settings: Record<string, unknown>
}

const alertView = sql`
  SELECT x.id, x.dispatch_id, x.responder_id, x.role, x.state, x.device_id, x.distance, x.eta_s, x.answer_due_at,
         x.unlocked_at, d.state AS dispatch_state, d.call_id, d.settings,
         coalesce(c.location, re.event_location, ri.location, '') AS location, d.lat, d.lon,
         coalesce(c.call_time, re.event_time, d.create_time) AS call_time, c.description,
         a.name AS responder_name, a.phone,
         dv.device_sn, i.lat AS aed_lat, i.lon AS aed_lon, i.location AS aed_location, i.location_desc AS aed_location_desc,
         coalesce(i.chest_shot_img, i.long_shot_img) AS aed_photo, cb.id AS cabinet_id, cb.cabinet_sn,
         (SELECT count(*) FROM dispatch_alerts y WHERE y.dispatch_id = d.id AND y.state IN ('accepted', 'arrived')) AS accepted
  FROM dispatch_alerts x
  JOIN dispatches d ON d.id = x.dispatch_id
  LEFT JOIN call_events c ON c.id = d.call_id
  LEFT JOIN rescue_events re ON re.id = d.rescue_id
  LEFT JOIN installations ri ON ri.id = re.installation_id
  JOIN responders r ON r.id = x.responder_id JOIN accounts a ON a.id = r.account_id
  LEFT JOIN devices dv ON dv.id = x.device_id
  LEFT JOIN installations i ON i.id = dv.installation_id AND i.device_id = dv.id AND i.removed_at IS NULL
  LEFT JOIN cabinets cb ON cb.device_id = dv.id AND cb.deleted_at IS NULL`

/** Moves an alert from one of `from` to `to`, stamping `column`; false when it was not in `from`. */
export async function moveAlert(
  db: DbOrTx,
  id: number,
  from: readonly AlertState[],
  to: AlertState,
  column: 'answered_at' | 'arrived_at' | 'stood_down_at',
  now: Date,
) {
  const row = await one<{ id: number }>(
    db,
    sql`UPDATE dispatch_alerts SET state = ${to}, ${sql.raw(column)} = ${iso(now)}::timestamptz
        WHERE id = ${id} AND state IN (${sql.join(
          from.map((s) => sql`${s}`),
          sql`, `,
        )}) RETURNING id`,
  )
  return row !== null
}

/** Stands down every alert of a dispatch still in one of `from`; answers them. */
export function standDown(db: DbOrTx, dispatchId: number, from: readonly AlertState[], now: Date) {
  return many<{ id: number; responder_id: number; state: AlertState }>(
    db,
    sql`UPDATE dispatch_alerts SET state = 'stood_down', stood_down_at = ${iso(now)}::timestamptz
        WHERE dispatch_id = ${dispatchId} AND state IN (${sql.join(
          from.map((s) => sql`${s}`),
          sql`, `,
        )}) RETURNING id, responder_id, state`,
  )
}

/** The phones and names of responders (for their SMS). */
export function responderContacts(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return many<{ id: number; name: string; phone: string }>(
    db,
    sql`SELECT r.id, a.name, a.phone FROM responders r JOIN accounts a ON a.id = r.account_id
        WHERE r.id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  )
}

/** Sets a dispatch's state, phase and next phase time. */
export async function updateDispatch(
  db: DbOrTx,
  id: number,
  v: {
    state?: 'running' | 'enough' | 'closed'
    phase?: number
    next_phase_at?: Date | null
    closed_at?: Date
  },
) {
  const sets = [
    v.state ? sql`state = ${v.state}` : null,
    v.phase !== undefined ? sql`phase = ${v.phase}` : null,
    v.next_phase_at !== undefined
      ? sql`next_phase_at = ${v.next_phase_at ? iso(v.next_phase_at) : null}::timestamptz`
      : null,
    v.closed_at ? sql`closed_at = ${iso(v.closed_at)}::timestamptz` : null,
  ].filter((x) => x !== null)
  if (sets.length) await db.execute(sql`UPDATE dispatches SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`)
}

/** Replaces an alert's AED (or makes it a patient alert with none). */
export async function setAlertAed(
  db: DbOrTx,
  id: number,
  deviceId: number | null,
  distance: number,
  eta: number,
) {
  await db.execute(
    sql`UPDATE dispatch_alerts SET device_id = ${deviceId}, role = ${deviceId === null ? 'patient' : 'aed'},
          distance = ${distance}, eta_s = ${eta} WHERE id = ${id}`,
  )
}

/** Marks an alert's cabinet as told to unlock; false when it was already. */
export async function markUnlocked(db: DbOrTx, id: number, now: Date) {
  const row = await one<{ id: number }>(
    db,
    sql`UPDATE dispatch_alerts SET unlocked_at = ${iso(now)}::timestamptz WHERE id = ${id} AND unlocked_at IS NULL RETURNING id`,
  )
  return row !== null
}

/** Stores a responder's shared position (GCJ-02). */
export async function locateResponder(
  db: DbOrTx,
  responderId: number,
  at: { lat: number; lon: number },
  now: Date,
) {
  await db.execute(
    sql`UPDATE responders SET last_lat = ${at.lat}, last_lon = ${at.lon}, located_at = ${iso(now)}::timestamptz
        WHERE id = ${responderId}`,
  )
}

/** Everything the dispatcher's view of a dispatch needs: its alerts with people, AEDs and positions. */
export function alertsForView(db: DbOrTx, dispatchId: number) {
  return many<{
    id: number
    responder_id: number
    name: string
    phone: string
    role: AlertRole
    device_sn: string | null
    cabinet_sn: string | null
    state: AlertState
    distance: number
    eta_s: number
    alerted_at: Date
    answered_at: Date | null
    arrived_at: Date | null
    last_lat: number | null
    last_lon: number | null
    located_at: Date | null
    home_lat: number | null
    home_lon: number | null
    aed_lat: number | null
    aed_lon: number | null
  }>(
    db,
    sql`SELECT x.id, x.responder_id, a.name, a.phone, x.role, dv.device_sn, cb.cabinet_sn, x.state, x.distance, x.eta_s,
               x.alerted_at, x.answered_at, x.arrived_at, r.last_lat, r.last_lon, r.located_at,
               a.lat AS home_lat, a.lon AS home_lon, i.lat AS aed_lat, i.lon AS aed_lon
        FROM dispatch_alerts x JOIN responders r ON r.id = x.responder_id JOIN accounts a ON a.id = r.account_id
        LEFT JOIN devices dv ON dv.id = x.device_id
        LEFT JOIN installations i ON i.id = dv.installation_id AND i.device_id = dv.id AND i.removed_at IS NULL
        LEFT JOIN cabinets cb ON cb.device_id = dv.id AND cb.deleted_at IS NULL
        WHERE x.dispatch_id = ${dispatchId} ORDER BY x.id`,
  )
}

/** A dispatch's steps in order, with the responder's name when a step is an alert's. */
export function stepsOf(db: DbOrTx, dispatchId: number) {
  return many<{ kind: string; detail: Record<string, unknown>; time: Date; name: string | null }>(
    db,
    sql`SELECT s.kind, s.detail, s.time, a.name FROM dispatch_steps s
        LEFT JOIN dispatch_alerts x ON x.id = s.alert_id
        LEFT JOIN responders r ON r.id = x.responder_id LEFT JOIN accounts a ON a.id = r.account_id
        WHERE s.dispatch_id = ${dispatchId} ORDER BY s.id`,
  )
}
