import { createHash } from 'node:crypto'
import type { LiveEndReason } from '@aed/contracts/live'
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

/** A `live` outbox row that names its frame (lib/live-rows.ts), as a push; null for a status row. */
export function livePushOf(
  payload: Record<string, unknown>,
): { data_type: number; data: Record<string, unknown> } | null {
  const frame = payload.frame
  if (typeof frame !== 'number' || typeof payload.data !== 'object' || payload.data === null) return null
  return { data_type: frame, data: payload.data as Record<string, unknown> }
}

/** The bus channel on which ended sessions are announced: every instance's hub closes its sockets of them (4009). */
export const LIVE_SESSION_CHANNEL = 'live_session_end'

/**
 * Whose open sockets end: an account's (its password changed: every token but `keep`, the one
 * that changed it, whose console reopens with its new token) or every member's under an
 * organisation's path (it, or one above, was disabled).
 */
export type EndedSessions =
  | { reason: Extract<LiveEndReason, 'password_changed'>; account_id: number; keep?: string }
  | { reason: Extract<LiveEndReason, 'agency_disabled'>; index_link: string }

/** A token as announced: its digest, never the token itself. */
export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 32)

/**
 * Closes the live sockets of ended sessions on every instance, with 4009 and the reason. Called
 * after the change committed: a socket that opened just before is closed by the hub's recheck.
 */
export async function endLiveSessions(
  ctx: AppContext,
  ended:
    | { reason: 'password_changed'; account_id: number; keepToken?: string }
    | { reason: 'agency_disabled'; index_link: string },
): Promise<void> {
  const payload: EndedSessions =
    ended.reason === 'password_changed'
      ? {
          reason: ended.reason,
          account_id: ended.account_id,
          keep: ended.keepToken && tokenDigest(ended.keepToken),
        }
      : ended
  try {
    await ctx.events.publish(LIVE_SESSION_CHANNEL, payload)
  } catch (e) {
    // The change stands; the hub's recheck closes the sockets within its period.
    ctx.log.warn({ err: { message: (e as Error).message } }, 'ended sessions not announced')
  }
}
