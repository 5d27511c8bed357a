import type { Job } from '../context.ts'
import { shiftCabinetsPastOutage } from '../modules/cabinet/cabinet-engine.service.ts'
import {
  offlineSweepJob as engineOfflineSweepJob,
  markOverdue,
  platformOutage,
  shiftPastOutage,
} from '../modules/engine/engine.jobs.ts'

/**
 * The server's offline sweep: the engine's (modules/engine/engine.jobs.ts), and when the
 * platform itself was away, every sender's deadlines that fell into the outage move past it
 * first: the AEDs' (the engine's) and the rescue cabinets' (the cabinet module's), before
 * either kind's sweep marks anything offline. First in a tick: it reads when the previous tick
 * ran. The device engine knows no cabinet, so the two meet here.
 */
export const offlineSweepJob: Job = {
  ...engineOfflineSweepJob,
  async run(ctx, now) {
    const outage = await platformOutage(ctx, now)
    if (outage) {
      await shiftPastOutage(ctx, outage)
      await shiftCabinetsPastOutage(ctx, outage)
    }
    await markOverdue(ctx, now)
  },
}
