import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { encodeEvent } from '../../db/events.ts'
import { insertPush, insertPushes, lockPushOrder, type NewPush, type StoredPush } from './live.repository.ts'

/** The bus channel stored pushes are announced on; every instance's live hub listens. */
export const LIVE_PUSH_CHANNEL = 'live_push'

/**
 * Pushes to every console whose scope holds `p.index_link`: stored (so a console that
 * reconnects gets it) and announced when the caller's transaction commits, never if it rolls
 * back. The announcement carries the push whole when it fits a NOTIFY, else its id.
 */
export async function pushLive(ctx: AppContext, tx: DbOrTx, p: NewPush): Promise<number> {
  const stored = await insertPush(tx, p, ctx.clock.now())
  await announce(ctx, tx, stored)
  return stored.id
}

/** pushLive for many pushes in one statement (a drain's status changes). */
export async function pushLiveMany(ctx: AppContext, tx: DbOrTx, pushes: NewPush[]): Promise<void> {
  if (pushes.length === 0) return
  for (const stored of await insertPushes(tx, pushes, ctx.clock.now())) await announce(ctx, tx, stored)
}

/**
 * Holds the push-order lock until the caller's transaction ends: what it writes next is ordered
 * with every push by commit (the webhook fan-out's deliveries).
 */
export function holdPushOrder(tx: DbOrTx): Promise<void> {
  return lockPushOrder(tx)
}

/** Announces a stored push at commit: whole when it fits a NOTIFY, else by its id. */
async function announce(ctx: AppContext, tx: DbOrTx, stored: StoredPush) {
  let payload: unknown = stored
  try {
    encodeEvent(LIVE_PUSH_CHANNEL, stored)
  } catch {
    payload = { id: stored.id }
  }
  await ctx.events.publishIn(tx, LIVE_PUSH_CHANNEL, payload)
}
