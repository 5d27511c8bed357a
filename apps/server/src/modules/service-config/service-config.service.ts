import crypto from 'node:crypto'
import type { Lang } from '@aed/contracts'
import type { ServiceConfigListQuery } from '@aed/contracts/service-config'
import type { AppContext } from '../../context.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import { hostIsPrivate } from '../../lib/net-guard.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { presentServiceConfig, serviceConfigListCan } from './service-config.presenter.ts'
import * as repo from './service-config.repository.ts'

const newSecret = () => crypto.randomBytes(24).toString('hex')
const newToken = () => crypto.randomBytes(36).toString('base64url')
/** A Standard Webhooks secret: whsec_ and 24 random bytes in base64. */
const newPushSecret = () => `whsec_${crypto.randomBytes(24).toString('base64')}`
/** The previous access token and secret keep signing this long after a regeneration. */
export const PREVIOUS_CREDENTIALS_MS = 24 * 3_600_000

/** A push URL needs a webhook service and, unless allowed, a public address. */
async function checkPushUrl(ctx: AppContext, url: string | null | undefined, service: string[]) {
  if (!url) return
  if (!service.includes('event_push') && !service.includes('device_data_push')) {
    throw invalid('PUSH_URL_NEEDS_SERVICE')
  }
  if (!ctx.config.WEBHOOK_ALLOW_PRIVATE && (await hostIsPrivate(new URL(url))))
    throw invalid('PUSH_URL_PRIVATE')
}

async function found(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return row
}

/**
 * A configuration of the caller's scope, as the webhook delivery log needs it (no credentials);
 * not found outside the scope.
 */
export async function configInScope(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await found(ctx, auth, id)
  return {
    id: row.id,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    state: row.state,
    push_url: row.push_url,
    push_disabled_reason: row.push_disabled_reason,
  }
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
  form: { agency_id: number; service: string[]; state: 0 | 1; push_url?: string | null },
  lang: Lang,
) {
  if (!(await agencyInScope(ctx, auth, form.agency_id))) throw invalid('AGENCY_NAME_REQUIRED')
  if (await repo.existsForAgency(ctx.db, form.agency_id)) throw invalid('SERVICE_CONFIG_EXISTS')
  await checkPushUrl(ctx, form.push_url, form.service)
  const pushSecret = newPushSecret()
  const id = await repo.insert(ctx.db, {
    agency_id: form.agency_id,
    service: form.service,
    state: form.state,
    secret: newSecret(),
    access_token: newToken(),
    push_url: form.push_url ?? null,
    push_secret: pushSecret,
    creator: auth.member_id,
  })
  // The webhook secret is answered once, here; later reads never show it.
  return presentServiceConfig(await found(ctx, auth, id), lang, true, pushSecret)
}

/**
 * Changes services, state or the push URL. `regenerate` issues a new access token and secret,
 * the old pair signing for 24 hours more; `regenerate_push_secret` a new webhook secret
 * (answered once); `enable_push` resumes deliveries to a push URL that was disabled.
 */
export async function update(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  form: {
    service: string[]
    state: 0 | 1
    regenerate?: boolean
    push_url?: string | null
    regenerate_push_secret?: boolean
    enable_push?: boolean
  },
  lang: Lang,
) {
  const row = await found(ctx, auth, id)
  const pushUrl = form.push_url === undefined ? row.push_url : form.push_url
  await checkPushUrl(ctx, pushUrl, form.service)
  const pushSecret = form.regenerate_push_secret || !row.push_secret ? newPushSecret() : undefined
  const now = ctx.clock.now()
  await repo.update(ctx.db, row.id, {
    service: form.service,
    state: form.state,
    push_url: pushUrl,
    ...(form.regenerate
      ? {
          secret: newSecret(),
          access_token: newToken(),
          prev_secret: row.secret,
          prev_access_token: row.access_token,
          prev_until: new Date(now.getTime() + PREVIOUS_CREDENTIALS_MS),
        }
      : {}),
    ...(pushSecret ? { push_secret: pushSecret } : {}),
    // A new address, or an administrator's say-so, resumes a disabled endpoint.
    ...(form.enable_push || pushUrl !== row.push_url
      ? { push_disabled_reason: null, push_disabled_at: null }
      : {}),
  })
  return presentServiceConfig(await found(ctx, auth, row.id), lang, true, pushSecret)
}
