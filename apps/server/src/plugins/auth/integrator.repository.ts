import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { disabledAtOrAbove } from '../../db/scope.ts'
import { many, one } from '../../db/sql.ts'
import { rememberOnce } from './device-nonces.repository.ts'

/** The caller of an /open-api request: its configuration, organisation and services. */
export type IntegratorRow = {
  config_id: number
  agency_id: number
  agency_name: string
  index_link: string
  services: string[]
}

/** A configuration found by an access token, enabled or not, with the secret that token signs with. */
export type IntegratorKeyRow = IntegratorRow & {
  /** The configuration and its organisation and every one above it are enabled. */
  enabled: boolean
  secret: string
}

/**
 * The configuration holding this access token: the current one, or the previous one while it
 * still signs (24 hours after a regeneration, with the previous secret); else null.
 */
export async function findIntegratorKey(
  db: DbOrTx,
  accessToken: string,
  now: Date,
): Promise<IntegratorKeyRow | null> {
  return one<IntegratorKeyRow>(
    db,
    sql`SELECT c.id AS config_id, c.agency_id, g.name AS agency_name, g.index_link, c.service AS services,
           (c.state = 1 AND NOT ${disabledAtOrAbove(sql`g.index_link`)}) AS enabled,
           CASE WHEN c.access_token = ${accessToken} THEN c.secret ELSE c.prev_secret END AS secret
    FROM app_service_configs c JOIN agencies g ON g.id = c.agency_id
    WHERE c.access_token = ${accessToken}
       OR (c.prev_access_token = ${accessToken} AND c.prev_until > ${now.toISOString()}::timestamptz)
    LIMIT 1`,
  )
}

/** Integrator nonces are kept this long: the timestamp may be 5 minutes off either way. */
export const OPEN_API_NONCE_RETENTION_MS = 15 * 60_000

/** Records a nonce of a configuration; false when it was accepted before (a replay, on any instance). */
export function rememberOpenApiNonce(db: DbOrTx, configId: number, nonce: string, now: Date) {
  const owner = { column: 'config_id', value: configId } as const
  return rememberOnce(db, 'open_api_nonces', owner, nonce, now, OPEN_API_NONCE_RETENTION_MS)
}

/**
 * Takes one request from the configuration's token bucket (`burst` at most, refilled at `rate`
 * a second); answers 0 when taken, else the seconds until one is available. One statement on
 * the shared table, so the limit holds across instances.
 */
export async function takeRequest(
  db: DbOrTx,
  configId: number,
  now: Date,
  limit: { rate: number; burst: number },
): Promise<number> {
  const at = now.toISOString()
  const refill = sql`LEAST(${limit.burst}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (${at}::timestamptz - b.updated_at))) * ${limit.rate}::float8)`
  const taken = await many(
    db,
    sql`
    INSERT INTO open_api_buckets AS b (config_id, tokens, updated_at)
    VALUES (${configId}, ${limit.burst - 1}::float8, ${at}::timestamptz)
    ON CONFLICT (config_id) DO UPDATE SET tokens = ${refill} - 1, updated_at = ${at}::timestamptz
      WHERE ${refill} >= 1
    RETURNING 1 AS taken`,
  )
  if (taken.length) return 0
  const row = await one<{ tokens: number }>(
    db,
    sql`SELECT ${refill} AS tokens FROM open_api_buckets b WHERE b.config_id = ${configId}`,
  )
  return Math.max(1, Math.ceil((1 - (row?.tokens ?? 0)) / limit.rate))
}
