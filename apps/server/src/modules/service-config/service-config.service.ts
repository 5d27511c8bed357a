import crypto from 'node:crypto'
import type { Lang } from '@aed/contracts'
import type { ServiceConfigListQuery } from '@aed/contracts/service-config'
import type { AppContext } from '../../context.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { presentServiceConfig, serviceConfigListCan } from './service-config.presenter.ts'
import * as repo from './service-config.repository.ts'

const newSecret = () => crypto.randomBytes(24).toString('hex')
const newToken = () => crypto.randomBytes(36).toString('base64url')

async function found(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return row
}

/** One page of the subtree's configurations, without credentials. */
export async function list(ctx: AppContext, auth: AuthContext, query: ServiceConfigListQuery, lang: Lang) {
  const { count, rows } = await repo.listPage(ctx.db, auth, query)
  return {
    count,
    resource: rows.map((r) => presentServiceConfig(r, lang, false)),
    can: serviceConfigListCan(auth),
  }
}

/** One configuration with its credentials, for editing. */
export async function detail(ctx: AppContext, auth: AuthContext, id: number, lang: Lang) {
  return presentServiceConfig(await found(ctx, auth, id), lang, true)
}

/** Gives an organisation of the subtree its one configuration, with fresh credentials. */
export async function create(
  ctx: AppContext,
  auth: AuthContext,
  form: { agency_id: number; service: string[]; state: 0 | 1 },
  lang: Lang,
) {
  if (!(await agencyInScope(ctx, auth, form.agency_id))) throw invalid('AGENCY_NAME_REQUIRED')
  if (await repo.existsForAgency(ctx.db, form.agency_id)) throw invalid('SERVICE_CONFIG_EXISTS')
  const id = await repo.insert(ctx.db, {
    agency_id: form.agency_id,
    service: form.service,
    state: form.state,
    secret: newSecret(),
    access_token: newToken(),
    creator: auth.member_id,
  })
  return detail(ctx, auth, id, lang)
}

/** Changes services or state; `regenerate` replaces both credentials. */
export async function update(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  form: { service: string[]; state: 0 | 1; regenerate?: boolean },
  lang: Lang,
) {
  const row = await found(ctx, auth, id)
  await repo.update(ctx.db, row.id, {
    service: form.service,
    state: form.state,
    ...(form.regenerate ? { secret: newSecret(), access_token: newToken() } : {}),
  })
  return detail(ctx, auth, row.id, lang)
}
