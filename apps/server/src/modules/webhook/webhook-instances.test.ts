import crypto from 'node:crypto'
import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, expect, it } from 'vitest'
import { createContext } from '../../bootstrap.ts'
import { loadConfig } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import { openPostgres } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'
import { tempDataDir, templateDatabase } from '../../test/databases.ts'
import { startReceiver } from '../../test/webhook-receiver.ts'
import { deliverDue } from './webhook.sender.ts'

// Two server instances on one PostgreSQL, each with its own pool and its own sender: passes that
// run at the same time on both never send one delivery twice, and every delivery is sent.

const cleanup: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const f of cleanup.reverse()) await f().catch(() => {})
})

it.skipIf(process.env.TEST_DB !== 'postgres')(
  'two instances’ senders share the endpoints and never send one delivery twice',
  { timeout: 60_000 },
  async () => {
    const dataDir = tempDataDir()
    const { database, url, drop } = await templateDatabase('seeded', dataDir)
    const second = await openPostgres(url as string)
    cleanup.push(async () => {
      await second.close()
      await database.close()
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    })
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
      WEB_DIST: '/nonexistent',
      SEED_DEMO: 'false',
      WEBHOOK_ALLOW_PRIVATE: '1',
    })
    const log = pino({ level: 'silent' })
    const a: AppContext = await createContext(config, database, log)
    const b: AppContext = await createContext(config, second, log)
    const rx = await startReceiver()
    cleanup.push(() => rx.close())

    // Four endpoints of four organisations, 25 deliveries each; each answer takes a few ms, so
    // the two instances' passes overlap.
    const agencies = await many<{ id: number }>(database.db, sql`SELECT id FROM agencies ORDER BY id LIMIT 4`)
    const paths: string[] = []
    for (const [i, ag] of agencies.entries()) {
      const path = `/two/${i}`
      paths.push(path)
      rx.answer(path, () => ({ status: 204, hold: new Promise((r) => setTimeout(r, 3)) }))
      const cfg = await one<{ id: number }>(
        database.db,
        sql`INSERT INTO app_service_configs (agency_id, service, state, secret, access_token, push_url, push_secret)
            VALUES (${ag.id}, '["event_push"]'::jsonb, 1, ${crypto.randomBytes(24).toString('hex')},
              ${crypto.randomBytes(36).toString('base64url')}, ${rx.url(path)},
              ${`whsec_${crypto.randomBytes(24).toString('base64')}`})
            ON CONFLICT DO NOTHING RETURNING id`,
      )
      await database.db.execute(
        sql`INSERT INTO webhook_deliveries (config_id, event, event_key, event_time, payload, next_at)
            SELECT ${cfg!.id}, 'webhook.test', 'two:' || n, now(), jsonb_build_object('n', n), now() - interval '1 second'
            FROM generate_series(1, 25) n`,
      )
    }

    // Small leases (one endpoint, five deliveries), so both instances keep taking turns.
    const size = { endpoints: 1, perEndpoint: 5 }
    const sent = { a: 0, b: 0 }
    for (let round = 0; round < 200; round++) {
      const [x, y] = await Promise.all([deliverDue(a, { size }), deliverDue(b, { size })])
      sent.a += x.sent
      sent.b += y.sent
      if (x.endpoints + y.endpoints === 0) break
    }
    expect(sent.a + sent.b).toBe(100)
    expect(sent.a).toBeGreaterThan(0)
    expect(sent.b).toBeGreaterThan(0)

    const all = rx.got.filter((r) => r.path.startsWith('/two/'))
    expect(all).toHaveLength(100)
    expect(new Set(all.map((r) => r.id)).size).toBe(100)
    for (const path of paths) {
      const ids = rx.of(path).map((r) => Number(r.id.slice(4)))
      // Each endpoint in order, whichever instance sent which batch.
      expect(ids).toEqual([...ids].sort((p, q) => p - q))
    }
    const left = await one<{ n: number }>(
      database.db,
      sql`SELECT count(*) AS n FROM webhook_deliveries WHERE state <> 'delivered'`,
    )
    expect(left?.n).toBe(0)
  },
)
