import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { deliverInline } from './outbox.ts'

// An alarm's message is delivered in the transaction of the report that raised it (the outbox's
// drain after the commit is left the SMS, webhook and status rows). These tests run with the
// outbox draining on commit, as a server does.
const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

it("commits a rescue's message and alarm push with the report itself: one transaction, no drain", async () => {
  const { t } = env
  const d = await env.registered()
  const msg = d.msg('usage', {
    rescue_event_id: 'RI1',
    event_time: clock.now().getTime(),
    event_desc: 'power_on',
  })
  await d.send(msg)
  // Read as soon as the report is acknowledged: the message and its alarm push are there, and
  // their outbox row was marked done by the transaction that stored the report (a drain is a
  // transaction of its own: another xmin). The handler wrote in a savepoint of it.
  const report = await one<{ tx: string }>(
    t.db,
    sql`SELECT xmin::text AS tx FROM device_inbox WHERE sender_kind = 'aed' AND sender_id = ${d.id} AND msg_id = ${msg.id}`,
  )
  const row = await one<{ tx: string; done: boolean }>(
    t.db,
    sql`SELECT xmin::text AS tx, done_at IS NOT NULL AS done FROM outbox
        WHERE topic = 'message' AND payload->>'device_id' = ${String(d.id)}`,
  )
  expect(report?.tx).toBeDefined()
  expect(row).toEqual({ tx: report?.tx, done: true })
  const message = await many<{ type: number }>(
    t.db,
    sql`SELECT msg_type AS type FROM messages WHERE device_id = ${d.id}`,
  )
  expect(message).toEqual([{ type: 2 }])
  const alarms = await many<{ n: number }>(
    t.db,
    sql`SELECT count(*)::int AS n FROM live_pushes WHERE data_type = 2 AND data->>'device_sn' = ${d.sn}`,
  )
  expect(alarms).toEqual([{ n: 1 }])
})

it('leaves a row whose delivery fails pending for the drain, its writes undone, and delivers the others', async () => {
  const { t, branch } = env
  const d = await env.registered()
  const keys = ['inline:fails', 'inline:works']
  await t.db.execute(sql`
    INSERT INTO outbox (topic, dedupe_key, agency_id, index_link, payload) VALUES
      ('message', 'inline:fails', ${branch.id}, ${branch.index_link}, ${JSON.stringify({ device_id: d.id })}::jsonb),
      ('message', 'inline:works', ${branch.id}, ${branch.index_link}, ${JSON.stringify({ device_id: d.id })}::jsonb)`)
  const seen: string[] = []
  const all = await t.db.transaction((tx) =>
    deliverInline(t.ctx, tx, keys, {
      message: async (_ctx, sp, row) => {
        seen.push(row.dedupe_key)
        // Written, then undone with the row's savepoint when it fails.
        await sp.execute(sql`UPDATE outbox SET last_error = 'written' WHERE id = ${row.id}`)
        if (row.dedupe_key === 'inline:fails') throw new Error('handler failed')
      },
    }),
  )
  expect(all).toBe(false)
  expect(seen).toEqual(keys)
  const state = await many<{ key: string; done: boolean; note: string | null }>(
    t.db,
    sql`SELECT dedupe_key AS key, done_at IS NOT NULL AS done, last_error AS note FROM outbox
        WHERE dedupe_key = ANY(${sql.param(keys)}::text[]) ORDER BY dedupe_key`,
  )
  expect(state).toEqual([
    { key: 'inline:fails', done: false, note: null },
    { key: 'inline:works', done: true, note: 'written' },
  ])
})
