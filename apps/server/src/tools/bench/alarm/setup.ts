import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type Database, openPostgres } from '../../../db/client.ts'
import { many } from '../../../db/sql.ts'
import { createFactoryDevices } from '../../../modules/device/device.service.ts'
import { demoAgencies } from '../../../seed/seed.ts'
import { benchContext } from '../harness/database.ts'
import { log } from '../harness/report.ts'
import type { BenchDevice } from './types.ts'

/** What the seeding answers: the devices with their secrets, each demo organisation's index link and id by key. */
export type SeededNetwork = { devices: BenchDevice[]; links: Map<string, string>; ids: Map<string, number> }

/**
 * 1. Migrates the bench database at `url`, seeds the demo network (no history) and makes `count`
 * factory devices spread over the demo organisations, sealed with `keys` (the instances' too).
 */
export async function seedBenchDatabase(
  url: string,
  work: string,
  keys: Record<string, string>,
  count: number,
): Promise<SeededNetwork> {
  const database = await openPostgres(url)
  try {
    return await seedBenchNetwork(
      database,
      { DATABASE_URL: url, DATA_DIR: path.join(work, 'setup') },
      keys,
      count,
    )
  } finally {
    await database.close()
  }
}

/**
 * seedBenchDatabase on an open database (PostgreSQL, or the PGlite a server will open next), with
 * the configuration `env` (DATA_DIR at least); the caller closes it.
 */
export async function seedBenchNetwork(
  database: Database,
  env: Record<string, string> & { DATA_DIR: string },
  keys: Record<string, string>,
  count: number,
): Promise<SeededNetwork> {
  const ctx = await benchContext(
    database,
    { ...keys, ...env, SEED_DEMO: 'true', SEED_HISTORY: 'false' },
    'warn',
  )
  const agencies = await many<{ id: number; agency_name: string; index_link: string }>(
    ctx.db,
    sql`SELECT id::int, name AS agency_name, index_link FROM agencies`,
  )
  const byName = new Map(agencies.map((x) => [x.agency_name, x]))
  const links = new Map<string, string>()
  const orgs = demoAgencies.map((d) => {
    const row = byName.get(d.name)
    if (!row) throw new Error(`demo organisation ${d.name} not seeded`)
    links.set(d.key, row.index_link)
    return { key: d.key, id: row.id, link: row.index_link }
  })
  const rows = Array.from({ length: count }, (_, i) => {
    const o = orgs[i % orgs.length]
    return { device_sn: `W64B${String(i + 1).padStart(6, '0')}`, fw_version: 'V1.0.0', agency_id: o.id }
  })
  for (let i = 0; i < rows.length; i += 500)
    await createFactoryDevices(ctx.db, ctx, null, rows.slice(i, i + 500))
  const sealed = await many<{ device_sn: string; secret_enc: string; agency_id: number }>(
    ctx.db,
    sql`SELECT device_sn, secret_enc, agency_id::int FROM devices WHERE device_sn LIKE 'W64B%' ORDER BY device_sn`,
  )
  const orgById = new Map(orgs.map((o) => [o.id, o]))
  const devices: BenchDevice[] = sealed.map((r) => {
    const o = orgById.get(r.agency_id) as (typeof orgs)[number]
    return {
      sn: r.device_sn,
      secret: ctx.sealer.open(r.secret_enc),
      agencyKey: o.key,
      indexLink: o.link,
      seq: 0,
      busy: false,
    }
  })
  log(`seeded; ${devices.length} bench devices over ${orgs.length} organisations`)
  return { devices, links, ids: new Map(orgs.map((o) => [o.key, o.id])) }
}
