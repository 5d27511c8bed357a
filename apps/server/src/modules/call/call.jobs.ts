import { LiveType } from '@aed/contracts/live'
import { CALL_RESCUE_LINK_MS, DEFAULT_SETTINGS } from '@aed/contracts/settings'
import type { AppContext, Job } from '../../context.ts'
import { every } from '../../lib/every.ts'
import { insertOutbox, kickIfTold, type OutboxRow, tellOutbox } from '../engine/engine.port.ts'
import { pushLiveMany } from '../live/live.service.ts'
import * as repo from './call.repository.ts'

/** Calls closed per transaction. */
const BATCH = 200

/**
 * Closes the open calls whose time ran out (close_due_at, from the organisation's
 * call_close_minutes), each with its call.closed webhook. SKIP LOCKED: instances share the work.
 */
export async function closeDueCalls(ctx: AppContext, now: Date): Promise<number> {
  let closed = 0
  for (;;) {
    const n = await ctx.db.transaction(async (tx) => {
      const due = await repo.dueToClose(tx, now, BATCH)
      const rows: OutboxRow[] = []
      for (const c of due) {
        if (
          !(await repo.closeCall(tx, c.id, { outcome: null, reason: 'timeout', by: null, remark: null }, now))
        )
          continue
        rows.push({
          topic: 'webhook',
          key: `webhook:call:${c.id}:closed`,
          agencyId: c.agency_id,
          indexLink: c.index_link,
          payload: { event: 'call.closed', call_id: c.id },
        })
      }
      await insertOutbox(tx, rows, now)
      await tellOutbox(ctx, tx, rows)
      return due.length
    })
    closed += n
    if (n < BATCH) break
  }
  kickIfTold(ctx)
  return closed
}

/** How far back the link looks for rescues: a restart or a slow tick loses none. */
const LINK_LOOKBACK_MS = 2 * 3600_000

/**
 * Links rescues to the open calls they answered (a device within the call's radius that started
 * within 30 minutes after it): the call's outcome becomes AED used, and the rescue shows its call.
 * One statement; running it twice links nothing twice. The consoles that see a linked call are
 * told (live frame 15), so a dispatcher watching it sees its AED without reloading.
 */
export function linkRescuesToCalls(ctx: AppContext, now: Date) {
  return ctx.db.transaction(async (tx) => {
    const linked = await repo.linkRescues(
      tx,
      now,
      CALL_RESCUE_LINK_MS,
      LINK_LOOKBACK_MS,
      DEFAULT_SETTINGS.call_radius_m!,
    )
    await pushLiveMany(
      ctx,
      tx,
      linked.map((l) => ({
        data_type: LiveType.CALL_RESCUE,
        agency_id: l.agency_id,
        index_link: l.index_link,
        data: { call_id: l.call_id, rescue_id: l.rescue_id },
      })),
    )
    return linked
  })
}

/** The call module's jobs: links first (a call about to time out still gets its AED), then closing. */
export const callJobs: readonly Job[] = [
  every('call-rescue-link', 10_000, linkRescuesToCalls),
  every('call-close', 60_000, closeDueCalls),
]
