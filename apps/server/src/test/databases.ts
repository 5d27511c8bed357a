import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { type Database, openPglite, openPostgres } from '../db/client.ts'
import { copyPgliteTemplate, createPostgresFromTemplate, SCRATCH, type TemplateKind } from './templates.ts'

/** A new temporary folder for one test file's data (PGlite in `pg/`, files, secrets). */
export function tempDataDir() {
  return path.join(SCRATCH, `aed-test-${crypto.randomBytes(4).toString('hex')}`)
}

/**
 * A database for one test file, copied from a template (test/templates.ts): `migrated`, or
 * `seeded` with the demo network as well. PGlite in `dataDir/pg`, or with TEST_DB=postgres a
 * new database on TEST_DATABASE_URL; `url` lets another `Database` connect to it, as a second
 * server instance would. `drop` removes the copy (close the databases first).
 */
export async function templateDatabase(kind: TemplateKind, dataDir: string) {
  if (process.env.TEST_DB !== 'postgres') {
    await copyPgliteTemplate(kind, dataDir)
    return {
      database: await openPglite(dataDir),
      url: null,
      drop: async () => fs.rmSync(path.join(dataDir, 'pg'), { recursive: true, force: true }),
    }
  }
  const admin = process.env.TEST_DATABASE_URL
  if (!admin) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const copy = await createPostgresFromTemplate(admin, kind)
  return { database: await openPostgres(copy.url), url: copy.url, drop: copy.drop }
}

/**
 * A fresh, migrated, unseeded database for one test file: PGlite, or with TEST_DB=postgres a
 * new database on TEST_DATABASE_URL, dropped on close. On PostgreSQL `connect()` opens another
 * `Database` on it, as a second server instance would.
 */
export async function openTestDatabase() {
  const dataDir = tempDataDir()
  const { database, url, drop } = await templateDatabase('migrated', dataDir)
  const opened: Database[] = [database]
  return {
    database,
    kind: database.kind,
    async connect(): Promise<Database> {
      if (!url) throw new Error('PGlite is one process: there is no second instance to connect')
      const d = await openPostgres(url)
      opened.push(d)
      return d
    },
    async close() {
      for (const d of opened) await d.close()
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
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
