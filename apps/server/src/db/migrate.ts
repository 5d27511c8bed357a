import fs from 'node:fs'
import path from 'node:path'
import { migrationStarted } from '../lib/readiness.ts'
import type { Database } from './client.ts'

const dir = path.join(import.meta.dirname, 'migrations')
const LOCK_KEY = 720301

/**
 * Applies every migration file not yet applied, in name order, each in its own transaction. The
 * database counts as migrating (GET /api/ready answers 503) until it is done.
 */
export async function migrate(database: Database): Promise<string[]> {
  const done = migrationStarted(database)
  try {
    return await migrateFiles(database)
  } finally {
    done()
  }
}

function migrateFiles(database: Database): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  return database.withConnection(async (conn) => {
    // Several server instances on one PostgreSQL: only one migrates at a time.
    await conn.exec(`SELECT pg_advisory_lock(${LOCK_KEY})`)
    try {
      await conn.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
      const have = new Set(
        (await conn.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
      )
      const applied: string[] = []
      for (const file of files) {
        if (have.has(file)) continue
        const script = fs.readFileSync(path.join(dir, file), 'utf8')
        try {
          await conn.exec(
            `BEGIN;\n${script}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`,
          )
        } catch (e) {
          await conn.exec('ROLLBACK').catch(() => {})
          throw new Error(`Migration ${file} failed: ${(e as Error).message}`)
        }
        applied.push(file)
      }
      return applied
    } finally {
      await conn.exec(`SELECT pg_advisory_unlock(${LOCK_KEY})`)
    }
  })
}
