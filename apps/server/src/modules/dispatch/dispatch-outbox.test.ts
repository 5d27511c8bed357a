import { callApi } from '@aed/contracts/call'
import { responderApi } from '@aed/contracts/responder'
import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import type { OutboxHandler } from '../../context.ts'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { backoffMs, drainOutbox } from '../engine/outbox.ts'
import { dispatchOutboxHandler } from './dispatch.service.ts'

// A burst of calls (the benchmark's 100 at once): each call's dispatch is taken from the outbox,
// started and committed in a transaction of its own, so the first call's alert SMS is out before
// the last call's dispatch begins; each starts once however many drains run, and a failure
// between two rows loses neither.
const clock = new TestClock('2026-11-26T02:00:00.000Z')
const C = { lat: 30.6, lon: 114.2 }

const env = deviceTestFile(clock, async ({ t }) => {
  t.ctx.drainOnCommit = false
  return {}
})

let n = 0
async function responderNear(north: number) {
  const r = await env.t.api(responderApi.create, {
    token: env.admin,
    body: {
      account: {
        phone: `157${String(40_000_000 + ++n).padStart(8, '0')}`,
        name: `急救员${n}`,
        birth: '1990-01-01',
        gender: 1,
        lat: C.lat + north / 111_195,
        lon: C.lon,
        location: '武汉',
      },
      aid_aptitude: 0,
      agency_id: env.branch.id,
      status: 0,
    },
  })
  if (r.code !== 0) throw new Error(`responder: ${r.msg}`)
}

/** Records `count` calls at C without draining their outbox rows. */
async function calls(count: number) {
  const ids: number[] = []
  for (let k = 0; k < count; k++) {
    const r = await env.t.api(callApi.create, {
      token: env.admin,
      body: { phone: `1380000${String(++n).padStart(4, '0')}`, ...C, location: '武汉市硚口区' },
    })
    if (r.code !== 0) throw new Error(`call: ${r.msg}`)
    ids.push(r.data.id)
  }
  return ids
}

const dispatchesOf = (ids: number[]) =>
  many<{ call_id: number; n: number }>(
    env.t.db,
    sql`SELECT call_id::int, count(*)::int AS n FROM dispatches
        WHERE call_id = ANY(${sql.param(ids)}::bigint[]) GROUP BY call_id ORDER BY call_id`,
  )

/** The dispatch SMS committed so far, as another connection sees them (PostgreSQL only). */
const committedSms = async () =>
  (await one<{ n: number }>(
    env.t.ctx.db,
    sql`SELECT count(*)::int AS n FROM sms_outbox WHERE kind = 'dispatch'`,
  ))!.n

it('starts each call of a burst in its own transaction: the first SMS commits before the last dispatch starts', async () => {
  for (const m of [40, 80, 120]) await responderNear(m)
  const ids = await calls(12)
  const xids: string[] = []
  let visibleAtLast = -1
  const dispatch: OutboxHandler = async (ctx, tx, row) => {
    const xid = await one<{ xid: string }>(tx, sql`SELECT txid_current()::text AS xid`)
    xids.push(xid!.xid)
    // PGlite is one connection: a read outside the transaction would wait for it to end.
    if (xids.length === ids.length && ctx.database.kind === 'postgres') visibleAtLast = await committedSms()
    await dispatchOutboxHandler(ctx, tx, row)
  }
  expect(await drainOutbox(env.t.ctx, { dispatch })).toBe(ids.length)
  expect(new Set(xids).size).toBe(ids.length)
  if (env.t.ctx.database.kind === 'postgres') expect(visibleAtLast).toBeGreaterThan(0)
  expect(await dispatchesOf(ids)).toEqual(ids.map((call_id) => ({ call_id, n: 1 })))
  const sms = await one<{ n: number }>(
    env.t.db,
    sql`SELECT count(*)::int AS n FROM sms_outbox s JOIN dispatch_alerts a ON s.idempotency_key = 'dispatch:' || a.id
        JOIN dispatches d ON d.id = a.dispatch_id WHERE d.call_id = ANY(${sql.param(ids)}::bigint[])`,
  )
  expect(sms?.n).toBe(ids.length * 3)
})

it('starts each dispatch once with two drains at once (two instances)', async () => {
  const ids = await calls(20)
  let started = 0
  const dispatch: OutboxHandler = async (ctx, tx, row) => {
    started++
    await dispatchOutboxHandler(ctx, tx, row)
  }
  const [a, b] = await Promise.all([
    drainOutbox(env.t.ctx, { dispatch }),
    drainOutbox(env.t.ctx, { dispatch }),
  ])
  expect([a + b, started]).toEqual([ids.length, ids.length])
  expect(await dispatchesOf(ids)).toEqual(ids.map((call_id) => ({ call_id, n: 1 })))
})

it('keeps the rows around a failed one: those before stay started, it is retried, those after start', async () => {
  const ids = await calls(4)
  let seen = 0
  const dispatch: OutboxHandler = async (ctx, tx, row) => {
    if (++seen === 2) throw new Error('map provider down')
    await dispatchOutboxHandler(ctx, tx, row)
  }
  expect(await drainOutbox(env.t.ctx, { dispatch })).toBe(3)
  expect((await dispatchesOf(ids)).length).toBe(3)
  const left = await many<{ attempts: number; last_error: string }>(
    env.t.db,
    sql`SELECT attempts, last_error FROM outbox WHERE topic = 'dispatch' AND done_at IS NULL`,
  )
  expect(left).toEqual([{ attempts: 1, last_error: 'map provider down' }])
  clock.advance(backoffMs(1))
  expect(await drainOutbox(env.t.ctx, { dispatch })).toBe(1)
  expect(await dispatchesOf(ids)).toEqual(ids.map((call_id) => ({ call_id, n: 1 })))
})

// PGlite is one connection: one start at a time there.
it.runIf(process.env.TEST_DB === 'postgres')(
  'takes the calls that come due while a start runs beside it (PostgreSQL)',
  async () => {
    const ids = await calls(1)
    let running = 0
    let most = 0
    let later: number[] = []
    const dispatch: OutboxHandler = async (ctx, tx, row) => {
      running++
      most = Math.max(most, running)
      try {
        if (later.length === 0) {
          // Three more calls commit (other connections) while the first start has not ended.
          later = await calls(3)
          for (let k = 0; k < 100 && most < 2; k++) await new Promise((r) => setTimeout(r, 20))
        }
        await dispatchOutboxHandler(ctx, tx, row)
      } finally {
        running--
      }
    }
    expect(await drainOutbox(env.t.ctx, { dispatch })).toBe(4)
    expect(most).toBeGreaterThan(1)
    expect(await dispatchesOf([...ids, ...later])).toEqual(
      [...ids, ...later].map((call_id) => ({ call_id, n: 1 })),
    )
  },
)
