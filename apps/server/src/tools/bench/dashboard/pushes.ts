import crypto from 'node:crypto'
import pg from 'pg'
import { sleep } from '../harness/servers.ts'
import { DB_URL } from './options.ts'

// Status pushes during the second drive (`--live-rate`).

/** Pushes status changes of random placed devices through the outbox (the engine's way to the consoles). */
export function startPushes(rate: number) {
  const client = new pg.Client({ connectionString: DB_URL })
  let stop = false
  let sent = 0
  const done = (async () => {
    await client.connect()
    const ids = (
      await client.query<{
        id: number
        sn: string
        agency_id: number
        link: string
        lon: number
        lat: number
      }>(
        `SELECT d.id::int, d.device_sn AS sn, i.agency_id::int, a.index_link AS link, i.lon, i.lat
         FROM devices d JOIN installations i ON i.id = d.installation_id JOIN agencies a ON a.id = i.agency_id
         WHERE d.device_sn LIKE 'B%' ORDER BY random() LIMIT 20000`,
      )
    ).rows
    const run = crypto.randomBytes(3).toString('hex')
    while (!stop) {
      const t = Date.now()
      const rows = Array.from({ length: Math.max(1, Math.round(rate / 4)) }, () => {
        const d = ids[Math.floor(Math.random() * ids.length)]
        const s = [0, 0, 0, 1, 2, 3, 4][Math.floor(Math.random() * 7)]
        sent++
        return [
          'live',
          `bench-dash:${run}:${sent}`,
          d.agency_id,
          d.link,
          JSON.stringify({
            device_id: d.id,
            device_sn: d.sn,
            status: s,
            shown_status: s,
            readiness: 0,
            reasons: [],
            lon: d.lon,
            lat: d.lat,
          }),
        ]
      })
      await client.query(
        `INSERT INTO outbox (topic, dedupe_key, agency_id, index_link, payload)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::jsonb[])`,
        [0, 1, 2, 3, 4].map((k) => rows.map((r) => r[k])),
      )
      await sleep(Math.max(0, 250 - (Date.now() - t)))
    }
    await client.end()
  })()
  return async () => {
    stop = true
    await done
    return sent
  }
}
