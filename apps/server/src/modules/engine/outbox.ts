import type {
  AppContext,
  Job,
  OutboxBatchHandler,
  OutboxHandler,
  OutboxHandlers,
  OutboxRecord,
  OutboxTopic,
} from '../../context.ts'
import { type DbOrTx, LANE_CONNECTIONS } from '../../db/client.ts'
import * as repo from './outbox.repository.ts'

// The outbox's mechanics: the engine (and the message centre's callers) write rows, a drain
// delivers them with a table of handlers by topic. Which handler delivers which topic is not
// known here: jobs/outbox.ts composes the table and bootstrap.ts puts it in the context.
export type { OutboxBatchHandler, OutboxHandler, OutboxHandlers, OutboxRecord } from '../../context.ts'

/** Retry backoff: 5 s doubling per attempt, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(3600_000, 5000 * 2 ** Math.max(0, attempts - 1))
}

/** Which rows go first within a drain: see drainOutbox. */
const stage = (topic: OutboxTopic, h: OutboxHandler | OutboxBatchHandler) =>
  typeof h !== 'function' ? 2 : topic === 'message' ? 1 : 0

/**
 * Topics whose rows each go in a transaction of their own, before the rest: a dispatch's start
 * (its first alert SMS is due within a second of the call's commit) commits before the next
 * begins, instead of a burst of calls' dispatches committing together at the end of one drain.
 */
const ALONE: readonly OutboxTopic[] = ['dispatch']

/**
 * Takes due rows of the topics with a handler (FOR UPDATE SKIP LOCKED: instances share the
 * work without waiting on each other), delivers each, marks it done, or counts the attempt
 * and schedules the retry. Answers how many were delivered; `limit` or more: there may be more.
 *
 * The ALONE topics first, a row a transaction (drainAlone). The rest in one transaction: rows
 * that push nothing first, then messages (each pushes its alarm), then the batches (the status
 * pushes in one statement, the webhook deliveries). Pushes take the push-order lock only as the
 * transaction commits (migration 0030), but a webhook fan-out takes it when it writes and holds
 * it until the drain commits (webhook.fanout.ts): last, it is held for the least time.
 *
 * `handlers`: who delivers which topic; the context's table (jobs/outbox.ts) unless a caller
 * drains some topics only.
 */
export async function drainOutbox(
  ctx: AppContext,
  handlers: OutboxHandlers = ctx.outbox,
  limit = 200,
): Promise<number> {
  const topics = Object.keys(handlers) as OutboxTopic[]
  const alone = topics.filter((t) => ALONE.includes(t) && typeof handlers[t] === 'function')
  const rest = topics.filter((t) => !alone.includes(t))
  const first = alone.length > 0 ? await drainAlone(ctx, handlers, alone, limit) : 0
  return first + (rest.length > 0 ? await drainTogether(ctx, handlers, rest, limit) : 0)
}

/**
 * Up to `limit` due rows of `topics`, each taken, delivered and marked done (or put back for its
 * retry) in a transaction of its own: a crash between two rows loses neither, and what one row
 * wrote is visible before the next row starts. On PostgreSQL up to LANE_CONNECTIONS lanes take
 * rows at once (SKIP LOCKED, as instances do), on a pool of their own (Database.lanes): a lane that
 * takes a row starts another, since more may be due (a burst's commits come while the first start
 * runs), and ends when it finds none. PGlite has one connection, so one lane there.
 */
async function drainAlone(
  ctx: AppContext,
  handlers: OutboxHandlers,
  topics: OutboxTopic[],
  limit: number,
): Promise<number> {
  const most = ctx.database.kind === 'postgres' ? LANE_CONNECTIONS : 1
  const outcomes = await runLanes(most, limit, (more) =>
    ctx.database.lanes.transaction(async (tx) => {
      const now = ctx.clock.now()
      const [row] = await repo.takeDueOutbox(tx, topics, now, 1)
      if (!row) return 'none'
      more()
      try {
        await tx.transaction((sp) => (handlers[row.topic] as OutboxHandler)(ctx, sp, row))
      } catch (e) {
        await retryLater(tx, [row], now, e)
        return 'failed'
      }
      await repo.markOutboxDone(tx, [row.id], now)
      return 'done'
    }),
  )
  return outcomes.done
}

/** What one step of a lane did: found nothing (the lane ends), or took a row that was delivered or failed. */
export type LaneStep = 'none' | 'done' | 'failed'

/**
 * Runs up to `most` lanes of `step` at once, `limit` steps in all, and answers how many were
 * done. A lane repeats its step until it finds nothing; a step calls `more()` once it has taken a
 * row, which starts another lane if there is room. Settles when every lane has ended; if any step
 * threw, rejects with the first error, after the other lanes have ended.
 */
export async function runLanes(
  most: number,
  limit: number,
  step: (more: () => void) => Promise<LaneStep>,
): Promise<{ done: number }> {
  let taken = 0
  let done = 0
  let running = 0
  const lanes: Promise<void>[] = []
  let failure: { reason: unknown } | null = null
  const more = () => {
    if (running >= most || taken >= limit) return
    running++
    // Caught as it fails, not when the loop below reaches it: a lane that failed while an
    // earlier one was still awaited was an unhandled rejection (a pool closed under a drain).
    lanes.push(
      lane()
        .catch((reason) => {
          failure ??= { reason }
        })
        .finally(() => running--),
    )
  }
  async function lane() {
    while (taken < limit) {
      taken++
      const outcome = await step(more)
      if (outcome === 'none') {
        taken--
        return
      }
      if (outcome === 'done') done++
    }
  }
  more()
  // Lanes start while others run: wait until none is left.
  for (let k = 0; k < lanes.length; k++) await lanes[k]
  if (failure) throw (failure as { reason: unknown }).reason
  return { done }
}

/** Counts a failed delivery's attempt and puts its rows back until their backoff has passed. */
async function retryLater(tx: DbOrTx, rows: OutboxRecord[], now: Date, e: unknown) {
  for (const row of rows) {
    const at = new Date(now.getTime() + backoffMs(row.attempts + 1))
    await repo.retryOutboxAt(tx, row.id, at, e instanceof Error ? e.message : String(e))
  }
}

/** The rest of drainOutbox: up to `limit` due rows of `topics` in one transaction. */
async function drainTogether(
  ctx: AppContext,
  handlers: OutboxHandlers,
  topics: OutboxTopic[],
  limit: number,
): Promise<number> {
  const now = ctx.clock.now()
  return ctx.db.transaction(async (tx) => {
    const rows = await repo.takeDueOutbox(tx, topics, now, limit)
    const done: number[] = []
    const staged = rows
      .map((row) => ({ row, h: handlers[row.topic] as OutboxHandler | OutboxBatchHandler }))
      .sort((a, b) => stage(a.row.topic, a.h) - stage(b.row.topic, b.h))
    const batches = new Map<OutboxBatchHandler, OutboxRecord[]>()
    for (const { row, h } of staged) {
      if (typeof h !== 'function') {
        batches.set(h, [...(batches.get(h) ?? []), row])
        continue
      }
      try {
        await tx.transaction((sp) => h(ctx, sp, row))
        done.push(row.id)
      } catch (e) {
        await retryLater(tx, [row], now, e)
      }
    }
    for (const [h, group] of batches) {
      try {
        await tx.transaction((sp) => h.batch(ctx, sp, group))
        done.push(...group.map((r) => r.id))
      } catch (e) {
        await retryLater(tx, group, now, e)
      }
    }
    await repo.markOutboxDone(tx, done, now)
    return done.length
  })
}

/**
 * Delivers what is due and retries what failed, every few seconds, once per cluster, with the
 * context's handler table.
 */
export const outboxJob: Job = {
  name: 'outbox',
  everyMs: 5000,
  async run(ctx) {
    // Bounded, so one tick never holds the other jobs for long.
    for (let i = 0; i < 10 && (await drainOutbox(ctx)) >= 200; i++) {}
  },
}

/** How soon written outbox rows must go: a message (an alarm) at once, the rest within a second. */
export type Told = 'urgent' | 'later'

const told = new WeakMap<AppContext, Told>()
const later = new WeakSet<AppContext>()
/** Status pushes and SMS plans wait this long, so a busy engine drains them in batches. */
const LATER_MS = 1000

/**
 * Delivers, inside the transaction that wrote them, its outbox rows whose handler writes only to
 * the database (`message`: the message centre's message and its alarm push), each in a
 * savepoint, and marks them done. An alarm then commits with the report that raised it instead
 * of waiting after that commit for a drain of its own: one transaction, and one turn for a pool
 * connection, fewer on its way to the consoles. A row whose delivery fails stays for the drain
 * (its retry as usual). Not when the outbox is driven by hand (`drainOnCommit` false: tests, the
 * demo history's seeding). Answers whether every such row was delivered.
 */
export async function deliverInline(
  ctx: AppContext,
  tx: DbOrTx,
  keys: string[],
  handlers: OutboxHandlers = { message: ctx.outbox.message },
): Promise<boolean> {
  if (keys.length === 0) return true
  if (ctx.drainOnCommit === false) return false
  const rows = await repo.undeliveredOutbox(tx, keys)
  const done: number[] = []
  for (const row of rows) {
    const h = handlers[row.topic]
    if (typeof h !== 'function') continue
    try {
      await tx.transaction((sp) => h(ctx, sp, row))
      done.push(row.id)
    } catch (e) {
      ctx.log.warn(
        { outbox: row.id, err: { message: (e as Error).message } },
        'outbox row not delivered with its commit; the drain retries it',
      )
    }
  }
  await repo.markOutboxDone(tx, done, ctx.clock.now())
  return done.length === rows.length
}

/**
 * After writing outbox rows: delivers the messages among them now (deliverInline) and notes
 * what is left to drain after the commit (the messages again only if that failed).
 */
export async function tellOutbox(
  ctx: AppContext,
  tx: DbOrTx,
  rows: readonly { topic: OutboxTopic; key: string }[],
): Promise<void> {
  if (rows.length === 0) return
  const urgent = rows.filter((r) => r.topic === 'message').map((r) => r.key)
  const delivered = await deliverInline(ctx, tx, urgent)
  // A dispatch must not wait the second the rest wait: its first alert SMS is due within it.
  const dispatch = rows.some((r) => r.topic === 'dispatch')
  if ((urgent.length > 0 && !delivered) || dispatch) noteTold(ctx, 'urgent')
  else if (rows.length > urgent.length) noteTold(ctx, 'later')
}

/** Notes that a transaction of this process wrote outbox rows: drain once it has committed. */
export function noteTold(ctx: AppContext, how: Told = 'urgent'): void {
  if (told.get(ctx) !== 'urgent') told.set(ctx, how)
}

/**
 * After a commit: drains what was written since the last call. A message (an alarm) goes at
 * once, on a drain of messages only, so it never waits behind a drain of status pushes and SMS
 * plans; everything else within a second (one drain for every commit of that second).
 */
export function kickIfTold(ctx: AppContext): void {
  const how = told.get(ctx)
  told.delete(ctx)
  if (!how || ctx.drainOnCommit === false) return
  if (how === 'urgent') kickOutbox(ctx, 'messages')
  if (later.has(ctx)) return
  later.add(ctx)
  setTimeout(() => {
    later.delete(ctx)
    kickOutbox(ctx, 'all')
  }, LATER_MS).unref()
}

/** What a drain after a commit takes: messages (alarms) and dispatches only, or every topic. */
type Drain = 'messages' | 'all'
const drains: Record<Drain, (handlers: OutboxHandlers) => OutboxHandlers> = {
  messages: (handlers) => ({
    ...(handlers.message ? { message: handlers.message } : {}),
    ...(handlers.dispatch ? { dispatch: handlers.dispatch } : {}),
  }),
  all: (handlers) => handlers,
}
const kicked = new WeakMap<AppContext, Record<Drain, { running: boolean; again: boolean }>>()

/**
 * Drains the outbox now, in this process, instead of at the next job tick: an alarm reaches the
 * consoles within the commit's latency. Calls while a drain of the same kind runs fold into one
 * more pass; other drains (here or on other instances) skip the rows this one holds (SKIP
 * LOCKED). The job still sweeps retries.
 */
export function kickOutbox(ctx: AppContext, kind: Drain = 'all'): void {
  let k = kicked.get(ctx)
  if (!k) {
    k = { messages: { running: false, again: false }, all: { running: false, again: false } }
    kicked.set(ctx, k)
  }
  const state = k[kind]
  if (state.running) {
    state.again = true
    return
  }
  state.running = true
  void (async () => {
    try {
      do {
        state.again = false
        while ((await drainOutbox(ctx, drains[kind](ctx.outbox))) >= 200) {}
      } while (state.again)
    } catch (e) {
      ctx.log.warn(
        { err: { message: (e as Error).message } },
        'outbox drain after commit failed; the job retries',
      )
    } finally {
      state.running = false
    }
  })()
}
