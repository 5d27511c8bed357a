import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { histogram } from '../../lib/metrics.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import * as repo from './inbox.repository.ts'
import {
  type Accepted,
  type Applied,
  answerOf,
  errorText,
  failed,
  failedIn,
  type IngestResult,
  inboxRowOf,
  keepFailed,
  type Outcome,
} from './inbox.ts'
import { kickIfTold } from './outbox.ts'

// The one inbox machinery of every sender's engine (the AED's, engine.service.ts, and the rescue
// cabinet's, modules/cabinet/cabinet-engine.service.ts): store and apply a new message in one
// transaction, apply a stored row, retry what was kept, and apply a sender's earlier waiting
// rows before a newer one. An engine hands it how it locks its sender and how it applies a row
// to the locked sender; the runner owns the transactions, the order and the failure handling.

/** What a kind of sender's engine tells the runner. */
export type RowApplier<F extends { waiting: boolean }> = {
  kind: 'aed' | 'cabinet'
  /**
   * Reads and locks the sender for the transaction; with `waitingBefore`, also whether its rows
   * stored before that inbox id still wait to be applied (`waiting`). Null: no such sender.
   */
  lock: (tx: DbOrTx, senderId: number, waitingBefore?: number) => Promise<F | null>
  /** Applies a stored row to its locked sender (null: unknown), inside the caller's transaction. */
  apply: (ctx: AppContext, tx: DbOrTx, row: repo.InboxRow, sender: F | null, now: Date) => Promise<Applied>
}

export type InboxRunner = ReturnType<typeof inboxRunner>

/** The inbox machinery for one kind of sender. */
/** How long the engine takes to apply one message (inside its transaction, earlier waiting ones apart). */
export const applySeconds = histogram(
  'aed_engine_apply_seconds',
  'Time the engine took to apply one device message, per sender kind (the quiet batch apart)',
  {
    labels: ['sender_kind'],
    preset: [{ sender_kind: 'aed' }, { sender_kind: 'cabinet' }],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  },
)

export function inboxRunner<F extends { waiting: boolean }>(engine: RowApplier<F>) {
  const { kind } = engine

  /**
   * Applies a stored row inside the caller's transaction: the one path every message of the
   * kind takes. Messages of the sender stored before it and still waiting are applied first
   * (`earlier` false: this row is itself such a one).
   */
  async function applyRow(ctx: AppContext, tx: DbOrTx, row: repo.InboxRow, earlier = true): Promise<Applied> {
    const now = ctx.clock.now()
    let sender = await engine.lock(tx, row.sender_id, earlier ? row.id : undefined)
    if (sender?.waiting) {
      await applyEarlier(ctx, tx, row.sender_id, row.id)
      sender = await engine.lock(tx, row.sender_id)
    }
    const started = performance.now()
    try {
      return await engine.apply(ctx, tx, row, sender, now)
    } finally {
      applySeconds.observe(ctx, { sender_kind: kind }, (performance.now() - started) / 1000)
    }
  }

  /**
   * A sender's messages apply in the order they came: one stored earlier but not applied yet (it
   * failed, or a crash came between storing and applying) is applied before a newer one, which
   * would otherwise make it stale. Each in a savepoint; one that fails again keeps waiting.
   */
  async function applyEarlier(ctx: AppContext, tx: DbOrTx, senderId: number, before: number) {
    for (const row of await repo.waitingOf(tx, kind, senderId, before)) {
      try {
        await tx.transaction((sp) => applyRow(ctx, sp, row, false))
      } catch (e) {
        // Reported by the retry job (outside this transaction), which also gives up at the last try.
        await failedIn(tx, row, e, ctx.clock.now())
      }
    }
  }

  /** Stores one message and applies it in the same transaction (kept for the retry job when applying fails). */
  async function applyNew(ctx: AppContext, row: repo.NewInboxRow): Promise<Outcome> {
    try {
      return await ctx.db.transaction(async (tx) => {
        const id = await repo.insertInbox(tx, row, ctx.clock.now())
        if (id === null) return 'duplicate' as const
        return answerOf(await applyRow(ctx, tx, { ...row, id, outcome: 'applied' }))
      })
    } catch (e) {
      // The message is valid (checked before this), so it is kept and acknowledged: the retry job
      // applies it once the cause is gone, and every failure is loud.
      return keepFailed(ctx, row, e)
    } finally {
      kickIfTold(ctx)
    }
  }

  /**
   * Applies one stored, unapplied row in its own transaction; 'failed' when applying threw
   * (recorded and reported), null when it was no longer waiting (applied meanwhile, or held by
   * another instance). The caller kicks the outbox.
   */
  async function applyStored(ctx: AppContext, inboxId: number): Promise<Outcome | null | 'failed'> {
    try {
      return await ctx.db.transaction(async (tx) => {
        const row = await repo.lockInbox(tx, kind, inboxId)
        return row ? answerOf(await applyRow(ctx, tx, row)) : null
      })
    } catch (e) {
      await failed(ctx, inboxId, errorText(e))
      return 'failed'
    }
  }

  return {
    applyNew,
    applyStored,

    /** Stores and applies a sender's messages one by one, in order, each in its own transaction. */
    async ingestEach(
      ctx: AppContext,
      sender: DeviceIdentity,
      items: Accepted[],
      transport: 'mqtt' | 'https',
    ): Promise<IngestResult> {
      const result: IngestResult = []
      for (const item of items) {
        const row = inboxRowOf(sender, item.message, ctx.clock.now(), transport)
        result.push({ id: row.msg_id, outcome: await applyNew(ctx, row) })
      }
      return result
    },

    /** Applies the kind's rows that were acknowledged but not applied (after a crash or a failure). */
    async retry(ctx: AppContext, limit = 500): Promise<number> {
      let done = 0
      for (const r of await repo.pendingInbox(ctx.db, kind, limit)) {
        const applied = await applyStored(ctx, r.id)
        if (applied !== null && applied !== 'failed') done++
      }
      kickIfTold(ctx)
      return done
    },
  }
}
