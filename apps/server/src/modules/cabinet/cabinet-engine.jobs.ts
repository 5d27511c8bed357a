import type { AppContext, Job } from '../../context.ts'
import { every } from '../../lib/every.ts'
import { SWEEP_EVERY_MS } from '../engine/engine.port.ts'
import { raiseNotReturned, retryCabinetInbox, sweepCabinetsOffline } from './cabinet-engine.service.ts'

/**
 * Cabinets whose deadline passed go offline (their state says so; no event), and AEDs not back
 * in their cabinet some hours after the door closed get their 'not_returned' warning. As often
 * as the AEDs' offline sweep; the server's sweep (jobs/offline-sweep.ts) moves the cabinets'
 * deadlines past the platform's own outages before this runs (shiftCabinetsPastOutage).
 */
export const cabinetSweepJob: Job = every('cabinet-sweep', SWEEP_EVERY_MS, async (ctx: AppContext, now) => {
  await sweepCabinetsOffline(ctx, now)
  await raiseNotReturned(ctx, now)
})

/** Cabinet messages acknowledged but not applied (a crash, a failure) are applied. */
export const cabinetRetryJob: Job = every('cabinet-retry', 60_000, (ctx: AppContext) =>
  retryCabinetInbox(ctx),
)

/** The rescue cabinet engine's jobs, once per cluster (after the device engine's). */
export const cabinetEngineJobs: readonly Job[] = [cabinetSweepJob, cabinetRetryJob]
