import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { many } from '../../db/sql.ts'
import * as repo from './engine.repository.ts'
import { DEADLINE_GRACE_MS, DEFAULT_REPORT_INTERVAL_S, MISSED_FACTOR } from './engine.rules.ts'
import { groupCommit, type Waiter } from './group-commit.ts'
import { BATTERY_EXHAUSTED, BATTERY_LOW } from './reducer.ts'

/** Collects heartbeats from every connection and writes them in one transaction. */
export type HeartbeatBatcher = {
  /** Stores the rows (and applies them); answers per message id whether it was new or a duplicate. */
  submit(rows: repo.NewInboxRow[]): Promise<Map<string, 'acked' | 'duplicate'>>
}

type Waiting = Waiter<repo.NewInboxRow, Map<string, 'acked' | 'duplicate'>>

const band = (b: number) => (b <= BATTERY_EXHAUSTED ? 0 : b <= BATTERY_LOW ? 1 : 2)

/**
 * Group commit for heartbeats, most of what a network sends and most of which change nothing.
 * Whatever arrived while the previous batch was being written goes in the next one: every
 * heartbeat is stored in the inbox (duplicates found by its key) and a device's newest one
 * moves its deadline, battery and signal in one UPDATE for all, when it changes nothing else
 * (online, no rescue under way, battery in the same band, newer than the state). The others
 * are applied one by one through the engine, as any message. Answers after the commit.
 */
export function createHeartbeatBatcher(
  ctx: AppContext,
  applyRow: (inboxId: number) => Promise<void>,
  opts: { maxRows?: number; lanes?: number } = {},
): HeartbeatBatcher {
  // PostgreSQL writes several batches at once; each lane holds its own devices, so two batches
  // never lock the same device rows (no deadlock between them). PGlite has one connection.
  const lanes = opts.lanes ?? (ctx.database.kind === 'postgres' ? 4 : 1)
  const all = Array.from({ length: lanes }, () => lane(ctx, applyRow, opts.maxRows ?? 2000))
  return {
    submit(rows) {
      return all[(rows[0]?.sender_id ?? 0) % lanes].submit(rows)
    },
  }
}

function lane(
  ctx: AppContext,
  applyRow: (inboxId: number) => Promise<void>,
  maxRows: number,
): HeartbeatBatcher {
  async function write(batch: Waiting[]) {
    const rows = batch.flatMap((w) => w.rows)
    const now = ctx.clock.now()
    const { ids, loud } = await ctx.db.transaction(async (tx) => {
      // Devices first, in id order, as the engine locks them (device, then its state): a batch
      // and a message or the sweep on the same device wait for each other instead of crossing.
      const senders = [...new Set(rows.map((r) => r.sender_id))].sort((a, b) => a - b)
      await tx.execute(
        sql`SELECT id FROM devices WHERE id IN (${sql.join(
          senders.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY id FOR UPDATE`,
      )
      const ids = await repo.insertInboxMany(tx, rows, now)
      const firstNew = Math.min(...ids.values())
      // The newest new heartbeat of each device decides its state.
      const newest = new Map<number, repo.NewInboxRow>()
      for (const r of rows) {
        if (!ids.has(`${r.sender_id}:${r.msg_id}`)) continue
        const cur = newest.get(r.sender_id)
        if (!cur || r.boot > cur.boot || (r.boot === cur.boot && r.seq > cur.seq)) newest.set(r.sender_id, r)
      }
      if (newest.size === 0) return { ids, loud: [] as number[] }
      const values = sql.join(
        [...newest.values()].map((r) => {
          const d = r.data as { battery: number; rssi?: number }
          return sql`(${r.sender_id}::bigint, ${r.boot}::int, ${r.seq}::bigint, ${r.received_at.toISOString()}::timestamptz,
            ${d.rssi ?? null}::smallint, ${d.battery}::smallint, ${band(d.battery)}::int)`
        }),
        sql`, `,
      )
      const intervalS = sql`(coalesce(s.report_interval_s, ${DEFAULT_REPORT_INTERVAL_S}) * ${MISSED_FACTOR} + ${DEADLINE_GRACE_MS / 1000})`
      const quiet = await many<{ device_id: number }>(
        tx,
        sql`
        WITH v (device_id, boot, seq, seen, rssi, battery, band) AS (VALUES ${values}),
        q AS (
          UPDATE device_states s SET last_boot = v.boot, last_seq = v.seq, last_seen_at = v.seen,
            rssi = coalesce(v.rssi, s.rssi),
            next_deadline_at = v.seen + make_interval(secs => ${intervalS}::double precision),
            update_time = ${now.toISOString()}::timestamptz
          FROM v, devices d
          WHERE s.device_id = v.device_id AND d.id = v.device_id AND d.deleted_at IS NULL
            AND NOT s.offline AND s.rescue_id IS NULL
            AND (v.boot > s.last_boot OR (v.boot = s.last_boot AND v.seq > s.last_seq))
            -- An earlier message still waiting to be applied goes first (it would turn stale).
            AND NOT EXISTS (SELECT 1 FROM device_inbox w
                            WHERE (w.processed_at IS NULL OR w.outcome = 'failed') AND w.id < ${firstNew}
                              AND w.sender_kind = 'aed' AND w.sender_id = v.device_id)
            AND CASE WHEN d.battery IS NULL THEN -1 WHEN d.battery <= ${BATTERY_EXHAUSTED} THEN 0
                     WHEN d.battery <= ${BATTERY_LOW} THEN 1 ELSE 2 END = v.band
          RETURNING s.device_id
        ),
        b AS (
          UPDATE devices d SET battery = v.battery FROM v, q
          WHERE d.id = v.device_id AND q.device_id = v.device_id AND d.battery IS DISTINCT FROM v.battery
        )
        SELECT device_id FROM q`,
      )
      const quietIds = new Set(quiet.map((q) => q.device_id))
      const loud: number[] = []
      for (const r of rows) {
        const id = ids.get(`${r.sender_id}:${r.msg_id}`)
        if (id === undefined) continue
        if (!quietIds.has(r.sender_id)) loud.push(id)
      }
      // Stored as coalesced; the ones that change something wait for the engine instead.
      if (loud.length) {
        await tx.execute(sql`
          UPDATE device_inbox SET processed_at = NULL, outcome = NULL, attempts = 0
          WHERE id IN (${sql.join(
            loud.map((id) => sql`${id}`),
            sql`, `,
          )})`)
      }
      return { ids, loud }
    })
    // Stored: what is left is applied now, and by the retry job if this process dies first.
    for (const id of loud.sort((a, b) => a - b)) await applyRow(id)
    for (const w of batch) {
      const m = new Map<string, 'acked' | 'duplicate'>()
      for (const r of w.rows) m.set(r.msg_id, ids.has(`${r.sender_id}:${r.msg_id}`) ? 'acked' : 'duplicate')
      w.resolve(m)
    }
  }

  const group = groupCommit<repo.NewInboxRow, Map<string, 'acked' | 'duplicate'>>({
    maxRows,
    write,
    // One sender's bad row must not refuse the others: each is written on its own.
    alone: (w) => write([w]),
  })
  return group
}
