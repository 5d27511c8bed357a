import type { UserInfo } from '@aed/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AppContext } from '../context.ts'
import { insertLog } from './oplog.repository.ts'

/** Who acted, when a public route (sign-in) has no authenticated member yet. */
export type OplogActor = { member_id: number; agency_id: number; operator: string }

/** How a route describes its change for the operation log. */
export type OplogSpec = {
  /** Operation type as the log page shows it, e.g. '新增机构'. */
  type: string
  /** Readable content; gets the request and the success answer's data. */
  content: (req: FastifyRequest, data: unknown) => string
  /** For public routes (sign-in): who acted, from the request or the answer. */
  actor?: (req: FastifyRequest, data: unknown) => Promise<OplogActor | null> | OplogActor | null
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route that changes something declares how it is logged; `false` for none (e.g. sending an SMS code). */
    oplog?: OplogSpec | false
  }
}

/** The actor of a sign-in: the member of the session it answered. */
export function sessionActor(_req: FastifyRequest, data: unknown): OplogActor {
  const u = data as UserInfo
  return { member_id: u.id, agency_id: u.agency_id, operator: u.user_name }
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** True when a route must declare `config.oplog`: it changes something under /api/v1. */
export function needsOplog(method: string | string[], url: string) {
  const methods = Array.isArray(method) ? method : [method]
  return url.startsWith('/api/v1/') && methods.some((m) => CHANGING.has(m))
}

/**
 * The one place that writes the operation log: after a changing route answered code 0, its
 * `config.oplog` turns the request into operator, type and readable content. A changing
 * route without a declaration fails at start-up, so no change can go unlogged.
 */
export const oplogPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  app.addHook('onRoute', (route) => {
    if (needsOplog(route.method, route.url) && route.config?.oplog === undefined) {
      throw new Error(`${route.method} ${route.url} changes data but declares no config.oplog`)
    }
  })

  app.addHook('onSend', async (req, reply, payload) => {
    const spec = req.routeOptions.config.oplog
    if (!spec || reply.statusCode !== 200 || typeof payload !== 'string') return payload
    let body: { code?: number; data?: unknown }
    try {
      body = JSON.parse(payload)
    } catch {
      return payload
    }
    if (body.code !== 0) return payload
    const actor: OplogActor | null = req.auth
      ? { member_id: req.auth.member_id, agency_id: req.auth.agency_id, operator: req.auth.user_name }
      : ((await spec.actor?.(req, body.data)) ?? null)
    if (!actor) return payload
    try {
      await insertLog(ctx.db, {
        agency_id: actor.agency_id,
        member_id: actor.member_id,
        operator: actor.operator.slice(0, 50),
        operation_type: spec.type,
        content: spec.content(req, body.data),
      })
    } catch (err) {
      req.log.error({ err }, 'operation log write failed')
    }
    return payload
  })
})
