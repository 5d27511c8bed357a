import type { AgencySettings } from '@aed/contracts/settings'
import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { agencySettings } from '../../db/schema.ts'

export async function findSettings(db: DbOrTx, agencyId: number) {
  const [row] = await db.select().from(agencySettings).where(eq(agencySettings.agency_id, agencyId)).limit(1)
  return (row?.config as AgencySettings | undefined) ?? null
}

export async function saveSettings(db: DbOrTx, agencyId: number, config: AgencySettings) {
  await db
    .insert(agencySettings)
    .values({ agency_id: agencyId, config })
    .onConflictDoUpdate({ target: agencySettings.agency_id, set: { config, update_time: sql`now()` } })
}
