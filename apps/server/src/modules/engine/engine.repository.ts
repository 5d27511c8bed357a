import { type AgencySettings, DEFAULT_SETTINGS } from '@aed/contracts/settings'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import type { DeviceEventKind } from '../../db/schema.ts'
import { many, one } from '../../db/sql.ts'
import { type OutboxRow, outboxInsert } from './outbox.repository.ts'
import type { EngineState, Installation, Rules } from './reducer.ts'

const iso = (d: Date) => d.toISOString()

/** A text[] from bound values (never a hand-built literal: a device's strings may hold anything). */
export function textArray(values: readonly string[]): SQL {
  return values.length
    ? sql`ARRAY[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`
    : sql`'{}'::text[]`
}

/** The device's own columns the engine reads (and its state flags), as the query answers them. */
type DeviceColumns = {
  id: number
  device_sn: string
  model: string
  agency_id: number
  index_link: string
  installation_id: number | null
  deleted: boolean
  status: number
  readiness: string
  readiness_reasons: string[]
  battery: number | null
  last_pass_at: Date | null
  has_state: boolean
  /** Earlier messages of the device wait to be applied (see lockDevice's waitingBefore). */
  waiting: boolean
  /** Its installation hides abnormal states (disable_abnormal_display 1): lists and the map show it normal. */
  display_off: boolean
}

/** Everything the engine reads of a device, locked for the transaction. */
export type DeviceFacts = DeviceColumns & {
  sms_off: boolean
  state: EngineState
  installation: Installation | null
  rules: Rules
  rescueId: number | null
  /** The serial of the cabinet the AED was not returned to (its 'not_returned' warning holds). */
  notReturned: string | null
}

type FactsRow = DeviceColumns & {
  last_boot: number | null
  last_seq: number | null
  report_interval_s: number | null
  offset_streak: number | null
  rescue_id: number | null
  rescue_event_id: string | null
  rescue_last_at: Date | null
  lat: number | null
  lon: number | null
  location: string | null
  electrode_sheet_expire: string | null
  battery_expire: string | null
  host_expire: string | null
  safety_radius: number | null
  sms_off: number | null
  config: Partial<AgencySettings> | null
  not_returned_cabinet: string | null
  open_events: string | { id: number; kind: DeviceEventKind; code: string }[]
}

/** Reads and locks a device with its engine state, installation, rules and open conditions. */
export async function lockDevice(
  tx: DbOrTx,
  deviceId: number,
  /** Also tell whether messages stored before this inbox id still wait to be applied. */
  waitingBefore?: number,
): Promise<DeviceFacts | null> {
  // One statement whose plan the database keeps (migration 0015): planning it each time cost
  // more than running it.
  const r = await one<FactsRow>(
    tx,
    sql`SELECT * FROM engine_device_facts(${deviceId}, ${waitingBefore ?? null}::bigint)`,
  )
  if (!r) return null
  const events = (typeof r.open_events === 'string' ? JSON.parse(r.open_events) : r.open_events) as {
    id: number
    kind: DeviceEventKind
    code: string
  }[]
  const settings = { ...DEFAULT_SETTINGS, ...(r.config ?? {}) }
  const {
    last_boot,
    last_seq,
    report_interval_s,
    offset_streak,
    rescue_id,
    rescue_event_id,
    rescue_last_at,
    lat,
    lon,
    location,
    electrode_sheet_expire,
    battery_expire,
    host_expire,
    safety_radius,
    sms_off,
    config: _config,
    not_returned_cabinet,
    open_events: _events,
    ...device
  } = r
  return {
    ...device,
    sms_off: sms_off === 1,
    state: {
      open: events.map((e) => ({ kind: e.kind, code: e.code })),
      reported: device.has_state,
      lastBoot: last_boot ?? 0,
      lastSeq: last_seq ?? -1,
      battery: device.battery,
      lastPassAt: device.last_pass_at,
      rescue:
        rescue_id && rescue_event_id && rescue_last_at
          ? { rescueEventId: rescue_event_id, lastAt: rescue_last_at }
          : null,
      offsetStreak: offset_streak ?? 0,
      reportIntervalS: report_interval_s,
    },
    installation:
      device.installation_id && lat !== null && lon !== null
        ? {
            lat: lat,
            lon: lon,
            location: location ?? '',
            padsExpire: electrode_sheet_expire ?? '9999-12-31',
            batteryExpire: battery_expire ?? '9999-12-31',
            hostExpire: host_expire ?? '9999-12-31',
            safetyRadiusM: safety_radius,
          }
        : null,
    rules: {
      offsetKm: settings.location_offset,
      padsReminderMonths: settings.electrode_sheet_expire,
      batteryReminderMonths: settings.battery_expire,
    },
    rescueId: rescue_id,
    notReturned: not_returned_cabinet,
  }
}

/** The rescue of a device by the device's own id of it (an old rescue's late steps). */
export async function findRescue(tx: DbOrTx, deviceId: number, rescueEventId: string) {
  return one<{ id: number; ended_at: Date | null }>(
    tx,
    sql`SELECT id, ended_at FROM rescue_events WHERE device_id = ${deviceId} AND rescue_event_id = ${rescueEventId}`,
  )
}

export type Where = { deviceId: number; installationId: number | null; agencyId: number; indexLink: string }

/** Opens an event; answers its id (null when the condition was already open: a lost race is a no-op). */
export async function openEvent(
  tx: DbOrTx,
  w: Where,
  e: {
    kind: DeviceEventKind
    code: string
    time: Date
    content: string | null
    reportType?: number
    detectionId?: number | null
    installLocation?: string | null
    offset?: { lat: number; lon: number; distanceM: number; location: string }
  },
): Promise<number | null> {
  const row = await one<{ id: number }>(
    tx,
    sql`
    INSERT INTO device_events (device_id, installation_id, agency_id, index_link, kind, code, event_time,
      content, report_type, detection_id, install_location, offset_location, offset_lat, offset_lon, offset_distance)
    VALUES (${w.deviceId}, ${w.installationId}, ${w.agencyId}, ${w.indexLink}, ${e.kind}, ${e.code},
      ${iso(e.time)}::timestamptz, ${e.content}, ${e.reportType ?? null}, ${e.detectionId ?? null},
      ${e.installLocation ?? null}, ${e.offset?.location ?? null}, ${e.offset?.lat ?? null},
      ${e.offset?.lon ?? null}, ${e.offset?.distanceM ?? null})
    ON CONFLICT (device_id, kind, code) WHERE closed_at IS NULL DO NOTHING
    RETURNING id`,
  )
  return row?.id ?? null
}

/** Closes an open event at a time (never before it opened). */
export async function closeEvent(
  tx: DbOrTx,
  deviceId: number,
  kind: DeviceEventKind,
  code: string,
  time: Date,
) {
  return one<{ id: number }>(
    tx,
    sql`
    UPDATE device_events SET closed_at = greatest(event_time, ${iso(time)}::timestamptz)
    WHERE device_id = ${deviceId} AND kind = ${kind} AND code = ${code} AND closed_at IS NULL
    RETURNING id`,
  )
}

export async function insertDetection(
  tx: DbOrTx,
  w: Where,
  d: { reportType: number; passed: boolean; faultCodes: string[]; battery: number | null; time: Date },
): Promise<number> {
  const row = await one<{ id: number }>(
    tx,
    sql`
    INSERT INTO device_detections (device_id, installation_id, agency_id, index_link, report_type,
      check_result, fault_codes, battery, check_time)
    VALUES (${w.deviceId}, ${w.installationId}, ${w.agencyId}, ${w.indexLink}, ${d.reportType},
      ${d.passed ? 1 : 0}, ${textArray(d.faultCodes)},
      ${d.battery}, ${iso(d.time)}::timestamptz)
    RETURNING id`,
  )
  return (row as { id: number }).id
}

/** Starts a rescue (or finds the one this device id of it already started). */
export async function startRescue(
  tx: DbOrTx,
  w: Where,
  r: {
    rescueEventId: string
    time: Date
    lat: number | null
    lon: number | null
    location: string | null
    /** Filed as history: ended already (an old step of a rescue that is not under way). */
    ended?: boolean
  },
): Promise<{ id: number; created: boolean }> {
  const created = await one<{ id: number }>(
    tx,
    sql`
    INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id,
      event_time, event_lat, event_lon, event_location, ended_at)
    VALUES (${w.deviceId}, ${w.installationId}, ${w.agencyId}, ${w.indexLink}, ${r.rescueEventId},
      ${iso(r.time)}::timestamptz, ${r.lat}, ${r.lon}, ${r.location},
      ${r.ended ? iso(r.time) : null}::timestamptz)
    ON CONFLICT DO NOTHING
    RETURNING id`,
  )
  if (created) return { id: created.id, created: true }
  const found = await findRescue(tx, w.deviceId, r.rescueEventId)
  return { id: (found as { id: number }).id, created: false }
}

export async function endRescue(tx: DbOrTx, deviceId: number, rescueEventId: string, time: Date) {
  await tx.execute(sql`
    UPDATE rescue_events SET ended_at = greatest(event_time, ${iso(time)}::timestamptz)
    WHERE device_id = ${deviceId} AND rescue_event_id = ${rescueEventId} AND ended_at IS NULL`)
}

export async function insertUsage(
  tx: DbOrTx,
  rescueId: number,
  deviceId: number,
  u: { rescueEventId: string; desc: string; para: unknown; time: Date },
) {
  const para =
    u.para === undefined || u.para === null
      ? null
      : typeof u.para === 'string'
        ? u.para
        : JSON.stringify(u.para)
  await tx.execute(sql`
    INSERT INTO device_usage_logs (rescue_id, device_id, rescue_event_id, event_desc, event_para, event_time)
    VALUES (${rescueId}, ${deviceId}, ${u.rescueEventId}, ${u.desc}, ${para}, ${iso(u.time)}::timestamptz)`)
}

/** Attaches an uploaded file to its rescue (when both exist). */
export async function attachRescueFile(tx: DbOrTx, deviceId: number, rescueEventId: string, fileId: string) {
  await tx.execute(sql`
    UPDATE rescue_events r SET ecg_file_url = f.url
    FROM device_files f
    WHERE r.device_id = ${deviceId} AND r.rescue_event_id = ${rescueEventId}
      AND f.file_id = ${fileId} AND f.sender_kind = 'aed' AND f.sender_id = ${deviceId}`)
}

export async function updateInstallationDates(
  tx: DbOrTx,
  installationId: number,
  d: { padsExpire?: string; batteryExpire?: string },
) {
  await tx.execute(sql`
    UPDATE installations SET
      electrode_sheet_expire = coalesce(${d.padsExpire ?? null}::date, electrode_sheet_expire),
      battery_expire = coalesce(${d.batteryExpire ?? null}::date, battery_expire)
    WHERE id = ${installationId}`)
}

/** What the registry shows of the engine's answer. */
export type DeviceView = {
  status: number
  battery: number | null
  readiness: string
  reasons: string[]
  lastPassAt: Date | null
  fwVersion?: string
}

/** The engine's own state of a device. */
export type StateWrite = {
  lastBoot: number
  lastSeq: number
  lastSeenAt: Date | null
  reportIntervalS: number | null
  /** undefined: keep the stored deadline (a re-check). */
  nextDeadlineAt: Date | null | undefined
  offline: boolean
  rssi?: number
  cableVoltage?: number
  positioningType?: string
  rescueId: number | null
  rescueLastAt: Date | null
  offsetStreak: number
  now: Date
}

function stateUpsert(id: number, s: StateWrite) {
  const seen = s.lastSeenAt ? iso(s.lastSeenAt) : null
  const deadline = s.nextDeadlineAt ? iso(s.nextDeadlineAt) : null
  const keep = s.nextDeadlineAt === undefined
  return sql`
    INSERT INTO device_states (device_id, last_boot, last_seq, last_seen_at, report_interval_s,
      next_deadline_at, offline, rssi, cable_voltage, positioning_type, rescue_id, rescue_last_at, offset_streak, update_time)
    VALUES (${id}, ${s.lastBoot}, ${s.lastSeq}, coalesce(${seen}::timestamptz, ${iso(s.now)}::timestamptz),
      ${s.reportIntervalS}::int, ${deadline}::timestamptz, ${s.offline}, ${s.rssi ?? null}::smallint,
      ${s.cableVoltage ?? null}::real, ${s.positioningType ?? null}::varchar, ${s.rescueId}::bigint,
      ${s.rescueLastAt ? iso(s.rescueLastAt) : null}::timestamptz, ${s.offsetStreak}, ${iso(s.now)}::timestamptz)
    ON CONFLICT (device_id) DO UPDATE SET
      last_boot = EXCLUDED.last_boot, last_seq = EXCLUDED.last_seq,
      last_seen_at = coalesce(${seen}::timestamptz, device_states.last_seen_at),
      report_interval_s = EXCLUDED.report_interval_s,
      next_deadline_at = CASE WHEN ${keep} THEN device_states.next_deadline_at ELSE EXCLUDED.next_deadline_at END,
      offline = EXCLUDED.offline, rssi = coalesce(EXCLUDED.rssi, device_states.rssi),
      cable_voltage = coalesce(EXCLUDED.cable_voltage, device_states.cable_voltage),
      positioning_type = coalesce(EXCLUDED.positioning_type, device_states.positioning_type),
      rescue_id = EXCLUDED.rescue_id, rescue_last_at = EXCLUDED.rescue_last_at,
      offset_streak = EXCLUDED.offset_streak, update_time = EXCLUDED.update_time`
}

/**
 * Writes the end of a message's transaction in one round trip: the engine state (when given),
 * the outbox rows, and what the registry shows (only when it changed, so the list's indexes
 * and the installation copy are not touched for nothing).
 */
export async function commitDevice(
  tx: DbOrTx,
  id: number,
  d: DeviceView,
  state: StateWrite | null,
  outbox: OutboxRow[],
  now: Date,
) {
  const reasons = `{${d.reasons.join(',')}}`
  const pass = d.lastPassAt ? iso(d.lastPassAt) : null
  const ctes: SQL[] = []
  if (state) ctes.push(sql`st AS (${stateUpsert(id, state)})`)
  if (outbox.length) ctes.push(sql`ob AS (${outboxInsert(outbox, now)})`)
  await tx.execute(sql`
    ${ctes.length ? sql`WITH ${sql.join(ctes, sql`, `)}` : sql``}
    UPDATE devices SET status = ${d.status}, battery = ${d.battery}, readiness = ${d.readiness},
      readiness_reasons = ${reasons}::text[], last_pass_at = ${pass}::timestamptz,
      fw_version = coalesce(${d.fwVersion ?? null}, fw_version)
    WHERE id = ${id}
      AND (status, coalesce(battery, -1), readiness, readiness_reasons, coalesce(last_pass_at, 'epoch'), coalesce(fw_version, ''))
        IS DISTINCT FROM (${d.status}::smallint, coalesce(${d.battery}::smallint, -1), ${d.readiness}::varchar,
          ${reasons}::text[], coalesce(${pass}::timestamptz, 'epoch'),
          coalesce(${d.fwVersion ?? null}, fw_version, ''))`)
}

/** Marks a command answered by its sender's ack (an AED's, or a rescue cabinet's through engine.port.ts). */
export async function ackCommand(
  tx: DbOrTx,
  kind: 'aed' | 'cabinet',
  senderId: number,
  a: { cmdId: string; ok: boolean; error: string | null; time: Date },
) {
  await tx.execute(sql`
    UPDATE device_commands SET state = ${a.ok ? 'done' : 'failed'}, ack_time = ${iso(a.time)}::timestamptz,
      error = ${a.error ? a.error.slice(0, 200) : null}
    WHERE cmd_id = ${a.cmdId} AND sender_kind = ${kind} AND sender_id = ${senderId}
      AND state IN ('pending', 'sent', 'expired')`)
}

/** The device's deadline when it has passed and it is not yet offline (the sweep's re-check under the lock). */
export async function deadlinePassed(tx: DbOrTx, deviceId: number, now: Date): Promise<Date | null> {
  const row = await one<{ next_deadline_at: Date }>(
    tx,
    sql`SELECT next_deadline_at FROM device_states
        WHERE device_id = ${deviceId} AND NOT offline AND next_deadline_at <= ${iso(now)}::timestamptz`,
  )
  return row?.next_deadline_at ?? null
}

/**
 * Live devices whose deadline passed and are not yet offline, oldest deadline first, after a
 * keyset position (so a device the engine leaves as it is does not come back in the same sweep).
 */
export async function overdueDevices(
  db: DbOrTx,
  now: Date,
  limit: number,
  after: { at: Date; id: number } | null = null,
): Promise<{ device_id: number; next_deadline_at: Date }[]> {
  return many<{ device_id: number; next_deadline_at: Date }>(
    db,
    sql`SELECT s.device_id, s.next_deadline_at FROM device_states s
        JOIN devices d ON d.id = s.device_id AND d.deleted_at IS NULL
        WHERE NOT s.offline AND s.next_deadline_at <= ${iso(now)}::timestamptz
          ${after ? sql`AND (s.next_deadline_at, s.device_id) > (${iso(after.at)}::timestamptz, ${after.id})` : sql``}
        ORDER BY s.next_deadline_at, s.device_id LIMIT ${limit}`,
  )
}

/** Devices whose rescue has had no step for the quiet time (the rescue is over). */
export async function quietRescues(db: DbOrTx, before: Date, limit: number): Promise<number[]> {
  const rows = await many<{ device_id: number }>(
    db,
    sql`SELECT device_id FROM device_states
        WHERE rescue_id IS NOT NULL AND rescue_last_at <= ${iso(before)}::timestamptz
        ORDER BY rescue_last_at LIMIT ${limit}`,
  )
  return rows.map((r) => r.device_id)
}

/**
 * When the platform last did anything on its schedule before `now`: the latest start or success
 * of any job before this tick (the sweep runs first in a tick, so nothing of this tick counts).
 */
export async function platformLastAlive(db: DbOrTx, now: Date): Promise<Date | null> {
  const row = await one<{ at: Date | null }>(
    db,
    sql`SELECT max(x) AS at FROM (SELECT greatest(last_started_at, last_run_at) AS x FROM job_runs) j
        WHERE x < ${iso(now)}::timestamptz`,
  )
  return row?.at ?? null
}

/**
 * The AEDs' deadlines that fell while the platform was away, (from, to], move later by the
 * length of the outage; later deadlines are not touched (the rescue cabinets' are the cabinet
 * module's: shiftCabinetDeadlines).
 */
export async function shiftDeadlines(db: DbOrTx, from: Date, to: Date) {
  const byS = (to.getTime() - from.getTime()) / 1000
  await db.execute(sql`
    UPDATE device_states SET next_deadline_at = next_deadline_at + make_interval(secs => ${byS}::double precision)
    WHERE NOT offline AND next_deadline_at > ${iso(from)}::timestamptz AND next_deadline_at <= ${iso(to)}::timestamptz`)
}

/** When a job last succeeded (job_runs), read outside the runner's connection. */
export async function jobLastRun(db: DbOrTx, name: string): Promise<Date | null> {
  const row = await one<{ last_run_at: Date | null }>(
    db,
    sql`SELECT last_run_at FROM job_runs WHERE name = ${name}`,
  )
  return row?.last_run_at ?? null
}

/** What the re-check compares: each registered device's installation, battery and open warnings. */
export type RecheckRow = {
  device_id: number
  battery: number | null
  reported: boolean
  electrode_sheet_expire: string
  battery_expire: string
  host_expire: string
  config: Record<string, unknown> | null
  warnings: string[]
  not_returned_cabinet: string | null
}

/** Registered devices (of one organisation's installations, or all) with what their warnings depend on. */
export async function recheckRows(db: DbOrTx, agencyId: number | null): Promise<RecheckRow[]> {
  return many<RecheckRow>(
    db,
    sql`
    SELECT d.id AS device_id, d.battery, (s.device_id IS NOT NULL) AS reported,
      i.electrode_sheet_expire::text, i.battery_expire::text, i.host_expire::text, st.config,
      coalesce((SELECT array_agg(e.code) FROM device_events e
                WHERE e.device_id = d.id AND e.kind = 'warning' AND e.closed_at IS NULL), '{}') AS warnings,
      engine_not_returned_cabinet(d.id) AS not_returned_cabinet
    FROM installations i
    JOIN devices d ON d.id = i.device_id AND d.deleted_at IS NULL
    LEFT JOIN device_states s ON s.device_id = d.id
    LEFT JOIN agency_settings st ON st.agency_id = i.agency_id
    WHERE i.removed_at IS NULL ${agencyId === null ? sql`` : sql`AND i.agency_id = ${agencyId}`}`,
  )
}

/** Devices with an open offset in an organisation's installations (a switched-off check closes them). */
export async function openOffsets(db: DbOrTx, agencyId: number): Promise<number[]> {
  const rows = await many<{ device_id: number }>(
    db,
    sql`SELECT e.device_id FROM device_events e JOIN installations i ON i.id = e.installation_id
        WHERE e.kind = 'offset' AND e.closed_at IS NULL AND i.agency_id = ${agencyId} AND i.removed_at IS NULL`,
  )
  return rows.map((r) => r.device_id)
}
