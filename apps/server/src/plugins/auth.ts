import {
  type AgencyTypeValue,
  can,
  type PermissionArea,
  type PermissionLevel,
  type Permissions,
  permissionList,
  type RoleTypeValue,
} from '@aed/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AppContext } from '../context.ts'
import { forbidden, unauthenticated } from '../lib/errors.ts'
import { loadSession } from '../modules/auth/auth.repository.ts'

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
    /** No token needed (sign-in, SMS codes, health). */
    public?: boolean
    /** The area and least level the member must hold. */
    permission?: readonly [PermissionArea, PermissionLevel]
    /** Only a super administrator of the system organisation (service configuration). */
    systemSuper?: boolean
  }
}

/** The signed-in member of a request that passed authentication. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthenticated()
  return req.auth
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization
  if (!h) return null
  const m = /^(?:JWT|Bearer)\s+(\S+)$/i.exec(h.trim())
  return m ? m[1] : null
}

/**
 * Authentication is the default for every /api/v1 route: the token must be valid, its account's
 * token version current (a password change ends other sessions), the membership unexpired and
 * its agency and every agency above it enabled. A route's `config.permission` is then checked.
 */
export const authPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  app.decorateRequest('auth', null)
  app.addHook('onRequest', async (req) => {
    const config = req.routeOptions.config
    if (req.is404 || !req.url.startsWith('/api/v1/') || config.public) return
    const token = bearer(req)
    const claims = token ? ctx.tokens.read(token) : null
    if (!token || !claims) throw unauthenticated()
    const s = await loadSession(ctx.db, Number(claims.sub))
    if (!s || s.account_id !== claims.acc || s.token_version !== claims.tv) throw unauthenticated()
    if (s.agency_disabled) throw unauthenticated('AGENCY_DISABLED')
    if (s.use_expire && s.use_expire.getTime() <= Date.now()) throw unauthenticated('MEMBERSHIP_EXPIRED')
    req.auth = {
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
    if (config.permission && !can(req.auth, config.permission[0], config.permission[1])) throw forbidden()
    if (config.systemSuper && !permissionList(req.auth).includes('system_super')) throw forbidden()
  })
})
