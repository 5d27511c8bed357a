import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { hash } from '@node-rs/argon2'
import { eq } from 'drizzle-orm'
import type pg from 'pg'
import { type Database, openPglite, openPostgres } from '../db/client.ts'
import { migrate } from '../db/migrate.ts'
import { accounts } from '../db/schema.ts'
import { databaseUrl, onServer as withAdmin } from '../db/server.ts'
import { DEMO_PASSWORD, demoMembers, seedDemo } from '../seed/seed.ts'

// Every API test file used to run initdb, the migrations and the demo seed itself (about 4 s on
// PGlite). Instead two templates are built once, `migrated` and `seeded` (migrated plus the demo
// network), and each file gets a copy: a copied PGlite data folder, or a PostgreSQL database
// created WITH TEMPLATE. createContext then finds the copy migrated and not empty, so it neither
// migrates nor seeds again. The templates are named by a hash of everything that shapes them, so
// a changed migration or seed builds new ones; building is safe when runs overlap.

export type TemplateKind = 'migrated' | 'seeded'

const src = path.resolve(import.meta.dirname, '..')
/** Scratch space for test data folders: memory-backed /dev/shm where there is one (copies in ms). */
export const SCRATCH = (() => {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK)
    return '/dev/shm'
  } catch {
    return os.tmpdir()
  }
})()
/** Where the PGlite templates live, one folder per kind and hash. */
const PGLITE_TEMPLATES = path.join(SCRATCH, 'aed-test-templates')
/** Templates of other hashes are dropped after this long unused (a run in progress may still copy them). */
const STALE_MS = 6 * 3600_000

/** The files a template is made of: the migrations, and the seed, this file and what they import. */
function inputs(): string[] {
  const migrations = path.join(src, 'db/migrations')
  const files = new Set(
    fs
      .readdirSync(migrations)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => path.join(migrations, f)),
  )
  const queue = [path.join(src, 'seed/seed.ts'), path.join(src, 'db/migrate.ts'), import.meta.filename]
  while (queue.length) {
    const file = queue.pop()!
    if (files.has(file) || !fs.existsSync(file)) continue
    files.add(file)
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)) {
      queue.push(path.resolve(path.dirname(file), m[1]))
    }
  }
  return [...files].sort()
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  let dir = path.dirname(entry)
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir)
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version
}

/** A short hash of the template inputs (and the PGlite version, whose data folder format it is). */
export function templateHash(): string {
  const h = crypto.createHash('sha256').update(pgliteVersion())
  for (const f of inputs()) h.update(path.relative(src, f)).update('\0').update(fs.readFileSync(f))
  return h.digest('hex').slice(0, 12)
}

/**
 * An argon2id hash at a test-only cost. Sign-in verifies with the parameters stored in the hash,
 * so accounts the tests seed sign in quickly; production parameters are untouched (hashPassword,
 * fixed by lib/passwords.test.ts) and every password set through the API uses them.
 */
export function testPasswordHash(password: string) {
  // 2 is Algorithm.Argon2id, an ambient const enum of @node-rs/argon2.
  return hash(password, { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 })
}

/** The demo seed, its accounts' passwords at the test-only cost. */
async function seedForTests(database: Database) {
  await seedDemo(database.db)
  const cheap = await testPasswordHash(DEMO_PASSWORD)
  for (const phone of new Set(demoMembers.map((m) => m.phone))) {
    await database.db.update(accounts).set({ password_hash: cheap }).where(eq(accounts.phone, phone))
  }
}

// PGlite: a data folder, built under a temporary name and renamed into place, so a reader sees a
// complete template or none; when two runs build at once, the second rename loses and is dropped.

function pgliteTemplateDir(kind: TemplateKind, key = templateHash()) {
  return path.join(PGLITE_TEMPLATES, `${kind}-${key}`)
}

async function buildPglite(kind: TemplateKind, key: string): Promise<string> {
  const final = pgliteTemplateDir(kind, key)
  if (fs.existsSync(final)) return final
  const work = `${final}.tmp-${process.pid}-${crypto.randomBytes(3).toString('hex')}`
  try {
    if (kind === 'seeded') {
      fs.cpSync(await buildPglite('migrated', key), work, { recursive: true })
    } else {
      fs.mkdirSync(work, { recursive: true })
    }
    const database = await openPglite(work)
    try {
      if (kind === 'migrated') await migrate(database)
      else await seedForTests(database)
    } finally {
      await database.close()
    }
    try {
      fs.renameSync(work, final)
    } catch (e) {
      if (!fs.existsSync(final)) throw e
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  return final
}

/** Marks this hash's templates used; removes other hashes' (and abandoned builds) unused for long. */
function prunePglite(key: string) {
  if (!fs.existsSync(PGLITE_TEMPLATES)) return
  for (const name of fs.readdirSync(PGLITE_TEMPLATES)) {
    const dir = path.join(PGLITE_TEMPLATES, name)
    if (name.endsWith(`-${key}`)) fs.utimesSync(dir, new Date(), new Date())
    else if (olderThan(dir, STALE_MS)) fs.rmSync(dir, { recursive: true, force: true })
  }
}

function olderThan(file: string, ms: number) {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > ms
  } catch {
    return false
  }
}

/** Test data folders a crashed file left behind (they hold a database copy, in memory on /dev/shm). */
function pruneDataDirs() {
  for (const name of fs.readdirSync(SCRATCH)) {
    const dir = path.join(SCRATCH, name)
    if (/^aed-test-[0-9a-f]{8}$/.test(name) && olderThan(dir, 3600_000)) {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** A PGlite data folder (DATA_DIR layout: `<dir>/pg`) copied from the template of that kind. */
export async function copyPgliteTemplate(kind: TemplateKind, dataDir: string) {
  const template = await buildPglite(kind, templateHash())
  fs.mkdirSync(dataDir, { recursive: true })
  fs.cpSync(path.join(template, 'pg'), path.join(dataDir, 'pg'), { recursive: true })
}

// PostgreSQL: template databases `aed_tmpl_<kind>_<hash>`, built under an advisory lock of the
// admin database and renamed into place when complete. Nobody connects to a template after
// that, which CREATE DATABASE ... TEMPLATE requires.

const LOCK = 'SELECT pg_advisory_lock(720411)'
const UNLOCK = 'SELECT pg_advisory_unlock(720411)'

function pgTemplateName(kind: TemplateKind, key: string) {
  return `aed_tmpl_${kind}_${key}`
}

async function exists(c: pg.Client, name: string) {
  return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
}

async function buildPostgres(c: pg.Client, admin: string, kind: TemplateKind, key: string): Promise<string> {
  const final = pgTemplateName(kind, key)
  if (await exists(c, final)) return final
  const work = `${final}_tmp`
  await c.query(`DROP DATABASE IF EXISTS ${work} WITH (FORCE)`)
  if (kind === 'seeded') {
    await c.query(`CREATE DATABASE ${work} TEMPLATE ${await buildPostgres(c, admin, 'migrated', key)}`)
  } else {
    await c.query(`CREATE DATABASE ${work}`)
  }
  const database = await openPostgres(databaseUrl(admin, work))
  try {
    if (kind === 'migrated') await migrate(database)
    else await seedForTests(database)
  } finally {
    await database.close()
  }
  await c.query(`ALTER DATABASE ${work} RENAME TO ${final}`)
  await c.query(`COMMENT ON DATABASE ${final} IS '${new Date().toISOString()}'`)
  return final
}

/** Builds a PostgreSQL template when missing; with `prune`, marks it used and drops stale ones. */
async function ensurePostgres(admin: string, kind: TemplateKind, prune: boolean): Promise<string> {
  const key = templateHash()
  return withAdmin(admin, async (c) => {
    if (!prune && (await exists(c, pgTemplateName(kind, key)))) return pgTemplateName(kind, key)
    await c.query(LOCK)
    try {
      const name = await buildPostgres(c, admin, kind, key)
      if (prune) {
        await c.query(`COMMENT ON DATABASE ${name} IS '${new Date().toISOString()}'`)
        const { rows } = await c.query<{ datname: string; used: string | null }>(
          `SELECT datname, shobj_description(oid, 'pg_database') AS used FROM pg_database
           WHERE datname LIKE 'aed\\_tmpl\\_%' AND datname NOT LIKE $1`,
          [`%\\_${key}`],
        )
        for (const r of rows) {
          if (r.used && Date.now() - Date.parse(r.used) < STALE_MS) continue
          await c.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => {})
        }
      }
      return name
    } finally {
      await c.query(UNLOCK)
    }
  })
}

/**
 * A new PostgreSQL database copied from the template of that kind; `drop` removes it again.
 * The template is built first when a run started without the global setup.
 */
export async function createPostgresFromTemplate(admin: string, kind: TemplateKind) {
  const template = await ensurePostgres(admin, kind, false)
  const name = `aed_test_${crypto.randomBytes(6).toString('hex')}`
  await withAdmin(admin, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`))
  return {
    url: databaseUrl(admin, name),
    drop: () => withAdmin(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  }
}

/** Builds both templates for the database a run uses (vitest globalSetup, once per run). */
export async function buildTemplates(db: 'pglite' | 'postgres', admin?: string) {
  pruneDataDirs()
  if (db === 'postgres') {
    if (!admin) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
    await ensurePostgres(admin, 'migrated', false)
    await ensurePostgres(admin, 'seeded', true)
    return
  }
  const key = templateHash()
  await buildPglite('seeded', key)
  prunePglite(key)
}
