import { sql, TransactionRollbackError } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../db/client.ts'
import {
  createEventBus,
  type EventBus,
  EventPayloadTooLargeError,
  MAX_EVENT_PAYLOAD_BYTES,
} from '../db/events.ts'
import { many } from '../db/sql.ts'
import { inbox, openTestDatabase } from './databases.ts'

// The event bus on the database the run uses: PGlite by default, PostgreSQL with TEST_DB=postgres
// (the server-pg project), where the two-instance and reconnect tests run too.
let t: Awaited<ReturnType<typeof openTestDatabase>>
let bus: EventBus
const log = { warn: vi.fn(), error: vi.fn() }
const onPostgres = process.env.TEST_DB === 'postgres'

beforeAll(async () => {
  t = await openTestDatabase()
  bus = createEventBus(t.database, log as never)
})
afterAll(async () => {
  await t?.close()
})

describe('event bus', () => {
  it('delivers a publish to every subscriber of the channel, as JSON, until it unsubscribes', async () => {
    const a = inbox()
    const b = inbox()
    const other = inbox()
    const stopA = await bus.subscribe('ev_basic', (p) => a.push(p))
    const stopB = await bus.subscribe('ev_basic', (p) => b.push(p))
    const stopOther = await bus.subscribe('ev_other', (p) => other.push(p))
    await bus.publish('ev_basic', { device_id: 42, kind: 'offline' })
    expect(await a.until(1)).toEqual([{ device_id: 42, kind: 'offline' }])
    expect(await b.until(1)).toEqual([{ device_id: 42, kind: 'offline' }])

    await stopA()
    await bus.publish('ev_basic', 2)
    expect(await b.until(2)).toEqual([{ device_id: 42, kind: 'offline' }, 2])
    // Both handlers are called together, so once b has the second event a would have it too.
    expect(a.got).toHaveLength(1)
    expect(other.got).toEqual([])
    await stopB()
    await stopOther()
  })

  it('keeps delivering to the other handlers when one throws, and logs the failure', async () => {
    const good = inbox()
    const stopBad = await bus.subscribe('ev_throw', () => {
      throw new Error('handler broke')
    })
    const stopGood = await bus.subscribe('ev_throw', (p) => good.push(p))
    await bus.publish('ev_throw', 'x')
    expect(await good.until(1)).toEqual(['x'])
    expect(log.error).toHaveBeenCalledWith(
      { channel: 'ev_throw', err: { message: 'handler broke' } },
      'event handler failed',
    )
    await stopBad()
    await stopGood()
  })

  it('never delivers a notify of a rolled-back transaction; delivers a committed one', async () => {
    const got = inbox()
    const stop = await bus.subscribe('ev_tx', (p) => got.push(p))
    const db = t.database.db
    await expect(
      db.transaction(async (tx) => {
        await bus.publishIn(tx, 'ev_tx', 'rolled back')
        tx.rollback()
      }),
    ).rejects.toThrow(TransactionRollbackError)
    await expect(
      db.transaction(async (tx) => {
        await bus.publishIn(tx, 'ev_tx', 'failed')
        throw new Error('the work failed')
      }),
    ).rejects.toThrow('the work failed')
    await db.transaction(async (tx) => {
      await bus.publishIn(tx, 'ev_tx', 'committed')
    })
    // Notifications arrive in commit order: the rolled-back ones would have come first.
    expect(await got.until(1)).toEqual(['committed'])
    await stop()
  })

  it.runIf(onPostgres)('holds a notify sent in a transaction until the transaction commits', async () => {
    const got = inbox()
    const stop = await bus.subscribe('ev_hold', (p) => got.push(p))
    await t.database.db.transaction(async (tx) => {
      await bus.publishIn(tx, 'ev_hold', 'in tx')
      // A publish outside the transaction, sent after, arrives while the first is held.
      await bus.publish('ev_hold', 'outside')
      expect(await got.until(1)).toEqual(['outside'])
    })
    expect(await got.until(2)).toEqual(['outside', 'in tx'])
    await stop()
  })

  it("refuses a payload over NOTIFY's limit with a clear error, and takes one at the limit", async () => {
    const got = inbox<string>()
    const stop = await bus.subscribe('ev_size', (p) => got.push(p as string))
    // JSON of a string is its text in quotes: 7997 characters make 7999 bytes.
    const atLimit = 'a'.repeat(MAX_EVENT_PAYLOAD_BYTES - 2)
    await bus.publish('ev_size', atLimit)
    expect((await got.until(1))[0]).toHaveLength(MAX_EVENT_PAYLOAD_BYTES - 2)

    const over = bus.publish('ev_size', `${atLimit}a`)
    await expect(over).rejects.toBeInstanceOf(EventPayloadTooLargeError)
    await expect(over).rejects.toThrow(/8000 bytes of JSON.*at most 7999.*Publish ids/)
    // Multi-byte characters count as bytes: 2700 × 3 bytes is over the limit.
    await expect(bus.publish('ev_size', '设'.repeat(2700))).rejects.toBeInstanceOf(EventPayloadTooLargeError)
    await expect(
      t.database.db.transaction((tx) => bus.publishIn(tx, 'ev_size', 'x'.repeat(9000))),
    ).rejects.toBeInstanceOf(EventPayloadTooLargeError)
    await stop()
  })

  it('refuses channel names LISTEN would need quoting for, and payloads that are not JSON', async () => {
    await expect(bus.publish('Device.Events', 1)).rejects.toThrow(/lower-case letters/)
    await expect(bus.subscribe('a-b', () => {})).rejects.toThrow(/lower-case letters/)
    await expect(bus.publish('ev_json', undefined)).rejects.toThrow(/not JSON/)
  })
})

describe.runIf(onPostgres)('event bus across server instances (PostgreSQL)', () => {
  let second: Database
  let bus2: EventBus

  beforeAll(async () => {
    second = await t.connect()
    bus2 = createEventBus(second, log as never)
  })

  it('delivers a publish from either instance to the subscribers of both', async () => {
    const one = inbox()
    const two = inbox()
    const stop1 = await bus.subscribe('ev_cluster', (p) => one.push(p))
    const stop2 = await bus2.subscribe('ev_cluster', (p) => two.push(p))
    await bus.publish('ev_cluster', { from: 1 })
    await bus2.publish('ev_cluster', { from: 2 })
    expect(await one.until(2)).toEqual([{ from: 1 }, { from: 2 }])
    expect(await two.until(2)).toEqual([{ from: 1 }, { from: 2 }])
    await stop1()
    await stop2()
  })

  it('listens on one dedicated connection, which comes back after it is killed', async () => {
    const got = inbox()
    const stop = await bus2.subscribe('ev_reconnect', (p) => got.push(p))
    const listeners = () =>
      many(
        t.database.db,
        sql`
        SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'aed-events'`,
      )
    // Two buses, two Database objects: one listening connection each, however many channels.
    expect(await listeners()).toHaveLength(2)

    const reconnected = new Promise<void>((resolve) => bus2.onReconnect(resolve))
    await second.db.execute(sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'aed-events'
        AND pid <> pg_backend_pid()`)
    await Promise.race([
      reconnected,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no reconnect within 10 s')), 10_000)),
    ])
    expect(log.warn).toHaveBeenCalledWith(expect.anything(), 'event listener connection failed; reconnecting')
    await bus.publish('ev_reconnect', 'after')
    expect(await got.until(1)).toEqual(['after'])
    await stop()
  })
})
