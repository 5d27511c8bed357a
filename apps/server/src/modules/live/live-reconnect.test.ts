import { LiveType } from '@aed/contracts/live'
import type { SQL } from 'drizzle-orm'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import type { AppContext } from '../../context.ts'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { openTestDatabase } from '../../test/databases.ts'
import { switchedLink } from '../../test/switched-link.ts'
import { LiveHub } from './live.hub.ts'
import { LIVE_PUSH_CHANNEL } from './live.service.ts'

// The hub when its listening connection comes back: the announcements made while it was down
// are lost, so it replays them from the store. A push announced while that replay is still
// reading must not overtake it (the fault suite lost three alarms on one instance so, when that
// instance's database link came back after a cut).

let t: Awaited<ReturnType<typeof openTestDatabase>>
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t?.close())

/**
 * Stores a first-aid alarm push for the whole tree, not announced (its NOTIFY was lost); answers
 * its id, read back after the commit gave it (migration 0030).
 */
async function storePush(n: number) {
  await t.database.db.execute(
    sql`INSERT INTO live_pushes (data_type, index_link, data) VALUES (${LiveType.AID_ALARM}, '1,', ${JSON.stringify({ n })}::jsonb)`,
  )
  const [row] = await many<{ id: number }>(
    t.database.db,
    sql`SELECT id::int FROM live_pushes WHERE (data->>'n')::int = ${n}`,
  )
  return row.id
}

/** A hub on `db` whose listener the test drives, and one console on it: its frames in `sent`. */
async function hubWithConsole(db: { execute(q: SQL): Promise<unknown> }) {
  const hooks = { announce: (_p: Record<string, unknown>) => {}, reconnected: () => {} }
  const link = switchedLink()
  const ctx = {
    db,
    database: { link: link.link },
    clock: new TestClock(new Date().toISOString()),
    log: { warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() },
    events: {
      subscribe: async (channel: string, fn: (p: Record<string, unknown>) => void) => {
        if (channel === LIVE_PUSH_CHANNEL) hooks.announce = fn
        return async () => {}
      },
      onReconnect: (fn: () => void) => {
        hooks.reconnected = fn
        return () => {}
      },
    },
  } as unknown as AppContext
  const hub = new LiveHub(ctx, { frame: (d) => d, unconfirmedCount: async () => 0 })
  await hub.start()
  const sent: { id: number; data_type: number }[] = []
  const ws = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    send: (s: string) => sent.push(JSON.parse(s)),
    on: () => {},
    close: vi.fn(),
    ping: () => {},
  } as unknown as WebSocket
  await hub.join(ws, { index_link: '1,' } as AuthContext, 'zh-CN', undefined)
  const alarms = () => sent.filter((f) => f.data_type === LiveType.AID_ALARM).map((f) => f.id)
  return { hub, hooks, alarms, ws, link }
}

it('a push announced while the reconnect replay reads is sent after what the replay brings, and nothing is lost', async () => {
  // The replay's read waits at this gate, so an announcement can come in while it runs.
  let open: () => void = () => {}
  let gated = false
  const gate = () => (gated ? new Promise<void>((resolve) => (open = resolve)) : Promise.resolve())
  const db = {
    execute: async (q: SQL) => {
      await gate()
      return t.database.db.execute(q)
    },
  }
  const { hub, hooks, alarms } = await hubWithConsole(db)

  const lost = [await storePush(1), await storePush(2)]
  gated = true
  hooks.reconnected()
  // The replay is reading; a newer push is stored and announced meanwhile.
  const newer = await (async () => {
    gated = false
    const id = await storePush(3)
    gated = true
    return id
  })()
  hooks.announce({
    id: newer,
    data_type: LiveType.AID_ALARM,
    agency_id: null,
    index_link: '1,',
    data: { n: 3 },
  })
  gated = false
  open()
  const deadline = Date.now() + 5000
  while (alarms().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  expect(alarms()).toEqual([...lost, newer])
  await hub.stop()
})

it('a second reconnect while the replay runs reads again: a push committed after the first read is not lost', async () => {
  // The replay's read returns only when this gate opens: what is committed after it read waits.
  let open: () => void = () => {}
  let read: () => void = () => {}
  let gated = false
  const db = {
    execute: async (q: SQL) => {
      const rows = await t.database.db.execute(q)
      if (gated) {
        read()
        await new Promise<void>((resolve) => (open = resolve))
      }
      return rows
    },
  }
  const { hub, hooks, alarms } = await hubWithConsole(db)

  const first = await storePush(11)
  gated = true
  const reading = new Promise<void>((resolve) => (read = resolve))
  hooks.reconnected()
  await reading
  gated = false
  // Committed after the replay read, its announcement lost when the listener dropped again.
  const second = await storePush(12)
  hooks.reconnected()
  open()
  const deadline = Date.now() + 5000
  while (alarms().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  expect(alarms()).toEqual([first, second])
  await hub.stop()
})

it('closes its consoles with 1013 when the database link is found down, so they reconnect to another instance', async () => {
  const { hub, ws, link } = await hubWithConsole(t.database.db)
  expect(ws.close).not.toHaveBeenCalled()
  link.set(false)
  expect(ws.close).toHaveBeenCalledWith(1013, 'database unreachable')
  await hub.stop()
})
