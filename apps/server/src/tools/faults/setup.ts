import crypto from 'node:crypto'
import { sql } from 'drizzle-orm'
import { openPostgres } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'
import { benchContext } from '../bench/harness/database.ts'
import type { LoadDevice } from './load.ts'

// The fault suite's network, seeded into the cluster's empty database (the cluster starts
// without the demo): the demo organisations, members and devices, the installed AEDs the load
// drives with their secrets, and one webhook endpoint at the system organisation for the receiver.

/** The keys every instance is started with, so that secrets sealed here open there. */
export type Keys = { JWT_SECRET: string; DEVICE_SECRET_KEY: string }

export type Network = {
  /** Installed AEDs with their secrets: the load's, then one held back for the job fault. */
  devices: { id: number; sn: string; secret: string }[]
  webhookConfigId: number
}

/**
 * Seeds the demo network (no history) into `url` with `keys`, and answers its installed AEDs
 * (`count` of them at most) and the id of a webhook endpoint posting to `pushUrl`.
 */
export async function seedNetwork(
  url: string,
  dataDir: string,
  keys: Keys,
  pushUrl: string,
  count: number,
): Promise<Network> {
  const database = await openPostgres(url)
  try {
    const ctx = await benchContext(
      database,
      { ...keys, DATABASE_URL: url, DATA_DIR: dataDir, SEED_DEMO: 'true', SEED_HISTORY: 'false' },
      'warn',
    )
    const rows = await many<{ id: number; device_sn: string; secret_enc: string }>(
      ctx.db,
      sql`SELECT id::int, device_sn, secret_enc FROM devices
          WHERE installation_id IS NOT NULL AND deleted_at IS NULL ORDER BY id LIMIT ${count}`,
    )
    const root = await one<{ id: number }>(
      ctx.db,
      sql`SELECT id::int FROM agencies WHERE agency_type = 0 ORDER BY id LIMIT 1`,
    )
    if (!root) throw new Error('the demo seed made no system organisation')
    // As bench/webhooks.ts makes its endpoint: every event of the network, signed with a secret of its own.
    const cfg = await one<{ id: number }>(
      ctx.db,
      sql`INSERT INTO app_service_configs (agency_id, service, state, secret, access_token, push_url, push_secret)
          VALUES (${root.id}, '["event_push"]'::jsonb, 1, ${crypto.randomBytes(24).toString('hex')},
            ${crypto.randomBytes(36).toString('base64url')}, ${pushUrl}, ${`whsec_${crypto.randomBytes(24).toString('base64')}`})
          RETURNING id::int`,
    )
    return {
      devices: rows.map((r) => ({ id: r.id, sn: r.device_sn, secret: ctx.sealer.open(r.secret_enc) })),
      webhookConfigId: (cfg as { id: number }).id,
    }
  } finally {
    await database.close()
  }
}

/** The load's devices: the first `https` over HTTPS, the next `mqtt` over MQTT. */
export function loadDevices(net: Network, https: number, mqtt: number): LoadDevice[] {
  if (net.devices.length < https + mqtt + 1)
    throw new Error(`the demo has ${net.devices.length} installed AEDs; the load needs ${https + mqtt + 1}`)
  return net.devices.slice(0, https + mqtt).map((d, i) => ({
    sn: d.sn,
    secret: d.secret,
    transport: i < https ? 'https' : 'mqtt',
  }))
}
