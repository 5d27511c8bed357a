import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'
import { MAX_ATTEMPTS } from '../engine/engine.port.ts'
import type { CabinetPlace, CabinetRecord, CabinetView } from './cabinet.reducer.ts'

// The rescue cabinet engine's SQL (0013_cabinets.sql): credentials for the gateway, the engine
// state, self-check records and door events. How a door event meets an AED's rescue is the
// device engine's (engine/door-link.repository.ts, through engine.port.ts).

const iso = (d: Date) => d.toISOString()
/** A location that is only a position's text (`lat,lon` as coordinatesText writes it). */
const COORDINATES = '^-?[0-9]+\\.[0-9]{6},-?[0-9]+\\.[0-9]{6}$'

/** A live cabinet's secrets by serial (null: unknown or deleted). */
export function cabinetSecrets(db: DbOrTx, sn: string) {
  return one<{
    id: number
    cabinet_sn: string
    secret_enc: string
    prev_secret_enc: string | null
    prev_secret_until: Date | null
    commands_waiting: boolean
  }>(
    db,
    sql`SELECT id::int, cabinet_sn, secret_enc, prev_secret_enc, prev_secret_until,
          EXISTS (SELECT 1 FROM device_commands c WHERE c.sender_kind = 'cabinet' AND c.sender_id = cabinets.id
                  AND c.state IN ('pending', 'sent')) AS commands_waiting
        FROM cabinets WHERE cabinet_sn = ${sn} AND deleted_at IS NULL`,
  )
}

/** Everything the engine reads of a cabinet, locked for the transaction. */
export type CabinetFacts = CabinetPlace & {
  id: number
  cabinet_sn: string
  agency_id: number
  index_link: string
  deleted: boolean
  door_status: number | null
  has_state: boolean
  last_boot: number | null
  last_seq: number | null
  report_interval_s: number | null
  offline: boolean | null
  /** The door event not closed yet. */
  open_door_id: number | null
  /** Earlier messages of the cabinet wait to be applied. */
  waiting: boolean
}

/** Reads and locks a cabinet with its engine state, bound AED and open door event. */
export async function lockCabinet(
  tx: DbOrTx,
  cabinetId: number,
  waitingBefore?: number,
): Promise<CabinetFacts | null> {
  const waiting =
    waitingBefore === undefined
      ? sql`false`
      : sql`EXISTS (SELECT 1 FROM device_inbox w WHERE (w.processed_at IS NULL OR w.outcome = 'failed')
                AND w.attempts < ${MAX_ATTEMPTS} AND w.sender_kind = 'cabinet' AND w.sender_id = c.id AND w.id < ${waitingBefore})`
  return one<CabinetFacts>(
    tx,
    sql`
    SELECT c.id::int, c.cabinet_sn, c.agency_id::int, a.index_link, c.deleted_at IS NOT NULL AS deleted,
      c.device_id::int, d.device_sn, d.model AS device_model, c.door_status, c.location, c.lat, c.lon,
      s.cabinet_id IS NOT NULL AS has_state, s.last_boot, s.last_seq, s.report_interval_s,
      s.offline,
      (SELECT e.id::int FROM cabinet_door_events e WHERE e.cabinet_id = c.id AND e.closed_at IS NULL) AS open_door_id,
      ${waiting} AS waiting
    FROM cabinets c
    JOIN agencies a ON a.id = c.agency_id
    LEFT JOIN devices d ON d.id = c.device_id
    LEFT JOIN cabinet_states s ON s.cabinet_id = c.id
    WHERE c.id = ${cabinetId}
    FOR UPDATE OF c`,
  )
}

/** Locks an AED's row (the cabinet's transaction takes it before touching its door events and rescues). */
export async function lockDeviceRow(tx: DbOrTx, deviceId: number) {
  await tx.execute(sql`SELECT id FROM devices WHERE id = ${deviceId} FOR UPDATE`)
}

/** The engine's state of a cabinet after a message (or its missed deadline). */
export async function writeCabinetState(
  tx: DbOrTx,
  id: number,
  s: {
    lastBoot: number
    lastSeq: number
    lastSeenAt: Date
    reportIntervalS: number | null
    nextDeadlineAt: Date
    now: Date
  },
) {
  await tx.execute(sql`
    INSERT INTO cabinet_states (cabinet_id, last_boot, last_seq, last_seen_at, report_interval_s,
      next_deadline_at, offline, update_time)
    VALUES (${id}, ${s.lastBoot}, ${s.lastSeq}, ${iso(s.lastSeenAt)}::timestamptz, ${s.reportIntervalS}::int,
      ${iso(s.nextDeadlineAt)}::timestamptz, false, ${iso(s.now)}::timestamptz)
    ON CONFLICT (cabinet_id) DO UPDATE SET
      last_boot = EXCLUDED.last_boot, last_seq = EXCLUDED.last_seq,
      last_seen_at = greatest(cabinet_states.last_seen_at, EXCLUDED.last_seen_at),
      report_interval_s = EXCLUDED.report_interval_s, next_deadline_at = EXCLUDED.next_deadline_at,
      offline = false, update_time = EXCLUDED.update_time`)
}

export async function updateCabinet(tx: DbOrTx, id: number, v: CabinetView, now: Date) {
  await tx.execute(sql`
    UPDATE cabinets SET
      door_status = coalesce(${v.doorStatus ?? null}::smallint, door_status),
      battery_power = coalesce(${v.batteryPower ?? null}::smallint, battery_power),
      fw_version = coalesce(${v.fwVersion ?? null}::varchar, fw_version),
      lat = coalesce(${v.lat ?? null}::double precision, lat),
      lon = coalesce(${v.lon ?? null}::double precision, lon),
      altitude = coalesce(${v.altitude ?? null}::double precision, altitude),
      location = CASE WHEN location IS NULL OR location ~ ${COORDINATES}
        THEN coalesce(${v.location ?? null}::varchar, location) ELSE location END,
      aed_present = coalesce(${v.aedPresent ?? null}::boolean, aed_present),
      data_upload_time = greatest(data_upload_time, ${v.uploadTime ? iso(v.uploadTime) : null}::timestamptz),
      update_time = ${iso(now)}::timestamptz
    WHERE id = ${id}`)
}

/** A self-check record (cabinet_status) or door report (door). */
export async function insertRecord(tx: DbOrTx, cabinetId: number, r: CabinetRecord) {
  await tx.execute(sql`
    INSERT INTO cabinet_records (cabinet_id, upload_data_type, device_sn, device_model, door_status,
      battery_power, fw_version, lat, lon, location, altitude, aed_present, update_time)
    VALUES (${cabinetId}, ${r.type}, ${r.deviceSn}, ${r.deviceModel}, ${r.doorStatus}::smallint,
      ${r.batteryPower}::smallint, ${r.fwVersion}, ${r.lat}::double precision, ${r.lon}::double precision,
      ${r.location}, ${r.altitude}::double precision, ${r.aedPresent}::boolean, ${iso(r.time)}::timestamptz)`)
}

/** Opens the cabinet's door event (one open per cabinet: null when one is open already). */
export async function openDoor(
  tx: DbOrTx,
  c: CabinetFacts,
  at: Date,
  location: string | null,
): Promise<number | null> {
  const row = await one<{ id: number }>(
    tx,
    sql`
    INSERT INTO cabinet_door_events (cabinet_id, agency_id, index_link, device_id, location, opened_at)
    VALUES (${c.id}, ${c.agency_id}, ${c.index_link}, ${c.device_id}, ${location}, ${iso(at)}::timestamptz)
    ON CONFLICT (cabinet_id) WHERE closed_at IS NULL DO NOTHING
    RETURNING id::int`,
  )
  return row?.id ?? null
}

/**
 * Closes the open door event (never before it opened); when its AED left and is not back, the
 * AED is due back `returnMs` after the door closed.
 */
export async function closeDoor(tx: DbOrTx, cabinetId: number, at: Date, returnMs: number) {
  return one<{ id: number }>(
    tx,
    sql`
    UPDATE cabinet_door_events SET closed_at = greatest(opened_at, ${iso(at)}::timestamptz),
      return_due_at = CASE WHEN aed_left_at IS NOT NULL AND aed_back_at IS NULL
        THEN greatest(opened_at, ${iso(at)}::timestamptz) + make_interval(secs => ${returnMs / 1000}::double precision)
        END
    WHERE cabinet_id = ${cabinetId} AND closed_at IS NULL
    RETURNING id::int`,
  )
}

/**
 * The cabinet's last door event whose AED it could have lost unnoticed (no leave or return
 * seen): a cabinet_status with the AED absent after the door closed tells it left then.
 */
export async function lastDoorUnsettled(tx: DbOrTx, cabinetId: number, deviceId: number) {
  return one<{ id: number }>(
    tx,
    sql`SELECT id::int FROM cabinet_door_events
        WHERE cabinet_id = ${cabinetId} AND device_id = ${deviceId} AND aed_back_at IS NULL
        ORDER BY opened_at DESC, id DESC LIMIT 1`,
  )
}

/**
 * The cabinet reports its AED inside: every door event of it still waiting for the AED is
 * settled. Answers the AEDs whose 'not returned' warning was raised (they need a re-check).
 */
export async function markBack(tx: DbOrTx, cabinetId: number, at: Date): Promise<number[]> {
  const rows = await many<{ device_id: number; warned: boolean }>(
    tx,
    sql`
    UPDATE cabinet_door_events SET aed_back_at = greatest(opened_at, ${iso(at)}::timestamptz), return_due_at = NULL
    WHERE cabinet_id = ${cabinetId} AND aed_left_at IS NOT NULL AND aed_back_at IS NULL
    RETURNING device_id::int, not_returned_at IS NOT NULL AS warned`,
  )
  return [...new Set(rows.filter((r) => r.warned && r.device_id).map((r) => r.device_id))]
}

/** Whether an AED has a raised 'not returned' of a door event not yet settled (without locking). */
export async function notReturnedDevices(tx: DbOrTx, cabinetId: number) {
  const rows = await many<{ device_id: number }>(
    tx,
    sql`SELECT DISTINCT device_id::int FROM cabinet_door_events
        WHERE cabinet_id = ${cabinetId} AND not_returned_at IS NOT NULL AND aed_back_at IS NULL
          AND device_id IS NOT NULL`,
  )
  return rows.map((r) => r.device_id)
}

/** Live cabinets whose deadline passed and are not yet offline, oldest deadline first. */
export async function overdueCabinets(db: DbOrTx, now: Date, limit: number) {
  const rows = await many<{ cabinet_id: number }>(
    db,
    sql`SELECT s.cabinet_id::int FROM cabinet_states s
        JOIN cabinets c ON c.id = s.cabinet_id AND c.deleted_at IS NULL
        WHERE NOT s.offline AND s.next_deadline_at <= ${iso(now)}::timestamptz
        ORDER BY s.next_deadline_at, s.cabinet_id LIMIT ${limit}`,
  )
  return rows.map((r) => r.cabinet_id)
}

/** Marks a cabinet offline when its deadline passed (under the sweep, re-checked here); answers it, or null. */
export async function markCabinetOffline(db: DbOrTx, cabinetId: number, now: Date) {
  return one<{ id: number; cabinet_sn: string; agency_id: number; index_link: string }>(
    db,
    sql`WITH marked AS (
          UPDATE cabinet_states SET offline = true, next_deadline_at = NULL, update_time = ${iso(now)}::timestamptz
          WHERE cabinet_id = ${cabinetId} AND NOT offline AND next_deadline_at <= ${iso(now)}::timestamptz
          RETURNING cabinet_id)
        SELECT c.id::int, c.cabinet_sn, c.agency_id::int, g.index_link
        FROM marked m JOIN cabinets c ON c.id = m.cabinet_id JOIN agencies g ON g.id = c.agency_id`,
  )
}

/**
 * The cabinets' deadlines that fell while the platform was away, (from, to], move later by the
 * length of the outage (the outage is the platform's, not theirs); later ones are not touched.
 */
export async function shiftCabinetDeadlines(db: DbOrTx, from: Date, to: Date) {
  const byS = (to.getTime() - from.getTime()) / 1000
  await db.execute(sql`
    UPDATE cabinet_states SET next_deadline_at = next_deadline_at + make_interval(secs => ${byS}::double precision)
    WHERE NOT offline AND next_deadline_at > ${iso(from)}::timestamptz AND next_deadline_at <= ${iso(to)}::timestamptz`)
}

/** Door events whose AED is due back and is not: the sweep raises their 'not returned'. */
export async function dueReturns(db: DbOrTx, now: Date, limit: number) {
  return many<{ id: number; device_id: number }>(
    db,
    sql`SELECT id::int, device_id::int FROM cabinet_door_events
        WHERE return_due_at <= ${iso(now)}::timestamptz AND not_returned_at IS NULL AND aed_back_at IS NULL
          AND device_id IS NOT NULL
        ORDER BY return_due_at LIMIT ${limit}`,
  )
}

/** Stamps a door event's AED as not returned (answers false when it came back meanwhile). */
export async function markNotReturned(tx: DbOrTx, id: number, now: Date): Promise<boolean> {
  const row = await one<{ id: number }>(
    tx,
    sql`UPDATE cabinet_door_events SET not_returned_at = ${iso(now)}::timestamptz
        WHERE id = ${id} AND not_returned_at IS NULL AND aed_back_at IS NULL
          AND return_due_at <= ${iso(now)}::timestamptz
        RETURNING id::int`,
  )
  return row !== null
}
