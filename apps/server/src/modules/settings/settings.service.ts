import { type AgencySettings, DEFAULT_SETTINGS } from '@aed/contracts/settings'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { recheckWarnings } from '../engine/engine.jobs.ts'
import * as repo from './settings.repository.ts'

async function target(ctx: AppContext, auth: AuthContext, agencyId: number | undefined) {
  const agency = await agencyInScope(ctx, auth, agencyId)
  if (!agency) throw notFound()
  return agency
}

/** The settings of the member's organisation or one below it; defaults until saved. */
export async function getSettings(ctx: AppContext, auth: AuthContext, agencyId: number | undefined) {
  const agency = await target(ctx, auth, agencyId)
  const saved = await repo.findSettings(ctx.db, agency.id)
  return { ...DEFAULT_SETTINGS, ...saved, agency_id: agency.id }
}

/** Saves the whole settings object of an organisation of the subtree. */
export async function saveSettings(
  ctx: AppContext,
  auth: AuthContext,
  body: AgencySettings & { agency_id?: number },
) {
  const { agency_id, ...settings } = body
  const agency = await target(ctx, auth, agency_id)
  await repo.saveSettings(ctx.db, agency.id, settings)
  // Reminder months and the offset threshold decide warnings and offsets now, not tomorrow.
  try {
    await recheckWarnings(ctx, agency.id)
  } catch (e) {
    ctx.log.error(
      { agency: agency.id, err: { message: (e as Error).message } },
      're-check after settings failed',
    )
  }
  return { ...settings, agency_id: agency.id }
}

/** An organisation's settings with the defaults filled in, for the server's own use (no member asks). */
export async function settingsOfAgency(db: DbOrTx, agencyId: number): Promise<Required<AgencySettings>> {
  return { ...DEFAULT_SETTINGS, ...(await repo.findSettings(db, agencyId)) } as Required<AgencySettings>
}
