import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { insertPushes, lockPushOrder, type NewPush } from './live.repository.ts'

/**
 * The bus channel stored pushes are announced on; every instance's live hub listens. The
 * announcement is made by the database as the push's transaction commits (migration 0030).
 */
export const LIVE_PUSH_CHANNEL = 'live_push'

/**
 * Pushes to every console whose scope holds `p.index_link`: stored (so a console that
 * reconnects gets it) and announced when the caller's transaction commits, never if it rolls
 * back. The announcement carries the push whole when it fits a NOTIFY, else its id.
 */
export async function pushLive(ctx: AppContext, tx: DbOrTx, p: NewPush): Promise<void> {
  await insertPushes(tx, [p], ctx.clock.now())
}

/** pushLive for many pushes in one statement (a drain's status changes), in the order given. */
export async function pushLiveMany(ctx: AppContext, tx: DbOrTx, pushes: NewPush[]): Promise<void> {
  await insertPushes(tx, pushes, ctx.clock.now())
}

/**
 * Holds the push-order lock until the caller's transaction ends: what it writes next is ordered
 * with every push by commit (the webhook fan-out's deliveries).
 */
export function holdPushOrder(tx: DbOrTx): Promise<void> {
  return lockPushOrder(tx)
}
