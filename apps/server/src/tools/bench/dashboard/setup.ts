import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { openPostgres } from '../../../db/client.ts'
import { many, one } from '../../../db/sql.ts'
import {
  benchContext,
  createDatabase,
  databaseExists,
  databaseUrl,
  dropDatabase,
  newKeys,
} from '../harness/database.ts'
import { log } from '../harness/report.ts'
import { load, loadRescues } from '../network.ts'
import { DB_URL, DIST, ROOT, WEB } from './options.ts'

// Before the browser: the web build, the keys and the database.

/** The newest modification time under a folder (sources only). */
function newest(dir: string): number {
  let t = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') t = Math.max(t, newest(p))
    } else t = Math.max(t, fs.statSync(p).mtimeMs)
  }
  return t
}

/** Builds the web app when dist is missing or older than its sources (and the contracts'), unless `noBuild`. */
export function ensureBuilt(noBuild: boolean) {
  const built = fs.existsSync(path.join(DIST, 'index.html'))
    ? fs.statSync(path.join(DIST, 'index.html')).mtimeMs
    : 0
  const sources = Math.max(
    newest(path.join(WEB, 'src')),
    newest(path.join(ROOT, 'packages/contracts/src')),
    fs.statSync(path.join(WEB, 'index.html')).mtimeMs,
  )
  // The drives read the map through the test hooks, which only a build with VITE_TEST_HOOKS has.
  const dist = process.env.BENCH_WEB_DIST ?? DIST
  const hooked = built > 0 && hasTestHooks(dist)
  if (noBuild || process.env.BENCH_WEB_DIST || (built >= sources && hooked)) {
    log(
      `apps/web/dist built ${new Date(built).toISOString()}${built < sources ? ' (older than the sources: --no-build)' : ''}`,
    )
    if (!hasTestHooks(dist)) throw new Error(`${dist} has no test hooks: build it with VITE_TEST_HOOKS=1`)
    return
  }
  log(`building apps/web (${hooked ? 'dist is missing or older than the sources' : 'with its test hooks'})`)
  execSync('npm run build -w apps/web', {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, VITE_TEST_HOOKS: '1' },
  })
}

/** Whether a built console carries the dashboard's test hooks (window.__aedDashboardMap). */
function hasTestHooks(dist: string): boolean {
  const assets = path.join(dist, 'assets')
  if (!fs.existsSync(assets)) return false
  return fs
    .readdirSync(assets)
    .some(
      (f) => f.endsWith('.js') && fs.readFileSync(path.join(assets, f), 'utf8').includes('__aedDashboardMap'),
    )
}

/** The keys of the seeding and the server: new, or with `reuse` those kept in `keyFile`; kept there. */
export function benchKeys(keyFile: string, reuse: boolean): Record<string, string> {
  const keys = reuse && fs.existsSync(keyFile) ? JSON.parse(fs.readFileSync(keyFile, 'utf8')) : newKeys()
  fs.writeFileSync(keyFile, JSON.stringify(keys))
  return keys
}

/** Creates the database (dropping it first unless `reuse`) and loads the bench's network. */
export async function prepareDatabase(dataDir: string, keys: Record<string, string>, reuse: boolean) {
  const name = new URL(DB_URL).pathname.slice(1)
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`)
  const serverUrl = databaseUrl(DB_URL, 'postgres')
  const exists = await databaseExists(serverUrl, name)
  if (exists && !reuse) await dropDatabase(serverUrl, name)
  if (!exists || !reuse) await createDatabase(serverUrl, name)

  const database = await openPostgres(DB_URL)
  // Migrates and, on an empty database, seeds the demo network (its accounts and organisations;
  // network.ts spreads its agencies under the demo's general agents). No demo history: the
  // dashboard's figures are the bench's.
  const ctx = await benchContext(
    database,
    { ...keys, DATABASE_URL: DB_URL, DATA_DIR: dataDir, SEED_HISTORY: 'false' },
    'warn',
  )
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  const t0 = performance.now()
  if (!loaded?.n) {
    log('loading the bench network (npm run bench’s load: agencies, users, logs, 100,000 devices)')
    await load(ctx)
  }
  await loadRescues(ctx)
  const took = performance.now() - t0
  const [counts] = await many<{ devices: number; placed: number }>(
    ctx.db,
    sql`SELECT (SELECT count(*)::int FROM devices WHERE installation_id IS NOT NULL AND deleted_at IS NULL) AS devices,
               (SELECT count(*)::int FROM installations WHERE removed_at IS NULL AND lat IS NOT NULL) AS placed`,
  )
  await database.close()
  log(
    `database ${name}: ${counts.devices} registered devices, ${counts.placed} placed (load ${(took / 1000).toFixed(1)} s)`,
  )
}
