import { engineJobs } from '../modules/engine/engine.jobs.ts'
import { housekeepingJob } from './housekeeping.ts'
import type { Job } from './runner.ts'

/** The jobs the server runs (once per cluster). */
export const productionJobs: readonly Job[] = [housekeepingJob, ...engineJobs]
