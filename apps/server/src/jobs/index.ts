import { housekeepingJob } from './housekeeping.ts'
import type { Job } from './runner.ts'

/** The jobs the server runs (once per cluster). The device domain adds its sweeps here. */
export const productionJobs: readonly Job[] = [housekeepingJob]
