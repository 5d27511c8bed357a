import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { encodeEvent } from '../../lib/events.ts'
import { insertPush, type NewPush } from './live.repository.ts'

/** The bus channel stored pushes are announced on; every instance's live hub listens. */
export const LIVE_PUSH_CHANNEL = 'live_push'

/**
 * Pushes to every console whose scope holds `p.index_link`: stored (so a console that
 * reconnects gets it) and announced when the caller's transaction commits, never if it rolls
 * back. The announcement carries the push whole when it fits a NOTIFY, else its id.
 */
export async function pushLive(ctx: AppContext, tx: DbOrTx, p: NewPush): Promise<number> {
  const stored = await insertPush(tx, p, ctx.clock.now())
  const whole = { ...stored, create_time: stored.create_time }
  let payload: unknown = whole
  try {
    encodeEvent(LIVE_PUSH_CHANNEL, whole)
  } catch {
    payload = { id: stored.id }
  }
  await ctx.events.publishIn(tx, LIVE_PUSH_CHANNEL, payload)
  return stored.id
}
