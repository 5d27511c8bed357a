import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.ts'
import { bearer, type Guard, refuse } from './guard.ts'
import { findIntegrator, type IntegratorRow } from './integrator.repository.ts'

/** The organisation an /open-api request acts for, by its service configuration. */
export type IntegratorContext = IntegratorRow

declare module 'fastify' {
  interface FastifyRequest {
    integrator: IntegratorContext | null
  }
}

/** The integrator of a request that passed the integrator guard. */
export function integratorOf(req: FastifyRequest): IntegratorContext {
  if (!req.integrator) throw new Error('integratorOf: not an /open-api route')
  return req.integrator
}

const TOKEN = /^[A-Za-z0-9._~+/=-]{16,96}$/

/**
 * Integrators on /open-api: `Authorization: Bearer <access_token>` of an enabled service
 * configuration that includes the open_api service, of an enabled organisation. Its scope is
 * that organisation's subtree (`index_link`). Failure: HTTP 401, code -1.
 */
export function integratorGuard(ctx: AppContext): Guard {
  return {
    async onRequest(req, reply) {
      const token = bearer(req)
      if (!token || !TOKEN.test(token)) return refuse(req, reply)
      const row = await findIntegrator(ctx.db, token)
      if (!row) return refuse(req, reply)
      req.integrator = row
      return undefined
    },
  }
}
