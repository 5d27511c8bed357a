import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Database, openPostgres } from '../db/client.ts'
import { isDatabaseUnreachable, many } from '../db/sql.ts'
import { startTcpProxy, type TcpProxy } from '../tools/faults/tcp-proxy.ts'
import { tempDataDir, templateDatabase } from './databases.ts'

// The database link watchdog (db/link.ts) against a real PostgreSQL, through the fault suite's
// TCP proxy: a link that goes silent (no reset, no refusal) is found down within two probes, what
// waited on it fails then instead of after minutes of TCP retries, and the link is found up again
// once PostgreSQL answers.

const onPostgres = process.env.TEST_DB === 'postgres'
const dataDir = tempDataDir()
let copy: Awaited<ReturnType<typeof templateDatabase>>
let proxy: TcpProxy
let linked: Database

beforeAll(async () => {
  if (!onPostgres) return
  copy = await templateDatabase('migrated', dataDir)
  const url = new URL(copy.url as string)
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
  url.hostname = '127.0.0.1'
  url.port = String(proxy.port)
  linked = await openPostgres(url.toString(), { linkTimeoutMs: 300 })
})
afterAll(async () => {
  await linked?.close()
  await proxy?.close()
  await copy?.database.close()
  await copy?.drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

/** The next change of `d`'s link, or an error after `ms`. */
function nextChange(d: Database, ms = 10_000) {
  return new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no link change in ${ms} ms`)), ms)
    const off = d.link.onChange((up) => {
      clearTimeout(timer)
      off()
      resolve(up)
    })
  })
}

it.skipIf(!onPostgres)(
  'a silent link is found down, what waited on it fails as unreachable, and it comes back up',
  async () => {
    expect(linked.link.up()).toBe(true)
    expect(await many(linked.db, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }])

    await proxy.setMode({ kind: 'drop' })
    const down = nextChange(linked)
    // Asked of a silent link: without the watchdog this waits for TCP to give up (minutes).
    const waiting = linked.db.execute(sql`SELECT 2`).then(
      () => null,
      (e: unknown) => e,
    )
    const started = Date.now()
    expect(await down).toBe(false)
    expect(linked.link.up()).toBe(false)
    const err = await waiting
    expect(err).toBeInstanceOf(Error)
    expect(isDatabaseUnreachable(err)).toBe(true)
    // Two probes of 300 ms, a second apart: found within a few seconds, not minutes.
    expect(Date.now() - started).toBeLessThan(8000)

    const up = nextChange(linked)
    await proxy.setMode({ kind: 'reset' })
    await proxy.setMode({ kind: 'pass' })
    expect(await up).toBe(true)
    expect(await many(linked.db, sql`SELECT 3 AS three`)).toEqual([{ three: 3 }])
  },
)

it.skipIf(!onPostgres)(
  'a database opened without linkTimeoutMs (tests, tools) runs no watchdog',
  async () => {
    expect(copy.database.link.up()).toBe(true)
    // Both reach the same database; only the one opened with linkTimeoutMs probes it.
    const probes = async () =>
      (
        await many<{ n: number }>(
          copy.database.db,
          sql`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE application_name = 'aed-link-probe' AND datname = current_database()`,
        )
      )[0].n
    // The linked one's first probe comes a second after it opened.
    await expect.poll(probes).toBe(1)
  },
)
