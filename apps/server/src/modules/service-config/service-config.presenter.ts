import { type Lang, permissionList } from '@aed/contracts'
import { APP_SERVICES, labelIn } from '@aed/contracts/constants'
import type { ServiceConfig, ServiceConfigListCan } from '@aed/contracts/service-config'
import type { AuthContext } from '../../plugins/auth.ts'
import type { ServiceConfigRow } from './service-config.repository.ts'

/** The page's add and modify: system super administrators, as every route of the feature requires (`systemSuper`). */
export function serviceConfigListCan(auth: AuthContext): ServiceConfigListCan {
  const systemSuper = permissionList(auth).includes('system_super')
  return { create: systemSuper, update: systemSuper }
}

/** A configuration as the list shows it; the detail opened for editing adds the credentials. */
export function presentServiceConfig(
  row: ServiceConfigRow,
  lang: Lang,
  withSecrets: boolean,
  pushSecret?: string,
): ServiceConfig {
  return {
    id: row.id,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    service: row.service,
    service_list: row.service.map((k) => (APP_SERVICES[k] ? labelIn(APP_SERVICES[k], lang) : k)),
    state: row.state as 0 | 1,
    apply_time: row.apply_time.toISOString(),
    level: row.level,
    push_url: row.push_url,
    push_disabled:
      row.push_disabled_reason && row.push_disabled_at
        ? { reason: row.push_disabled_reason, time: row.push_disabled_at.toISOString() }
        : null,
    ...(withSecrets
      ? {
          secret: row.secret,
          access_token: row.access_token,
          previous_secret_until: row.prev_until?.toISOString() ?? null,
        }
      : {}),
    ...(pushSecret ? { push_secret: pushSecret } : {}),
  }
}
