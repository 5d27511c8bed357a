import type { DeviceMessage } from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import { batteryBand, changesNothing } from './engine.rules.ts'
import { groupCommit, type Waiter } from './group-commit.ts'
import type { NewInboxRow } from './inbox.repository.ts'
import * as repo from './quiet.repository.ts'

/**
 * What the batch made of one row: stored and applied (`applied`), seen before (`duplicate`),
 * stored but it changes something (`loud`: the engine applies the stored row), or not written
 * because its batch could not be (`alone`: the engine stores and applies it as any message).
 */
export type QuietAnswer = 'applied' | 'duplicate' | { loud: number } | 'alone'

/** Collects quiet messages from every connection and writes them in one transaction. */
export type QuietBatcher = {
  /** Stores the rows and applies the quiet ones; answers each row, in their order, after the commit. */
  submit(rows: NewInboxRow[]): Promise<QuietAnswer[]>
}

type Waiting = Waiter<NewInboxRow, QuietAnswer[]>

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
 * Messages that may change nothing (engine.rules.ts, changesNothing), asked with the one fact
 * this process keeps of a device, whether it left a fault open: heartbeats, and self-tests that
 * pass on a device with no fault open (nine in ten of what a network sends, and most of the
 * rest). They go to the batcher, which asks the rule again in SQL with everything the database
 * knows and hands the ones that change something back to the engine.
 */
export function mayBeQuiet(ctx: AppContext, deviceId: number, m: DeviceMessage): boolean {
  return changesNothing(m, { faultOpen: faulty.get(ctx)?.has(deviceId) ?? false })
}

const batchers = new WeakMap<AppContext, QuietBatcher>()
/** This process's quiet batcher. */
export function quietBatcher(ctx: AppContext): QuietBatcher {
  let b = batchers.get(ctx)
  if (!b) {
    b = createQuietBatcher(ctx)
    batchers.set(ctx, b)
  }
  return b
}

/** The fields of a heartbeat or a self-test the batch reads. */
type QuietData = {
  rssi?: number
  cable_voltage?: number
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
 * The others are answered `loud`, for the engine to apply one by one as any message. Answers
 * after the commit.
 */
export function createQuietBatcher(
  ctx: AppContext,
  opts: { maxRows?: number; lanes?: number } = {},
): QuietBatcher {
  // PostgreSQL writes several batches at once; each lane holds its own devices, so two batches
  // never lock the same device rows (no deadlock between them). PGlite has one connection.
  const lanes = opts.lanes ?? (ctx.database.kind === 'postgres' ? 4 : 1)
  const all = Array.from({ length: lanes }, () => lane(ctx, opts.maxRows ?? 2000))
  return {
    submit(rows) {
      return all[(rows[0]?.sender_id ?? 0) % lanes].submit(rows)
    },
  }
}

/**
 * One summary per device of a batch's rows (in arrival order), and the records of their
 * self-tests, for the devices whose rows can be quiet together: in the device's own order, every
 * battery in one band, at most one set of consumable dates. The others are left out, so the
 * batch hands all their rows to the engine.
 */
export function summarize(rows: NewInboxRow[]): { devices: repo.DeviceSummary[]; tests: repo.TestRecord[] } {
  const byDevice = new Map<number, NewInboxRow[]>()
  for (const r of rows) {
    const list = byDevice.get(r.sender_id)
    if (list) list.push(r)
    else byDevice.set(r.sender_id, [r])
  }
  const devices: repo.DeviceSummary[] = []
  const tests: repo.TestRecord[] = []
  next: for (const [deviceId, list] of byDevice) {
    const first = list[0]
    const s: repo.DeviceSummary = {
      deviceId,
      firstBoot: first.boot,
      firstSeq: first.seq,
      boot: first.boot,
      seq: first.seq,
      seen: first.received_at.toISOString(),
      rssi: null,
      cableVoltage: null,
      battery: null,
      band: null,
      passAt: null,
      pads: null,
      batteryExp: null,
    }
    const own: repo.TestRecord[] = []
    for (const [k, r] of list.entries()) {
      const prev = list[k - 1]
      if (prev && !(r.boot > prev.boot || (r.boot === prev.boot && r.seq > prev.seq))) continue next
      const d = r.data as QuietData
      s.boot = r.boot
      s.seq = r.seq
      s.seen = r.received_at.toISOString()
      if (d.rssi !== undefined) s.rssi = d.rssi
      if (d.cable_voltage !== undefined) s.cableVoltage = toMillivolts(d.cable_voltage)
      if (d.battery !== undefined) {
        if (s.band !== null && batteryBand(d.battery) !== s.band) continue next
        s.battery = d.battery
        s.band = batteryBand(d.battery)
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

function lane(ctx: AppContext, maxRows: number): QuietBatcher {
  async function write(batch: Waiting[]) {
    const rows = batch.flatMap((w) => w.rows)
    const now = ctx.clock.now()
    // Summarised as if every row were new: a device with a duplicate among them is left to the
    // engine by the database (see migration 0016, which holds the batch's statements and rules).
    const { devices, tests } = summarize(rows)
    const stored = await repo.quietBatch(ctx.db, rows, devices, tests, now)
    const ids = new Map(stored.map((r) => [`${r.sender_id}:${r.msg_id}`, r]))
    // The first of a message id in the batch was stored; a second (the same id sent twice) was
    // not. A loud row is stored and waits: its caller applies it, the retry job if that dies.
    const seen = new Set<string>()
    for (const w of batch) {
      w.resolve(
        w.rows.map((r) => {
          const key = `${r.sender_id}:${r.msg_id}`
          const s = seen.has(key) ? undefined : ids.get(key)
          seen.add(key)
          return s === undefined ? 'duplicate' : s.loud ? { loud: s.inbox_id } : 'applied'
        }),
      )
    }
  }

  return groupCommit<NewInboxRow, QuietAnswer[]>({
    maxRows,
    write,
    // One sender's bad row must not refuse the others: each is written on its own, and when even
    // that fails (a record that cannot be written), its messages go to the engine one by one,
    // which keeps and acknowledges what it cannot apply for the retry job.
    alone: async (w) => {
      try {
        await write([w])
      } catch {
        w.resolve(w.rows.map(() => 'alone'))
      }
    },
  })
}

/**
 * A cable voltage as kept: to the millivolt. The protocol takes any number from 0 to 100, and a
 * `real` column refuses what it cannot hold (5e-324 is below its smallest): a device must never
 * lose a heartbeat to a digit no meter shows.
 */
export function toMillivolts(v: number): number {
  return Math.round(v * 1000) / 1000
}
