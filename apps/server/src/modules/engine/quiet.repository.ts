import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'
import {
  BATTERY_EXHAUSTED,
  BATTERY_LOW,
  DEADLINE_GRACE_MS,
  DEFAULT_REPORT_INTERVAL_S,
  MISSED_FACTOR,
} from './engine.rules.ts'
import type { NewInboxRow } from './inbox.repository.ts'

// The quiet batch's one statement (engine_quiet_batch, migrations 0016, 0017 and 0035): a batch of
// heartbeats and passing self-tests stored and, where they change nothing, applied in one round
// trip. quiet.ts summarises the rows; the rule the statement applies is engine.rules.ts's
// `changesNothing`.

/** What a batch does to one device when its rows are quiet (quiet.ts, summarize). */
export type DeviceSummary = {
  deviceId: number
  /** The oldest row's order: the state must be older than it (no row stale). */
  firstBoot: number
  firstSeq: number
  /** The newest row's order and arrival: the state takes them. */
  boot: number
  seq: number
  seen: string
  rssi: number | null
  /** The newest cable voltage reported (volts). */
  cableVoltage: number | null
  /** The newest battery reported, and its band (every battery of the rows in that one band). */
  battery: number | null
  band: number | null
  /** The newest passing self-test's time (null: none among the rows). */
  passAt: string | null
  pads: string | null
  batteryExp: string | null
}

/** A passing self-test's detection record. */
export type TestRecord = { deviceId: number; reportType: number; battery: number | null; at: string }

/** One stored row of a batch, and whether it is loud: it changes something, so it waits for the engine. */
export type StoredQuietRow = { inbox_id: number; sender_id: number; msg_id: string; loud: boolean }

/**
 * Stores a batch's rows in the inbox (as coalesced; a duplicate is not stored) and, for the
 * devices whose rows are quiet, moves their state and writes their self-tests' records; the
 * other rows are left waiting (outcome NULL) and answered loud. One statement, one transaction.
 */
export function quietBatch(
  db: DbOrTx,
  rows: NewInboxRow[],
  devices: DeviceSummary[],
  tests: TestRecord[],
  now: Date,
): Promise<StoredQuietRow[]> {
  const rcol = <T>(f: (r: NewInboxRow) => T) => sql.param(rows.map(f))
  const col = <T>(f: (d: DeviceSummary) => T) => sql.param(devices.map(f))
  const tcol = <T>(f: (t: TestRecord) => T) => sql.param(tests.map(f))
  const iso = (d: Date | null) => d?.toISOString() ?? null
  return many<StoredQuietRow>(
    db,
    sql`SELECT * FROM engine_quiet_batch(
      ${rcol((r) => r.sender_id)}::bigint[], ${rcol((r) => r.msg_id)}::text[], ${rcol((r) => r.type)}::text[],
      ${rcol((r) => r.boot)}::int[], ${rcol((r) => r.seq)}::bigint[], ${rcol((r) => iso(r.device_ts))}::timestamptz[],
      ${rcol((r) => iso(r.event_time))}::timestamptz[], ${rcol((r) => r.ts_flagged)}::boolean[],
      ${rcol((r) => iso(r.received_at))}::timestamptz[], ${rcol((r) => r.transport)}::text[],
      ${rcol((r) => JSON.stringify(r.data))}::jsonb[],
      ${col((d) => d.deviceId)}::bigint[], ${col((d) => d.firstBoot)}::int[],
      ${col((d) => d.firstSeq)}::bigint[], ${col((d) => d.boot)}::int[], ${col((d) => d.seq)}::bigint[],
      ${col((d) => d.seen)}::timestamptz[], ${col((d) => d.rssi)}::smallint[], ${col((d) => d.cableVoltage)}::real[],
      ${col((d) => d.battery)}::smallint[], ${col((d) => d.band)}::int[],
      ${col((d) => d.passAt)}::timestamptz[], ${col((d) => d.pads)}::text[],
      ${col((d) => d.batteryExp)}::text[],
      ${tcol((t) => t.deviceId)}::bigint[], ${tcol((t) => t.reportType)}::smallint[],
      ${tcol((t) => t.battery)}::smallint[], ${tcol((t) => t.at)}::timestamptz[],
      ${now.toISOString()}::timestamptz,
      ${DEFAULT_REPORT_INTERVAL_S}::int, ${MISSED_FACTOR}::int, ${DEADLINE_GRACE_MS / 1000}::double precision,
      ${BATTERY_EXHAUSTED}::int, ${BATTERY_LOW}::int)`,
  )
}
