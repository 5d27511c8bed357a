import { DEFAULT_SETTINGS } from '@aed/contracts/settings'
import type { AppContext, Job } from '../../context.ts'
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

/**
 * Offline: devices whose stored deadline passed get an offline event, one transaction each,
 * oldest deadline first. When the previous sweep is longer ago than a few ticks the server (or
 * every server) was down: the deadlines that fell into that gap move later by its length (the
 * rescue cabinets' too, whose own sweep is modules/cabinet's), so a restart does not mark the
 * network offline for the platform's own outage.
 */
export async function sweepOffline(ctx: AppContext, now: Date): Promise<number> {
  // Any job starting is the platform alive; a longer silence than a few ticks is its own outage.
  const alive = await repo.platformLastAlive(ctx.db, now)
  if (alive && now.getTime() - alive.getTime() > SWEEP_GAP_MS) {
    await repo.shiftDeadlines(ctx.db, alive, now)
    ctx.log.warn(
      { gapMs: now.getTime() - alive.getTime() },
      'offline sweep: the platform was away; deadlines moved by the gap',
    )
  }
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
 * Re-checks the warnings of registered devices (of one organisation's sites, or all): the day
 * moved on, or the settings or a site changed. The comparison is one read and the reducer's
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

export const offlineSweepJob: Job = {
  name: 'offline-sweep',
  everyMs: SWEEP_EVERY_MS,
  async run(ctx, now) {
    await sweepOffline(ctx, now)
  },
}

/** Expiry reminders: hourly, so a new day's warnings open within the hour after midnight. */
export const expiryRecheckJob: Job = {
  name: 'expiry-recheck',
  everyMs: 3600_000,
  async run(ctx) {
    await recheckWarnings(ctx)
  },
}

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

/** The engine's jobs, once per cluster. */
export const engineJobs: readonly Job[] = [offlineSweepJob, expiryRecheckJob, engineRetryJob, outboxJob]
