import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { disabledAtOrAbove } from '../../db/scope.ts'
import { one } from '../../db/sql.ts'

export type IntegratorRow = {
  config_id: number
  agency_id: number
  agency_name: string
  index_link: string
  services: string[]
}

/**
 * The enabled service configuration holding this access token and the open_api service, of an
 * organisation that is enabled with every organisation above it; else null.
 */
export async function findIntegrator(db: DbOrTx, accessToken: string): Promise<IntegratorRow | null> {
  return one<IntegratorRow>(
    db,
    sql`SELECT c.id AS config_id, c.agency_id, g.name AS agency_name, g.index_link,
           c.service AS services
    FROM app_service_configs c JOIN agencies g ON g.id = c.agency_id
    WHERE c.access_token = ${accessToken} AND c.state = 1 AND c.service @> '["open_api"]'::jsonb
      AND NOT ${disabledAtOrAbove(sql`g.index_link`)}`,
  )
}
