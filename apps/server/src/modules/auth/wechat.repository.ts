import { and, eq, gt, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { oauthStates } from '../../db/schema.ts'

/** Stores a one-time OAuth state for a QR code. */
export async function insertState(db: DbOrTx, state: string, purpose: string, expire: Date) {
  await db.insert(oauthStates).values({ state, purpose, expire_time: expire })
}

/** Spends a state issued for `purpose`: true only for an unexpired one, once. */
export async function spendState(db: DbOrTx, state: string, purpose: string) {
  const gone = await db
    .delete(oauthStates)
    .where(
      and(
        eq(oauthStates.state, state),
        eq(oauthStates.purpose, purpose),
        gt(oauthStates.expire_time, sql`now()`),
      ),
    )
    .returning({ state: oauthStates.state })
  return gone.length > 0
}
