import path from 'node:path'
import v8 from 'node:v8'
import { PGlite } from '@electric-sql/pglite'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import pg from 'pg'
import { ALWAYS_UP, type DatabaseLink, SocketRegistry, watchLink } from './link.ts'
import { type NotificationSource, pgliteNotifications, pgNotifications } from './notifications.ts'
import * as schema from './schema.ts'

/** The Drizzle handle every repository takes: PGlite and node-postgres share this type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
/** A transaction handle; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx

/** One connection for work that must not hop between pooled clients (migrations, locks). */
export type Connection = {
  /** Runs a script of several statements. */
  exec(sql: string): Promise<void>
  query<T>(sql: string, params?: unknown[]): Promise<T[]>
}

export type Database = {
  db: Db
  /**
   * The outbox's dispatch lanes (modules/engine/outbox.ts): a pool of their own on PostgreSQL, so
   * a dispatch never waits for a connection behind the burst of requests that queued it; `db` on
   * PGlite (one connection).
   */
  lanes: Db
  kind: 'pglite' | 'postgres'
  withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T>
  /** LISTEN side of the event bus (db/events.ts): a dedicated client on PostgreSQL, in process on PGlite. */
  notifications: NotificationSource
  /** The connection pools now (GET /metrics): PGlite has one connection and no pool, so none. */
  pools(): PoolStats[]
  /** Whether the database answers this instance (db/link.ts); always up unless a watchdog runs. */
  link: DatabaseLink
  close(): Promise<void>
}

/** One connection pool: its connections, the idle ones, and the queries waiting for one. */
export type PoolStats = { pool: 'main' | 'lanes'; total: number; idle: number; waiting: number }

const statsOf = (pool: 'main' | 'lanes', p: pg.Pool): PoolStats => ({
  pool,
  total: p.totalCount,
  idle: p.idleCount,
  waiting: p.waitingCount,
})

/** The connections of Database.lanes on PostgreSQL. */
export const LANE_CONNECTIONS = 4

/** Opens the embedded PGlite in `dataDir/pg` (or in memory when dataDir is null). */
export async function openPglite(dataDir: string | null): Promise<Database> {
  // PGlite's WebAssembly compiled straight to optimised code as each function is first called,
  // instead of V8's baseline code first and optimised code once hot: a process's first
  // 100,000-row export took 6.1 s against 3.2 s for the next, with this 3.7 s; a first start and
  // the server tests take the same time either way (docs/benchmarks.md). Read when the module is
  // compiled, so it is set before each PGlite starts.
  v8.setFlagsFromString('--no-wasm-dynamic-tiering')
  // pg_trgm: trigram indexes make the lists' substring filters fast; cube and earthdistance find
  // the nearest AEDs for the open API (all three ship with PostgreSQL's contrib too).
  const extensions = { pg_trgm, cube, earthdistance }
  const client = dataDir ? new PGlite(path.join(dataDir, 'pg'), { extensions }) : new PGlite({ extensions })
  await client.waitReady
  const db = drizzlePglite({ client, schema }) as unknown as Db
  return {
    db,
    lanes: db,
    kind: 'pglite',
    withConnection: (fn) =>
      fn({
        exec: async (sql) => {
          await client.exec(sql)
        },
        query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
      }),
    notifications: pgliteNotifications(client),
    pools: () => [],
    link: ALWAYS_UP,
    close: () => client.close(),
  }
}

/**
 * Connects to a PostgreSQL server. `linkTimeoutMs` > 0 starts the link watchdog (db/link.ts) with
 * that probe timeout; servers do (DB_LINK_TIMEOUT_MS), tests and tools do not.
 */
export async function openPostgres(url: string, opts: { linkTimeoutMs?: number } = {}): Promise<Database> {
  // Every socket to the server, so that a link found silent can be cut at once (db/link.ts).
  const sockets = new SocketRegistry()
  const pool = new pg.Pool({ connectionString: url, max: 10, stream: sockets.stream })
  // An idle connection the server ends (a restart, a failover, pg_terminate_backend) emits
  // 'error' on the pool; without a listener that is an uncaught exception that stops the
  // process. The pool has already dropped that connection and the next query opens another.
  pool.on('error', () => {})
  // A connection that breaks while checked out (a transaction between two statements, the job
  // runner's lock held through a job) emits 'error' on its client, which pg-pool listens for only
  // while the client is idle: unheard, a PostgreSQL restart stopped the process. Heard here, the
  // next query on it fails instead, and release() drops it from the pool.
  const keepErrors = (client: pg.PoolClient) => client.on('error', () => {})
  pool.on('connect', keepErrors)
  const probe = await pool.connect()
  probe.release()
  // Connected when first used (a server that never drains opens none).
  const lanes = new pg.Pool({ connectionString: url, max: LANE_CONNECTIONS, stream: sockets.stream })
  lanes.on('error', () => {})
  lanes.on('connect', keepErrors)
  const notifications = pgNotifications(url, sockets.stream)
  const watchdog = opts.linkTimeoutMs ? watchLink({ url, timeoutMs: opts.linkTimeoutMs, sockets }) : null
  return {
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    lanes: drizzlePg({ client: lanes, schema }) as unknown as Db,
    kind: 'postgres',
    withConnection: async (fn) => {
      const conn = await pool.connect()
      try {
        return await fn({
          exec: async (sql) => {
            await conn.query(sql)
          },
          query: async <T>(sql: string, params?: unknown[]) => (await conn.query(sql, params)).rows as T[],
        })
      } finally {
        conn.release()
      }
    },
    notifications,
    pools: () => [statsOf('main', pool), statsOf('lanes', lanes)],
    link: watchdog ?? ALWAYS_UP,
    close: async () => {
      await watchdog?.stop()
      await notifications.close()
      await pool.end()
      await lanes.end()
    },
  }
}
