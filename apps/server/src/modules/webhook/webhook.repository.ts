import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { disabledAtOrAbove } from '../../db/scope.ts'
import { many, one, pageOf } from '../../db/sql.ts'

// The webhook deliveries' SQL: the fan-out's subscriptions and inserts, the sender's leases and
// results, the endpoint's disabling, and the console's delivery log.

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`
/** A JSON array of records as a table (one parameter, the same on both drivers, nulls kept). */
const records = (rows: object[], columns: SQL) =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(${columns})`

/** An event the fan-out looks for subscribers of: its index, the service it needs, where it happened. */
export type Wanted = { i: number; service: string; index_link: string }

/**
 * For each event, the configurations that subscribe to it: enabled, with a push URL not
 * disabled, the event's service, and an organisation whose subtree holds the event's and that
 * is not disabled itself or above. One statement for the whole batch.
 */
export function subscriptions(tx: DbOrTx, wanted: Wanted[]) {
  if (wanted.length === 0) return Promise.resolve([])
  return many<{ i: number; config_id: number }>(
    tx,
    sql`SELECT r.i, c.id AS config_id
        FROM ${records(wanted, sql`i int, service text, index_link text`)}
        JOIN app_service_configs c ON c.state = 1 AND c.push_url IS NOT NULL
          AND c.push_disabled_reason IS NULL AND c.service ? r.service
        JOIN agencies a ON a.id = c.agency_id
        WHERE r.index_link LIKE a.index_link || '%' AND NOT ${disabledAtOrAbove(sql`a.index_link`)}`,
  )
}

/** A rescue as the webhook presents it. */
export type RescueRow = {
  id: number
  sn: string
  agency_id: number
  event_time: Date
  ended_at: Date | null
  lat: number | null
  lon: number | null
  address: string | null
  cabinet_sn: string | null
}

export function rescuesByIds(tx: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return many<RescueRow>(
    tx,
    sql`SELECT r.id, d.device_sn AS sn, r.agency_id, r.event_time, r.ended_at, r.event_lat AS lat,
          r.event_lon AS lon, r.event_location AS address, c.cabinet_sn
        FROM rescue_events r JOIN devices d ON d.id = r.device_id
        LEFT JOIN cabinets c ON c.id = r.cabinet_id
        WHERE r.id = ANY(${sql.param(ids)}::bigint[])`,
  )
}

/** A cabinet door alarm as the webhook presents it. */
export type DoorAlarmRow = {
  id: number
  cabinet_sn: string
  sn: string | null
  agency_id: number
  opened_at: Date
  closed_at: Date | null
  lat: number | null
  lon: number | null
}

export function doorAlarmsByIds(tx: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return many<DoorAlarmRow>(
    tx,
    sql`SELECT e.id, c.cabinet_sn, d.device_sn AS sn, e.agency_id, e.opened_at, e.closed_at, c.lat, c.lon
        FROM cabinet_door_events e JOIN cabinets c ON c.id = e.cabinet_id
        LEFT JOIN devices d ON d.id = e.device_id
        WHERE e.id = ANY(${sql.param(ids)}::bigint[])`,
  )
}

/** A delivery to write: one event for one endpoint. */
export type NewDelivery = {
  config_id: number
  event: string
  event_key: string
  event_time: string
  payload: Record<string, unknown>
  /** When the event was committed (the outbox row's time): the lag is measured from it. */
  create_time: string
}

/**
 * Writes deliveries, due now; one that exists (a re-drain) is left as it is. Answers how many
 * were new. The caller holds the lock that orders them (webhook.fanout.ts).
 */
export async function insertDeliveries(tx: DbOrTx, rows: NewDelivery[], now: Date) {
  if (rows.length === 0) return 0
  const r = await one<{ n: number }>(
    tx,
    sql`WITH ins AS (
          INSERT INTO webhook_deliveries (config_id, event, event_key, event_time, payload, next_at, create_time)
          SELECT r.config_id, r.event, r.event_key, r.event_time, r.payload, ${iso(now)}, r.create_time
          FROM ${records(rows, sql`config_id bigint, event text, event_key text, event_time timestamptz, payload jsonb, create_time timestamptz`)}
          ORDER BY r.create_time
          ON CONFLICT (config_id, event_key) DO NOTHING
          RETURNING 1)
        SELECT count(*) AS n FROM ins`,
  )
  return r?.n ?? 0
}

/**
 * How far down an endpoint's pending deliveries a lease is looked for. A lease covers a prefix of
 * them (at most the sender's 250), so looking at the first 500 finds it even after resends put
 * older ones in front, and costs the same however long the backlog is (a receiver down for
 * hours): a look at every pending row made each lease slower as the backlog grew.
 */
const LEASED_WINDOW = 500

/** SQL: one of the endpoint's deliveries is leased now (an instance is sending to it). */
const leasedNow = (configId: SQL, now: Date) =>
  sql`EXISTS (SELECT 1 FROM (SELECT l.leased_until FROM webhook_deliveries l
        WHERE l.config_id = ${configId} AND l.state = 'pending' ORDER BY l.id LIMIT ${LEASED_WINDOW}) l
      WHERE l.leased_until > ${iso(now)})`

/** An endpoint the sender leased, with what it needs to send. */
export type EndpointRow = {
  config_id: number
  agency_id: number
  index_link: string
  push_url: string
  push_secret: string
}

/** A leased delivery, its body as the text that is signed and sent. */
export type LeasedRow = {
  id: number
  config_id: number
  event: string
  body: string
  attempts: number
  next_at: Date
  first_failed_at: Date | null
  create_time: Date
}

/**
 * Takes endpoints whose oldest pending delivery is due and none of whose deliveries is leased
 * (an instance is sending them), oldest due first, and locks their configuration rows until the
 * transaction ends: another instance skips them (SKIP LOCKED) instead of leasing the same ones.
 * NO KEY UPDATE: the fan-out's inserts (which take KEY SHARE) do not wait for it.
 */
export function lockDueEndpoints(tx: DbOrTx, now: Date, limit: number, exclude: number[]) {
  return many<EndpointRow>(
    tx,
    sql`SELECT c.id AS config_id, c.agency_id, a.index_link, c.push_url, c.push_secret
        FROM app_service_configs c
        JOIN agencies a ON a.id = c.agency_id
        CROSS JOIN LATERAL (
          SELECT h.next_at FROM webhook_deliveries h
          WHERE h.config_id = c.id AND h.state = 'pending' ORDER BY h.id LIMIT 1) head
        WHERE c.state = 1 AND c.push_url IS NOT NULL AND c.push_secret IS NOT NULL
          AND c.push_disabled_reason IS NULL AND NOT ${disabledAtOrAbove(sql`a.index_link`)}
          AND head.next_at <= ${iso(now)}
          AND NOT ${leasedNow(sql`c.id`, now)}
          AND NOT (c.id = ANY(${sql.param(exclude)}::bigint[]))
        ORDER BY head.next_at, c.id LIMIT ${limit}
        FOR NO KEY UPDATE OF c SKIP LOCKED`,
  )
}

/**
 * A delivery's body as sent: type, timestamp, data in that order (jsonb keeps keys in its own
 * order; the Standard Webhooks envelope reads better in this one).
 */
const BODY = sql`'{"type":' || coalesce((d.payload->'type')::text, 'null')
  || ',"timestamp":' || coalesce((d.payload->'timestamp')::text, 'null')
  || ',"data":' || coalesce((d.payload->'data')::text, 'null') || '}'`

/**
 * The first pending deliveries of locked endpoints, in order, unless one of the endpoint's is
 * leased now: read again in a statement of its own, so a lease another instance committed
 * after this transaction's first statement began is seen.
 */
export function pendingHeads(tx: DbOrTx, configIds: number[], now: Date, perEndpoint: number) {
  return many<LeasedRow>(
    tx,
    sql`SELECT d.id, d.config_id, d.event, ${BODY} AS body, d.attempts, d.next_at, d.first_failed_at,
          d.create_time
        FROM unnest(${sql.param(configIds)}::bigint[]) AS cid(id)
        CROSS JOIN LATERAL (
          SELECT * FROM webhook_deliveries d
          WHERE d.config_id = cid.id AND d.state = 'pending' ORDER BY d.id LIMIT ${perEndpoint}) d
        WHERE NOT ${leasedNow(sql`cid.id`, now)}
        ORDER BY d.config_id, d.id`,
  )
}

/** Leases deliveries until `until`. */
export async function lease(tx: DbOrTx, ids: number[], until: Date) {
  if (ids.length === 0) return
  await tx.execute(
    sql`UPDATE webhook_deliveries SET leased_until = ${iso(until)} WHERE id = ANY(${sql.param(ids)}::bigint[])`,
  )
}

/** What one attempt left: the delivery's new state. */
export type AttemptResult = {
  id: number
  state: 'pending' | 'delivered' | 'failed'
  attempts: number
  next_at: string
  first_failed_at: string | null
  last_attempt_at: string
  last_status: number | null
  last_error: string | null
  last_duration_ms: number
  delivered_at: string | null
}

/** Records attempts in one statement, and lets the leased ones not tried go (still pending, in order). */
export async function recordAttempts(tx: DbOrTx, results: AttemptResult[], untried: number[]) {
  if (results.length) {
    await tx.execute(
      sql`UPDATE webhook_deliveries d SET state = r.state, attempts = r.attempts, next_at = r.next_at,
            first_failed_at = r.first_failed_at, leased_until = NULL, last_attempt_at = r.last_attempt_at,
            last_status = r.last_status, last_error = r.last_error, last_duration_ms = r.last_duration_ms,
            delivered_at = r.delivered_at
          FROM ${records(
            results,
            sql`id bigint, state text, attempts int, next_at timestamptz, first_failed_at timestamptz,
                last_attempt_at timestamptz, last_status smallint, last_error text, last_duration_ms int,
                delivered_at timestamptz`,
          )}
          WHERE d.id = r.id`,
    )
  }
  if (untried.length) {
    await tx.execute(
      sql`UPDATE webhook_deliveries SET leased_until = NULL WHERE id = ANY(${sql.param(untried)}::bigint[])`,
    )
  }
}

/**
 * Disables an endpoint (gone or failing) unless it is already; its pending deliveries stay
 * pending, their failing time forgotten so the day is counted again once it is enabled. Answers
 * the configuration when this call disabled it.
 */
export async function disableEndpoint(tx: DbOrTx, configId: number, reason: 'gone' | 'failing', now: Date) {
  const row = await one<{ id: number; agency_id: number; push_url: string; index_link: string }>(
    tx,
    sql`UPDATE app_service_configs c SET push_disabled_reason = ${reason}, push_disabled_at = ${iso(now)}
        FROM agencies a
        WHERE c.id = ${configId} AND a.id = c.agency_id AND c.push_disabled_reason IS NULL
        RETURNING c.id, c.agency_id, c.push_url, a.index_link`,
  )
  if (row) {
    await tx.execute(
      sql`UPDATE webhook_deliveries SET first_failed_at = NULL WHERE config_id = ${configId} AND state = 'pending'`,
    )
  }
  return row
}

/**
 * The commit time of the oldest due delivery of the endpoints that may be sent to (the lag
 * gauge): an endpoint's oldest pending one, as deliveries go in order; one lookup per endpoint,
 * however long its backlog. Disabled endpoints wait by choice and are left out.
 */
export async function oldestDue(db: DbOrTx, now: Date) {
  const r = await one<{ oldest: Date | null }>(
    db,
    sql`SELECT min(h.create_time) AS oldest
        FROM app_service_configs c
        CROSS JOIN LATERAL (
          SELECT h.create_time, h.next_at FROM webhook_deliveries h
          WHERE h.config_id = c.id AND h.state = 'pending' ORDER BY h.id LIMIT 1) h
        WHERE c.state = 1 AND c.push_url IS NOT NULL AND c.push_disabled_reason IS NULL
          AND h.next_at <= ${iso(now)}`,
  )
  return r?.oldest ?? null
}

/** A delivery as the log lists it. */
export type DeliveryRow = {
  id: number
  config_id: number
  event: string
  event_time: Date
  state: 'pending' | 'delivered' | 'failed' | 'cancelled'
  attempts: number
  next_at: Date
  last_attempt_at: Date | null
  last_status: number | null
  last_error: string | null
  last_duration_ms: number | null
  delivered_at: Date | null
  payload: Record<string, unknown>
}

const DELIVERY_COLUMNS = sql`id, config_id, event, event_time, state, attempts, next_at, last_attempt_at,
  last_status, last_error, last_duration_ms, delivered_at, payload`

/** A page of a configuration's deliveries, newest first. */
export function deliveryPage(
  db: DbOrTx,
  configId: number,
  q: { page: number; page_size: number; state?: string; event?: string },
) {
  const where = [sql`config_id = ${configId}`]
  if (q.state) where.push(sql`state = ${q.state}`)
  if (q.event) where.push(sql`event = ${q.event}`)
  return pageOf<DeliveryRow>(db, {
    select: sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries`,
    from: sql`FROM webhook_deliveries`,
    where,
    orderBy: [sql`id DESC`],
    page: q.page,
    page_size: q.page_size,
  })
}

/** One delivery of a configuration. */
export function findDelivery(db: DbOrTx, configId: number, id: number) {
  return one<DeliveryRow>(
    db,
    sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ${id} AND config_id = ${configId}`,
  )
}

/**
 * Puts a delivery back to pending, due now, its retry schedule started again (the same id:
 * the same webhook-id). Answers it.
 */
export function resendDelivery(db: DbOrTx, configId: number, id: number, now: Date) {
  return one<DeliveryRow>(
    db,
    sql`UPDATE webhook_deliveries SET state = 'pending', next_at = ${iso(now)}, attempts = 0,
          first_failed_at = NULL, delivered_at = NULL
        WHERE id = ${id} AND config_id = ${configId}
        RETURNING ${DELIVERY_COLUMNS}`,
  )
}

/** Writes one delivery now (the test event) and answers it. */
export function insertDelivery(db: DbOrTx, d: NewDelivery, now: Date) {
  return one<DeliveryRow>(
    db,
    sql`INSERT INTO webhook_deliveries (config_id, event, event_key, event_time, payload, next_at, create_time)
        VALUES (${d.config_id}, ${d.event}, ${d.event_key}, ${d.event_time}::timestamptz,
          ${JSON.stringify(d.payload)}::jsonb, ${iso(now)}, ${d.create_time}::timestamptz)
        RETURNING ${DELIVERY_COLUMNS}`,
  )
}
