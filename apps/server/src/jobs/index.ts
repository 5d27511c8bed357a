import { alertJobs } from '../modules/alert/alert.jobs.ts'
import { cabinetEngineJobs } from '../modules/cabinet/cabinet-engine.jobs.ts'
import { callJobs } from '../modules/call/call.jobs.ts'
import { deviceJobs } from '../modules/device/device.jobs.ts'
import { dispatchJobs } from '../modules/dispatch/dispatch.jobs.ts'
import { engineJobsAfterSweep } from '../modules/engine/engine.jobs.ts'
import { responderJobs } from '../modules/responder/responder.jobs.ts'
import { housekeepingJob } from './housekeeping.ts'
import { offlineSweepJob } from './offline-sweep.ts'
import type { Job } from './runner.ts'
import { settleJob } from './settle.ts'

/**
 * The jobs the server runs (once per cluster), one after another in each tick. The offline sweep
 * goes first: it reads when the previous tick ran to tell its own outage from devices' silence
 * (and moves the AEDs' and the cabinets' deadlines past it: jobs/offline-sweep.ts). Unanswered device
 * commands expire after the engines' jobs. Alert SMS follow the engine's
 * outbox, so lines it plans go out in the same tick. Settling (PGlite's stand-in for
 * autovacuum) comes last, after housekeeping's deletes.
 */
export const productionJobs: readonly Job[] = [
  offlineSweepJob,
  ...engineJobsAfterSweep,
  ...cabinetEngineJobs,
  ...deviceJobs,
  // Before the alerts: certificate reminders it queues go out in the same tick.
  ...responderJobs,
  ...callJobs,
  ...dispatchJobs,
  ...alertJobs,
  housekeepingJob,
  settleJob,
]
