import {
  AgencyType,
  type AgencyTypeValue,
  can,
  type PermissionArea,
  type PermissionLevel,
  type Permissions,
  permissionList,
  type RoleTypeValue,
} from '@aed/contracts'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.ts'
import { forbidden, unauthenticated } from '../../lib/errors.ts'
import { bearer, type Guard } from './guard.ts'
import { loadSession } from './session.repository.ts'

/** The signed-in member a request acts as. */
export type AuthContext = {
  member_id: number
  account_id: number
  phone: string
  user_name: string
  agency_id: number
  agency_name: string
  agency_type: AgencyTypeValue
  /** The member's agency path: its scope is every agency whose index_link starts with it. */
  index_link: string
  role_type: RoleTypeValue
  permissions: Permissions
  token: string
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null
  }
  interface FastifyContextConfig {
    /** No authentication at all (sign-in, SMS codes, health; the MQTT broker's hooks). */
    public?: boolean
    /** The area and least level the member must hold. */
    permission?: readonly [PermissionArea, PermissionLevel]
    /** Enough when the member holds any one of these (a call two pages share: the account lookup). */
    anyPermission?: readonly (readonly [PermissionArea, PermissionLevel])[]
    /** Only a super administrator of the system organisation (service configuration). */
    systemSuper?: boolean
    /** Only members of the system organisation (公众审核); `permission` still sets the level. */
    systemOrg?: boolean
  }
}

/** The signed-in member of a request that passed authentication. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthenticated()
  return req.auth
}

/**
 * Members on /api/v1: the token must be valid, its account's token version current (a password
 * change ends other sessions), the membership unexpired and its agency and every agency above
 * it enabled. A route's `config.permission` is then checked. Failures answer code -1 (HTTP 200,
 * as the console expects) or -2.
 */
export function memberGuard(ctx: AppContext): Guard {
  return {
    async onRequest(req) {
      const config = req.routeOptions.config
      req.auth = await authenticateMember(ctx, bearer(req))
      if (config.permission && !can(req.auth, config.permission[0], config.permission[1])) throw forbidden()
      const auth = req.auth
      if (config.anyPermission && !config.anyPermission.some(([area, level]) => can(auth, area, level))) {
        throw forbidden()
      }
      if (config.systemSuper && !permissionList(req.auth).includes('system_super')) throw forbidden()
      if (config.systemOrg && req.auth.agency_type !== AgencyType.SYSTEM) throw forbidden()
      return undefined
    },
  }
}

/**
 * The member a token signs in, by the rules above (valid, current token version, membership
 * unexpired, agency and those above it enabled); throws the session error otherwise. The live
 * channel checks its first message's token with it too.
 */
export async function authenticateMember(
  ctx: AppContext,
  token: string | null | undefined,
): Promise<AuthContext> {
  const claims = token ? ctx.tokens.read(token) : null
  if (!token || !claims) throw unauthenticated()
  const s = await loadSession(ctx.db, Number(claims.sub))
  if (!s || s.account_id !== claims.acc || s.token_version !== claims.tv) throw unauthenticated()
  if (s.agency_disabled) throw unauthenticated('AGENCY_DISABLED')
  if (s.use_expire && s.use_expire.getTime() <= ctx.clock.now().getTime())
    throw unauthenticated('MEMBERSHIP_EXPIRED')
  return {
    member_id: s.member_id,
    account_id: s.account_id,
    phone: s.phone,
    user_name: s.user_name,
    agency_id: s.agency_id,
    agency_name: s.agency_name,
    agency_type: s.agency_type,
    index_link: s.index_link,
    role_type: s.role_type,
    permissions: s.permissions,
    token,
  }
}
