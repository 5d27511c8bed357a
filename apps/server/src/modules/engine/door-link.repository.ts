import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { one } from '../../db/sql.ts'

// How an AED's rescue meets its rescue cabinet's door event, written by both engines: the AED's
// when a rescue starts (the door it left through), the cabinet's when a door opens after the
// rescue's message came (engine.port.ts hands these to modules/cabinet).

const iso = (d: Date) => d.toISOString()

/**
 * The AED of a door event left: stamps the time (first time only), and when the door is closed
 * already, when it is due back.
 */
export async function markLeft(tx: DbOrTx, doorEventId: number, at: Date, returnMs: number) {
  await tx.execute(sql`
    UPDATE cabinet_door_events SET aed_left_at = coalesce(aed_left_at, ${iso(at)}::timestamptz),
      return_due_at = CASE WHEN closed_at IS NOT NULL
        THEN coalesce(return_due_at, closed_at + make_interval(secs => ${returnMs / 1000}::double precision))
        ELSE return_due_at END
    WHERE id = ${doorEventId} AND aed_back_at IS NULL AND device_id IS NOT NULL`)
}

/** The door event an AED's rescue starting at `at` came out of, and the cabinet it is bound to. */
export async function cabinetOfRescue(tx: DbOrTx, deviceId: number, at: Date, windowMs: number) {
  return one<{ cabinet_id: number; door_event_id: number | null }>(
    tx,
    sql`
    SELECT c.id::int AS cabinet_id,
      (SELECT e.id::int FROM cabinet_door_events e
       WHERE e.cabinet_id = c.id AND e.device_id = ${deviceId}
         AND e.opened_at <= ${iso(at)}::timestamptz + make_interval(secs => ${windowMs / 1000}::double precision)
         AND (e.closed_at IS NULL
              OR e.closed_at >= ${iso(at)}::timestamptz - make_interval(secs => ${windowMs / 1000}::double precision)
              OR (e.aed_left_at IS NOT NULL AND e.aed_back_at IS NULL))
       ORDER BY e.opened_at DESC, e.id DESC LIMIT 1) AS door_event_id
    FROM cabinets c WHERE c.device_id = ${deviceId} AND c.deleted_at IS NULL`,
  )
}

/** Files a rescue under its cabinet (and door event), once. */
export async function linkRescue(
  tx: DbOrTx,
  rescueId: number,
  cabinetId: number,
  doorEventId: number | null,
) {
  await tx.execute(sql`
    UPDATE rescue_events SET cabinet_id = ${cabinetId},
      cabinet_door_event_id = coalesce(cabinet_door_event_id, ${doorEventId}::bigint)
    WHERE id = ${rescueId}`)
}

/**
 * A door just opened: a rescue of its AED that started shortly before (its message came first)
 * and names no door event yet.
 */
export async function recentRescueOf(tx: DbOrTx, deviceId: number, at: Date, windowMs: number) {
  return one<{ id: number; event_time: Date }>(
    tx,
    sql`SELECT id::int, event_time FROM rescue_events
        WHERE device_id = ${deviceId} AND cabinet_door_event_id IS NULL
          AND event_time >= ${iso(at)}::timestamptz - make_interval(secs => ${windowMs / 1000}::double precision)
          AND (ended_at IS NULL OR ended_at >= ${iso(at)}::timestamptz)
        ORDER BY event_time DESC LIMIT 1`,
  )
}
