import type { AppContext, Job } from '../../context.ts'
import { counter } from '../../lib/metrics.ts'
import { backoffMs } from '../engine/outbox.ts'
import * as repo from './alert.repository.ts'
import { smsText } from './alert.rules.ts'

/** Attempts of one SMS before it is marked failed (backoff 5 s doubling: about 40 minutes in all). */
export const SMS_MAX_ATTEMPTS = 10
/** Alert SMS the provider accepted. */
export const smsSent = counter('aed_sms_sent_total', 'Alert SMS the provider accepted')
/** Alert SMS sends that failed: retried later, or the last attempt (the SMS is marked failed). */
export const smsFailures = counter('aed_sms_failures_total', 'Alert SMS send attempts that failed', {
  labels: ['final'],
  preset: [{ final: 'false' }, { final: 'true' }],
})
/** Lines turned into SMS per batch, and batches per tick. */
const PLAN_BATCH = 500
/** SMS sent per tick at most, and for how long a tick may send. */
const SEND_LIMIT = 200
const SEND_BUDGET_MS = 20_000

/**
 * Turns due lines into SMS rows, in one transaction: first-aid and escalation lines each go
 * alone at once; one phone's abnormal-status lines go together (one line as it is, several
 * as a digest). The SMS's idempotency key names its first line, which no other SMS carries.
 */
export async function planDueSms(ctx: AppContext, now: Date): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const due = await repo.takeDueAlerts(tx, now, PLAN_BATCH)
    const groups: repo.DueAlert[][] = []
    const statusByPhone = new Map<string, repo.DueAlert[]>()
    for (const a of due) {
      if (a.kind !== 'status') {
        groups.push([a])
        continue
      }
      const list = statusByPhone.get(a.phone)
      if (list) list.push(a)
      else statusByPhone.set(a.phone, [a])
    }
    groups.push(...statusByPhone.values())
    for (const g of groups) {
      const ids = g.map((a) => a.id).sort((x, y) => x - y)
      await repo.insertPendingSms(
        tx,
        {
          phone: g[0].phone,
          content: smsText(g.map((a) => a.line)),
          kind: g.length > 1 ? 'digest' : g[0].kind,
          key: `alerts:${ids[0]}:${ids.length}`,
          alertIds: ids,
        },
        now,
      )
    }
    return due.length
  })
}

/**
 * Sends pending SMS through the provider with their idempotency keys. Each is leased first (its
 * attempt counted, its retry time set, committed), then sent outside any transaction, then
 * marked: a crash between the send and the mark sends it again after the lease, with the same
 * key. A failure waits out the backoff; after the last attempt the SMS is failed.
 */
export async function sendPendingSms(ctx: AppContext, now: Date): Promise<number> {
  const started = Date.now()
  let sent = 0
  let tried = 0
  while (tried < SEND_LIMIT && Date.now() - started < SEND_BUDGET_MS) {
    const batch = await ctx.db.transaction(async (tx) => {
      const rows = await repo.duePendingSms(tx, now, Math.min(50, SEND_LIMIT - tried))
      for (const r of rows) await repo.leaseSms(tx, r.id, new Date(now.getTime() + backoffMs(r.attempts + 1)))
      return rows
    })
    if (batch.length === 0) break
    for (const s of batch) {
      tried++
      try {
        await ctx.sms.sendText(s.phone, s.content, s.idempotency_key)
        await repo.markSent(ctx.db, s.id, ctx.sms.name, now)
        sent++
        smsSent.inc(ctx, {})
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e)
        const last = s.attempts + 1 >= SMS_MAX_ATTEMPTS
        smsFailures.inc(ctx, { final: String(last) })
        await repo.markFailedAttempt(ctx.db, s.id, ctx.sms.name, message, last)
        ctx.log.warn(
          { sms: s.id, attempts: s.attempts + 1, err: { message } },
          last ? 'alert SMS failed' : 'alert SMS retried later',
        )
      }
    }
  }
  return sent
}

/** Plans due lines into SMS and sends what is pending, every few seconds, once per cluster. */
export const smsDispatchJob: Job = {
  name: 'sms-dispatch',
  everyMs: 5000,
  async run(ctx, now) {
    for (let i = 0; i < 10 && (await planDueSms(ctx, now)) === PLAN_BATCH; i++) {}
    await sendPendingSms(ctx, now)
  },
}
