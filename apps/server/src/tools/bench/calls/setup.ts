import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type Database, openPglite, openPostgres } from '../../../db/client.ts'
import { many } from '../../../db/sql.ts'
import { demoAgencies } from '../../../seed/seed.ts'
import { seedBenchNetwork } from '../alarm/setup.ts'
import { log } from '../harness/report.ts'
import type { CallsOptions, Place } from './types.ts'

// 1. The bench database: PostgreSQL (a fresh database on the server of --database-url) or the
// PGlite of the one instance's data folder, seeded as the alarm bench seeds, and the places of the
// demo organisations' AEDs where the calls will be.

/** Where the bench's data is: a PostgreSQL database (its URL) or the instance's PGlite folder. */
export type BenchStore =
  | { kind: 'postgres'; url: string; dbName: string }
  | { kind: 'pglite'; dataDir: string }

/** Opens the store (PGlite only while no server holds its folder). */
export function openStore(store: BenchStore): Promise<Database> {
  return store.kind === 'postgres' ? openPostgres(store.url) : openPglite(store.dataDir)
}

/**
 * Seeds the store (the demo network without history, `o.devices` factory devices) and answers the
 * seeding with the installed AEDs' places of each ordinary demo organisation (the callers' own).
 */
export async function seedStore(
  o: CallsOptions,
  store: BenchStore,
  work: string,
  keys: Record<string, string>,
) {
  if (store.kind === 'pglite') fs.mkdirSync(store.dataDir, { recursive: true })
  const database = await openStore(store)
  try {
    const env: Record<string, string> & { DATA_DIR: string } =
      store.kind === 'postgres'
        ? { DATABASE_URL: store.url, DATA_DIR: path.join(work, 'setup') }
        : { DATA_DIR: store.dataDir }
    const seeded = await seedBenchNetwork(database, env, keys, o.devices)
    const rows = await many<{ index_link: string; lat: number; lon: number; location: string }>(
      database.db,
      sql`SELECT a.index_link, i.lat, i.lon, i.location FROM installations i JOIN agencies a ON a.id = i.agency_id
          WHERE i.removed_at IS NULL AND i.lat IS NOT NULL AND a.agency_type = 2`,
    )
    const places = new Map<string, Place[]>()
    for (const d of demoAgencies.filter((a) => a.agency_type === 2)) {
      const link = seeded.links.get(d.key) as string
      const here = rows.filter((r) => r.index_link === link)
      if (!here.length) throw new Error(`no installed AED of ${d.key} to place its calls by`)
      places.set(d.key, here)
    }
    log(`places: ${[...places].map(([k, v]) => `${k} ${v.length}`).join(', ')}`)
    return { ...seeded, places }
  } finally {
    await database.close()
  }
}
