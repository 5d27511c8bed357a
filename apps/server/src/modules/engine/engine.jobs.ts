import { DEFAULT_SETTINGS } from '@aed/contracts/settings'
import type { AppContext, Job } from '../../context.ts'
import { every } from '../../lib/every.ts'
import { formatDate } from '../../lib/time.ts'
import * as repo from './engine.repository.ts'
import { applyCheck, retryInbox } from './engine.service.ts'
import * as inbox from './inbox.repository.ts'
import { outboxJob } from './outbox.ts'
import { RESCUE_QUIET_MS, warningsFor } from './reducer.ts'

/** The sweep runs this often; a longer silence of the platform itself shifts deadlines. */
export const SWEEP_EVERY_MS = 30_000
/** A gap since the last sweep longer than this means the platform was down, not the devices. */
export const SWEEP_GAP_MS = 3 * 60_000
/** Processed messages are kept this long: a device resending within it is told "duplicate". */
export const INBOX_RETENTION_MS = 7 * 24 * 3600_000
/** One sweep stops after this long; the next tick goes on. */
const SWEEP_BUDGET_MS = 20_000

/** A span in which the platform itself was away (no job started or finished): (from, to]. */
export type Outage = { from: Date; to: Date }

/**
 * The platform's own outage just before `now`, or null: the previous tick is longer ago than a
 * few ticks. Any job starting is the platform alive (the sweep runs first in a tick, so nothing
 * of this tick counts).
 */
export async function platformOutage(ctx: AppContext, now: Date): Promise<Outage | null> {
  const alive = await repo.platformLastAlive(ctx.db, now)
  if (!alive || now.getTime() - alive.getTime() <= SWEEP_GAP_MS) return null
  ctx.log.warn(
    { gapMs: now.getTime() - alive.getTime() },
    'offline sweep: the platform was away; deadlines moved by the gap',
  )
  return { from: alive, to: now }
}

/** The AEDs' deadlines that fell into the outage move later by its length (later ones stay). */
export async function shiftPastOutage(ctx: AppContext, outage: Outage) {
  await repo.shiftDeadlines(ctx.db, outage.from, outage.to)
}

/**
 * Offline: devices whose stored deadline passed get an offline event, one transaction each,
 * oldest deadline first. When the previous sweep is longer ago than a few ticks the server (or
 * every server) was down: the deadlines that fell into that gap move later by its length first,
 * so a restart does not mark the network offline for the platform's own outage. (The server's
 * own job, jobs/offline-sweep.ts, also moves the rescue cabinets' deadlines at that point.)
 */
export async function sweepOffline(ctx: AppContext, now: Date): Promise<number> {
  const outage = await platformOutage(ctx, now)
  if (outage) await shiftPastOutage(ctx, outage)
  return markOverdue(ctx, now)
}

/** The sweep after the outage check: overdue devices go offline, quiet rescues end. */
export async function markOverdue(ctx: AppContext, now: Date): Promise<number> {
  const started = Date.now()
  let marked = 0
  let after: { at: Date; id: number } | null = null
  while (Date.now() - started < SWEEP_BUDGET_MS) {
    const due = await repo.overdueDevices(ctx.db, now, 200, after)
    if (due.length === 0) break
    for (const d of due) {
      try {
        if (await applyCheck(ctx, d.device_id, 'deadline')) marked++
      } catch (e) {
        // One device's failure must not keep the others online: it is tried again next tick.
        ctx.log.error(
          { device: d.device_id, err: { message: (e as Error).message } },
          'offline sweep: device failed',
        )
      }
    }
    const last = due[due.length - 1]
    after = { at: last.next_deadline_at, id: last.device_id }
  }
  // Rescues with no step for an hour are over, even when the device says nothing more.
  for (const id of await repo.quietRescues(ctx.db, new Date(now.getTime() - RESCUE_QUIET_MS), 200)) {
    await applyCheck(ctx, id, 'recheck').catch((e: Error) =>
      ctx.log.error({ device: id, err: { message: e.message } }, 'rescue end failed'),
    )
  }
  return marked
}

/**
 * Re-checks the warnings of registered devices (of one organisation's installations, or all): the day
 * moved on, or the settings or an installation changed. The comparison is one read and the reducer's
 * own `warningsFor`; only devices whose warnings differ go through the engine.
 */
export async function recheckWarnings(ctx: AppContext, agencyId: number | null = null): Promise<number> {
  const now = ctx.clock.now()
  const today = formatDate(now)
  const rows = await repo.recheckRows(ctx.db, agencyId)
  let changed = 0
  for (const r of rows) {
    const s = { ...DEFAULT_SETTINGS, ...(r.config ?? {}) }
    const want = warningsFor(
      {
        lat: 0,
        lon: 0,
        location: '',
        padsExpire: r.electrode_sheet_expire,
        batteryExpire: r.battery_expire,
        hostExpire: r.host_expire,
        safetyRadiusM: null,
      },
      r.battery,
      {
        offsetKm: s.location_offset,
        padsReminderMonths: s.electrode_sheet_expire,
        batteryReminderMonths: s.battery_expire,
      },
      today,
      r.not_returned_cabinet,
    )
    const have = new Set(r.warnings)
    const same = want.size === have.size && [...want.keys()].every((k) => have.has(k))
    if (!same && (await applyCheck(ctx, r.device_id, 'recheck'))) changed++
  }
  if (agencyId !== null) {
    for (const id of await repo.openOffsets(ctx.db, agencyId)) await applyCheck(ctx, id, 'recheck')
  }
  return changed
}

/** Re-checks some devices now (after a registration, change, replacement or removal). */
export async function recheckDevices(ctx: AppContext, ids: number[]) {
  for (const id of ids) await applyCheck(ctx, id, 'recheck')
}

export const offlineSweepJob: Job = every('offline-sweep', SWEEP_EVERY_MS, sweepOffline)

/** Expiry reminders: hourly, so a new day's warnings open within the hour after midnight. */
export const expiryRecheckJob: Job = every('expiry-recheck', 3600_000, (ctx: AppContext) =>
  recheckWarnings(ctx),
)

/**
 * Messages acknowledged but not applied (a crash, a failure) are applied; old ones forgotten.
 * (Unanswered commands expire in the device module's job.)
 */
export const engineRetryJob: Job = {
  name: 'engine-retry',
  everyMs: 60_000,
  async run(ctx, now) {
    await retryInbox(ctx)
    await inbox.deleteOldInbox(ctx.db, new Date(now.getTime() - INBOX_RETENTION_MS))
  },
}

/** The engine's jobs after its offline sweep, in the order a tick runs them. */
export const engineJobsAfterSweep: readonly Job[] = [expiryRecheckJob, engineRetryJob, outboxJob]

/** The engine's jobs, once per cluster (the server runs jobs/offline-sweep.ts's sweep instead of its own). */
export const engineJobs: readonly Job[] = [offlineSweepJob, ...engineJobsAfterSweep]
