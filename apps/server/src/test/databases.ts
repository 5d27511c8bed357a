import crypto from 'node:crypto'
import pg from 'pg'
import { type Database, openPglite, openPostgres } from '../db/client.ts'
import { migrate } from '../db/migrate.ts'

/**
 * A fresh, migrated, unseeded database for one test file: in-memory PGlite, or with
 * TEST_DB=postgres a new database on TEST_DATABASE_URL, dropped on close. On PostgreSQL
 * `connect()` opens another `Database` on it, as a second server instance would.
 */
export async function openTestDatabase() {
  const opened: Database[] = []
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openPglite(null)
    await migrate(database)
    return {
      database,
      kind: 'pglite' as const,
      connect(): Promise<Database> {
        throw new Error('PGlite is one process: there is no second instance to connect')
      },
      close: () => database.close(),
    }
  }
  const admin = process.env.TEST_DATABASE_URL
  if (!admin) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const name = `aed_test_${crypto.randomBytes(6).toString('hex')}`
  const c = new pg.Client({ connectionString: admin })
  await c.connect()
  await c.query(`CREATE DATABASE ${name}`)
  await c.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  const connect = async () => {
    const d = await openPostgres(url.toString())
    opened.push(d)
    return d
  }
  const database = await connect()
  await migrate(database)
  return {
    database,
    kind: 'postgres' as const,
    connect,
    async close() {
      for (const d of opened) await d.close()
      const d = new pg.Client({ connectionString: admin })
      await d.connect()
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await d.end()
    },
  }
}

/** Collects what a subscriber receives; `until(n)` waits (bounded) for the n-th arrival. */
export function inbox<T = unknown>() {
  const got: T[] = []
  let waiters: (() => void)[] = []
  return {
    got,
    push(v: T) {
      got.push(v)
      for (const w of waiters) w()
      waiters = []
    },
    async until(n: number, ms = 5_000): Promise<T[]> {
      const end = Date.now() + ms
      while (got.length < n) {
        const left = end - Date.now()
        if (left <= 0) throw new Error(`waited ${ms} ms for ${n} deliveries, got ${JSON.stringify(got)}`)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(t)
            resolve()
          })
        })
      }
      return got
    },
  }
}
