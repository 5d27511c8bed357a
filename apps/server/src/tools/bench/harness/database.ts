import crypto from 'node:crypto'
import pino from 'pino'
import { createContext } from '../../../bootstrap.ts'
import { loadConfig } from '../../../config.ts'
import { type Database, openPglite, openPostgres } from '../../../db/client.ts'
import { databaseUrl, onServer } from '../../../db/server.ts'

// The benchmarks' databases and the server context on them.

/** BENCH_DATABASE_URL's PostgreSQL when it is set, else an embedded database in `dir` (null: in memory). */
export function openBenchDatabase(dir: string | null): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL
  return url ? openPostgres(url) : openPglite(dir)
}

export { databaseUrl }

/** Creates database `name` on the server of `serverUrl`; answers its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`))
  return databaseUrl(serverUrl, name)
}

/** Drops database `name` on the server of `serverUrl`, closing its connections. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
}

/** Whether the server of `serverUrl` has a database `name`. */
export function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  return onServer(serverUrl, async (c) =>
    Boolean((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount),
  )
}

/** New keys for the JWTs and the device secrets, to give the seeding and the servers alike. */
export function newKeys(): { JWT_SECRET: string; DEVICE_SECRET_KEY: string } {
  return {
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
  }
}

/**
 * The server's context on `database` (createContext: migrated, the demo seeded on an empty one
 * unless SEED_DEMO=false) with the configuration `env` (DATA_DIR at least), a JWT key of its own
 * unless given, no web build; the log at `level`.
 */
export function benchContext(database: Database, env: Record<string, string>, level = 'silent') {
  const config = loadConfig({
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    WEB_DIST: '/nonexistent',
    ...env,
  })
  return createContext(config, database, pino({ level }))
}
