import type { UserInfo } from '@aed/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AppContext } from '../context.ts'
import { insertLog } from './oplog.repository.ts'

/** Who acted, when a public route (sign-in) has no authenticated member yet. */
export type OplogActor = { member_id: number; agency_id: number; operator: string }

/**
 * How a route describes its change for the operation log. `input` is the route's validated
 * request (params, query, body) and `data` its handler's answer, both typed by the endpoint.
 */
export type OplogSpec<I = never, D = never> = {
  /** Operation type as the log page shows it, e.g. '新增机构'. */
  type: string
  /** Readable content of the change. */
  content: (input: I, data: D) => string
  /** For public routes (sign-in): who acted, from the request or the answer. */
  actor?: (input: I, data: D) => Promise<OplogActor | null> | OplogActor | null
}

/** One line of the operation log, made from a request that succeeded. */
export type OplogEntry = OplogActor & { operation_type: string; content: string }

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Every route that changes something declares how it is logged; `false` for none (e.g.
     * sending an SMS code). `route()` turns the declaration into the request's entry.
     */
    oplog?: OplogSpec | false
  }
  interface FastifyRequest {
    /** The entry `route()` made from this request's input and answer; written once the answer went out. */
    oplogEntry: OplogEntry | null
  }
}

/** The actor of a sign-in: the member of the session it answered. */
export function sessionActor(
  _input: unknown,
  data: Pick<UserInfo, 'id' | 'agency_id' | 'user_name'>,
): OplogActor {
  return { member_id: data.id, agency_id: data.agency_id, operator: data.user_name }
}

/**
 * The entry of a request whose handler answered: the signed-in member (or the spec's actor on a
 * public route), the type and the content. A failing description loses the line, not the answer.
 */
export async function oplogEntry<I, D>(
  req: FastifyRequest,
  spec: OplogSpec<I, D>,
  input: I,
  data: D,
): Promise<OplogEntry | null> {
  try {
    const actor: OplogActor | null = req.auth
      ? { member_id: req.auth.member_id, agency_id: req.auth.agency_id, operator: req.auth.user_name }
      : ((await spec.actor?.(input, data)) ?? null)
    if (!actor) return null
    return {
      ...actor,
      operator: actor.operator.slice(0, 50),
      operation_type: spec.type,
      content: spec.content(input, data),
    }
  } catch (err) {
    req.log.error({ err }, 'operation log entry failed')
    return null
  }
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** True when a route must declare `config.oplog`: it changes something under /api/v1. */
export function needsOplog(method: string | string[], url: string) {
  const methods = Array.isArray(method) ? method : [method]
  return url.startsWith('/api/v1/') && methods.some((m) => CHANGING.has(m))
}

/**
 * The one place that writes the operation log: `route()` makes a changing route's entry from
 * its typed input and answer, and it is written here after the answer went out (status 200,
 * code 0). A changing route without a declaration fails at start-up, so no change can go unlogged.
 */
export const oplogPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  app.decorateRequest('oplogEntry', null)

  app.addHook('onRoute', (route) => {
    if (needsOplog(route.method, route.url) && route.config?.oplog === undefined) {
      throw new Error(`${route.method} ${route.url} changes data but declares no config.oplog`)
    }
  })

  app.addHook('onSend', async (req, reply, payload) => {
    const entry = req.oplogEntry
    // A handler that answered gets code 0; an answer that then failed to serialise is not 200.
    if (!entry || reply.statusCode !== 200) return payload
    try {
      await insertLog(ctx.db, { ...entry })
    } catch (err) {
      req.log.error({ err }, 'operation log write failed')
    }
    return payload
  })
})
