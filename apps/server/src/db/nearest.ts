import { sql } from 'drizzle-orm'
import { PgTransaction } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client.ts'

// The nearest rows to a point by a walk of a GiST index of points (ll_to_earth) in distance order:
// ORDER BY the cube distance `<->` (the chord, in the order of the distance on the ground) with a
// LIMIT, the point's box as the walk's bound. Dispatch's choice of responders and AEDs.

/**
 * earth_distance's metres on the sphere of earthdistance's radius (6378168 m), scaled to the
 * mean Earth radius (6371008.8 m) the haversine distances elsewhere use.
 */
export const EARTH_SCALE = 6371008.8 / 6378168

/**
 * Runs `fn` where the planner walks the index in distance order. Its estimate of a box's `@>` is a
 * constant (about 0.1 % of the rows), so it would rather read the whole box with a bitmap scan and
 * sort it: in a city's centre a 2.6 km box holds some 3,000 installations, each joined before the
 * sort, where the walk reads a few dozen. Bitmap scans are off for `fn` alone, in the caller's
 * transaction (the dispatch's: two statements more), else in one of its own. An error in `fn`
 * aborts the transaction; rolling back to the caller's savepoint puts the setting back too.
 */
export async function inDistanceOrder<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  if (!(db instanceof PgTransaction)) return db.transaction((tx) => inDistanceOrder(tx, fn))
  await db.execute(sql`SET LOCAL enable_bitmapscan = off`)
  const out = await fn(db)
  await db.execute(sql`SET LOCAL enable_bitmapscan TO DEFAULT`)
  return out
}
