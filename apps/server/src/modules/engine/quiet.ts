import type { DeviceMessage, UnknownMessage } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { many } from '../../db/sql.ts'
import type * as repo from './engine.repository.ts'
import { DEADLINE_GRACE_MS, DEFAULT_REPORT_INTERVAL_S, MISSED_FACTOR, type Outcome } from './engine.rules.ts'
import { groupCommit, type Waiter } from './group-commit.ts'
import { BATTERY_EXHAUSTED, BATTERY_LOW } from './reducer.ts'

/** Collects quiet messages from every connection and writes them in one transaction. */
export type QuietBatcher = {
  /** Stores the rows (and applies them); answers each row's outcome, in their order. */
  submit(rows: repo.NewInboxRow[]): Promise<Outcome[]>
}

type Waiting = Waiter<repo.NewInboxRow, Outcome[]>

const band = (b: number) => (b <= BATTERY_EXHAUSTED ? 0 : b <= BATTERY_LOW ? 1 : 2)

// Devices this process last saw with a fault open. Only a hint, so a passing self-test that will
// close a fault goes straight to the engine instead of through the batch and back (the batch
// checks again in SQL, so a hint that is wrong, or missing on another instance, costs time only).
const faulty = new WeakMap<AppContext, Set<number>>()
const MAX_HINTS = 200_000

/** Records whether the engine left a device with a fault open. */
export function hintFault(ctx: AppContext, deviceId: number, open: boolean) {
  let set = faulty.get(ctx)
  if (!set) {
    set = new Set()
    faulty.set(ctx, set)
  }
  if (!open) set.delete(deviceId)
  else if (set.size < MAX_HINTS) set.add(deviceId)
}

/**
 * Messages that usually change nothing but the device's clock: heartbeats, and self-tests that
 * pass on a device with no fault open (nine in ten of what a network sends, and most of the
 * rest). They go to the batcher, which still hands any that change something to the engine.
 */
export function mayBeQuiet(ctx: AppContext, deviceId: number, m: DeviceMessage | UnknownMessage): boolean {
  if (m.type === 'heartbeat') return true
  return (
    m.type === 'selftest' &&
    (m as { data: { result?: string } }).data.result === 'pass' &&
    !faulty.get(ctx)?.has(deviceId)
  )
}

/** The fields of a heartbeat or a self-test the batch reads. */
type QuietData = {
  rssi?: number
  report_type?: number
  battery?: number
  electrode_sheet_expire?: string
  battery_expire?: string
}

/**
 * Group commit for quiet messages, most of what a network sends. Whatever arrived while the
 * previous batch was being written goes in the next one: every message is stored in the inbox
 * (duplicates found by its key), and one statement moves each device's deadline, battery and
 * signal to its newest row, and writes its passing self-tests' records and last pass, for the
 * devices whose rows change nothing else (online, no rescue under way, battery in the same band,
 * all newer than the state; with self-tests also no fault open and no new consumable dates).
 * The others are applied one by one through the engine, as any message. Answers after the
 * commit.
 */
export function createQuietBatcher(
  ctx: AppContext,
  engine: Engine,
  opts: { maxRows?: number; lanes?: number } = {},
): QuietBatcher {
  // PostgreSQL writes several batches at once; each lane holds its own devices, so two batches
  // never lock the same device rows (no deadlock between them). PGlite has one connection.
  const lanes = opts.lanes ?? (ctx.database.kind === 'postgres' ? 4 : 1)
  const all = Array.from({ length: lanes }, () => lane(ctx, engine, opts.maxRows ?? 2000))
  return {
    submit(rows) {
      return all[(rows[0]?.sender_id ?? 0) % lanes].submit(rows)
    },
  }
}

/** What a batch does to one device when its rows are quiet. */
type DeviceSummary = {
  deviceId: number
  /** The oldest row's order: the state must be older than it (no row stale). */
  firstBoot: number
  firstSeq: number
  /** The newest row's order and arrival: the state takes them. */
  boot: number
  seq: number
  seen: string
  rssi: number | null
  /** The newest battery reported, and its band (every battery of the rows in that one band). */
  battery: number | null
  band: number | null
  /** The newest passing self-test's time (null: none among the rows). */
  passAt: string | null
  pads: string | null
  batteryExp: string | null
}

/** A passing self-test's detection record. */
type TestRecord = { deviceId: number; reportType: number; battery: number | null; at: string }

/**
 * One summary per device of a batch's rows (in arrival order), and the records of their
 * self-tests, for the devices whose rows can be quiet together: in the device's own order, every
 * battery in one band, at most one set of consumable dates. The others are left out, so the
 * batch hands all their rows to the engine.
 */
export function summarize(rows: repo.NewInboxRow[]): { devices: DeviceSummary[]; tests: TestRecord[] } {
  const byDevice = new Map<number, repo.NewInboxRow[]>()
  for (const r of rows) {
    const list = byDevice.get(r.sender_id)
    if (list) list.push(r)
    else byDevice.set(r.sender_id, [r])
  }
  const devices: DeviceSummary[] = []
  const tests: TestRecord[] = []
  next: for (const [deviceId, list] of byDevice) {
    const first = list[0]
    const s: DeviceSummary = {
      deviceId,
      firstBoot: first.boot,
      firstSeq: first.seq,
      boot: first.boot,
      seq: first.seq,
      seen: first.received_at.toISOString(),
      rssi: null,
      battery: null,
      band: null,
      passAt: null,
      pads: null,
      batteryExp: null,
    }
    const own: TestRecord[] = []
    for (const [k, r] of list.entries()) {
      const prev = list[k - 1]
      if (prev && !(r.boot > prev.boot || (r.boot === prev.boot && r.seq > prev.seq))) continue next
      const d = r.data as QuietData
      s.boot = r.boot
      s.seq = r.seq
      s.seen = r.received_at.toISOString()
      if (d.rssi !== undefined) s.rssi = d.rssi
      if (d.battery !== undefined) {
        if (s.band !== null && band(d.battery) !== s.band) continue next
        s.battery = d.battery
        s.band = band(d.battery)
      }
      if (r.type !== 'selftest') continue
      const pads = d.electrode_sheet_expire ?? null
      const batteryExp = d.battery_expire ?? null
      if ((pads && s.pads && pads !== s.pads) || (batteryExp && s.batteryExp && batteryExp !== s.batteryExp))
        continue next
      s.pads = pads ?? s.pads
      s.batteryExp = batteryExp ?? s.batteryExp
      s.passAt = r.event_time.toISOString()
      own.push({ deviceId, reportType: d.report_type ?? 0, battery: d.battery ?? null, at: s.passAt })
    }
    devices.push(s)
    tests.push(...own)
  }
  return { devices, tests }
}

/** How the batch hands messages to the engine. */
export type Engine = {
  /** Applies a stored row the batch found would change something, in its own transaction. */
  applyRow: (inboxId: number) => Promise<Outcome>
  /** Stores and applies one message as the engine does any (kept for the retry when it fails). */
  applyOne: (row: repo.NewInboxRow) => Promise<Outcome>
}

function lane(ctx: AppContext, { applyRow, applyOne }: Engine, maxRows: number): QuietBatcher {
  async function write(batch: Waiting[]) {
    const rows = batch.flatMap((w) => w.rows)
    const now = ctx.clock.now()
    // Summarised as if every row were new: a device with a duplicate among them is left to the
    // engine by the database (see migration 0016, which holds the batch's statements and rules).
    const { devices, tests } = summarize(rows)
    const rcol = <T>(f: (r: repo.NewInboxRow) => T) => sql.param(rows.map(f))
    const col = <T>(f: (d: DeviceSummary) => T) => sql.param(devices.map(f))
    const tcol = <T>(f: (t: TestRecord) => T) => sql.param(tests.map(f))
    const iso = (d: Date | null) => d?.toISOString() ?? null
    const stored = await many<{ inbox_id: number; sender_id: number; msg_id: string; loud: boolean }>(
      ctx.db,
      sql`SELECT * FROM engine_quiet_batch(
        ${rcol((r) => r.sender_id)}::bigint[], ${rcol((r) => r.msg_id)}::text[], ${rcol((r) => r.type)}::text[],
        ${rcol((r) => r.boot)}::int[], ${rcol((r) => r.seq)}::bigint[], ${rcol((r) => iso(r.device_ts))}::timestamptz[],
        ${rcol((r) => iso(r.event_time))}::timestamptz[], ${rcol((r) => r.ts_flagged)}::boolean[],
        ${rcol((r) => iso(r.received_at))}::timestamptz[], ${rcol((r) => r.transport)}::text[],
        ${rcol((r) => JSON.stringify(r.data))}::jsonb[],
        ${col((d) => d.deviceId)}::bigint[], ${col((d) => d.firstBoot)}::int[],
        ${col((d) => d.firstSeq)}::bigint[], ${col((d) => d.boot)}::int[], ${col((d) => d.seq)}::bigint[],
        ${col((d) => d.seen)}::timestamptz[], ${col((d) => d.rssi)}::smallint[],
        ${col((d) => d.battery)}::smallint[], ${col((d) => d.band)}::int[],
        ${col((d) => d.passAt)}::timestamptz[], ${col((d) => d.pads)}::text[],
        ${col((d) => d.batteryExp)}::text[],
        ${tcol((t) => t.deviceId)}::bigint[], ${tcol((t) => t.reportType)}::smallint[],
        ${tcol((t) => t.battery)}::smallint[], ${tcol((t) => t.at)}::timestamptz[],
        ${now.toISOString()}::timestamptz,
        ${DEFAULT_REPORT_INTERVAL_S}::int, ${MISSED_FACTOR}::int, ${DEADLINE_GRACE_MS / 1000}::double precision,
        ${BATTERY_EXHAUSTED}::int, ${BATTERY_LOW}::int)`,
    )
    const ids = new Map(stored.map((r) => [`${r.sender_id}:${r.msg_id}`, r.inbox_id]))
    const loud = stored.filter((r) => r.loud).map((r) => r.inbox_id)
    // Stored: what is left is applied now, and by the retry job if this process dies first.
    const outcomes = new Map<number, Outcome>()
    for (const id of loud.sort((a, b) => a - b)) outcomes.set(id, await applyRow(id))
    // The first of a message id in the batch was stored; a second (the same id sent twice) was not.
    const seen = new Set<string>()
    for (const w of batch) {
      w.resolve(
        w.rows.map((r) => {
          const key = `${r.sender_id}:${r.msg_id}`
          const id = seen.has(key) ? undefined : ids.get(key)
          seen.add(key)
          return id === undefined ? 'duplicate' : (outcomes.get(id) ?? 'applied')
        }),
      )
    }
  }

  const group = groupCommit<repo.NewInboxRow, Outcome[]>({
    maxRows,
    write,
    // One sender's bad row must not refuse the others: each is written on its own, and when even
    // that fails (a record that cannot be written), its messages go through the engine one by
    // one, which keeps and acknowledges what it cannot apply for the retry job.
    alone: async (w) => {
      try {
        await write([w])
      } catch {
        const out: Outcome[] = []
        for (const r of w.rows) out.push(await applyOne(r))
        w.resolve(out)
      }
    },
  })
  return group
}
