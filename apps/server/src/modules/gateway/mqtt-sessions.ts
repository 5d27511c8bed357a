import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

// Who reads which of the server's persistent sessions on an external broker (mqtt_sessions,
// migration 0037). A broker hands a shared subscription's messages to every session in the
// group, connected or not, and keeps an offline one's until its client id connects again: a
// killed instance's sessions would hold their share of the devices' messages for as long as it
// stays down (for ever with a pid-named client id). So each instance marks its sessions as seen,
// and a live instance adopts one left unmarked for `staleMs`: it drains what the broker kept
// and ends the session. An owner that comes back takes its session over (the broker drops the
// adopter, which then stops; what it had not acknowledged goes to the owner again).

/** Marks `clientIds` as read by `holder` now. */
export async function markSeen(db: DbOrTx, holder: string, clientIds: readonly string[]): Promise<void> {
  if (!clientIds.length) return
  const rows = clientIds.map((id) => sql`(${id}, ${holder}, now())`)
  await db.execute(sql`
    INSERT INTO mqtt_sessions (client_id, holder, seen_at) VALUES ${sql.join(rows, sql`, `)}
    ON CONFLICT (client_id) DO UPDATE SET holder = EXCLUDED.holder, seen_at = now()`)
}

/**
 * Takes for `holder` up to `limit` sessions nobody marked for `staleMs`, other than `own`;
 * answers their client ids. Two instances never take the same one (SKIP LOCKED).
 */
export async function claimOrphans(
  db: DbOrTx,
  holder: string,
  own: readonly string[],
  staleMs: number,
  limit: number,
): Promise<string[]> {
  const notOwn = own.length
    ? sql`AND client_id NOT IN (${sql.join(
        own.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``
  const rows = await many<{ client_id: string }>(
    db,
    sql`UPDATE mqtt_sessions SET holder = ${holder}, seen_at = now()
        WHERE client_id IN (
          SELECT client_id FROM mqtt_sessions
          WHERE seen_at < now() - ${staleMs} * interval '1 millisecond' ${notOwn}
          ORDER BY seen_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING client_id`,
  )
  return rows.map((r) => r.client_id)
}

/** Forgets an ended session, unless someone else (its owner, back) holds it now. */
export async function forget(db: DbOrTx, clientId: string, holder: string): Promise<void> {
  await db.execute(sql`DELETE FROM mqtt_sessions WHERE client_id = ${clientId} AND holder = ${holder}`)
}

export type SessionKeeperOptions = {
  /** This instance's name in the table (its first client id). */
  holder: string
  /** Its own sessions' client ids. */
  own: readonly string[]
  /** Drains and ends an orphaned session; resolves 'ended', or 'taken' when its owner came back. */
  adopt(clientId: string): Promise<'ended' | 'taken'>
  /** How often sessions are marked and orphans looked for (default 5 s). */
  sweepMs?: number
  /** Unmarked this long, a session is an orphan (default 30 s: six missed marks). */
  staleMs?: number
}

/** Marks this instance's sessions and adopts orphans until stopped. */
export function keepSessions(ctx: AppContext, opts: SessionKeeperOptions) {
  const log = ctx.log.child({ module: 'mqtt' })
  const sweepMs = opts.sweepMs ?? 5000
  const staleMs = opts.staleMs ?? 30_000
  const adopting = new Map<string, Promise<void>>()
  let stopped = false
  let running: Promise<void> | null = null

  async function sweep() {
    await markSeen(ctx.db, opts.holder, [...opts.own, ...adopting.keys()])
    // A few at a time: each is one more connection draining beside this instance's own.
    const free = 4 - adopting.size
    if (free <= 0 || stopped) return
    for (const id of await claimOrphans(ctx.db, opts.holder, opts.own, staleMs, free)) {
      log.warn({ clientId: id }, 'mqtt session of a silent instance adopted: draining it')
      const p = opts
        .adopt(id)
        .then(async (how) => {
          if (how === 'ended') await forget(ctx.db, id, opts.holder)
          log.info({ clientId: id, how }, 'mqtt adopted session done')
        })
        .catch((e: Error) => log.error({ clientId: id, err: { message: e.message } }, 'mqtt adoption failed'))
        .finally(() => adopting.delete(id))
      adopting.set(id, p)
    }
  }

  const tick = () => {
    if (stopped || running) return
    running = sweep()
      .catch((e: Error) => log.warn({ err: { message: e.message } }, 'mqtt session marks failed'))
      .finally(() => {
        running = null
      })
  }
  tick()
  const timer = setInterval(tick, sweepMs)
  timer.unref()
  return {
    /** Stops marking and adopting; waits for adoptions under way (their sessions stay marked as held). */
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
      await Promise.allSettled([...adopting.values()])
    },
  }
}
