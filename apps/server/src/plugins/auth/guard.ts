import { Code, translate } from '@aed/contracts'
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify'
import { langOf } from '../../lib/lang.ts'

/**
 * How one kind of caller is authenticated. A guard throws (the envelope answers) or answers
 * itself and returns the reply; on success it sets its own request field (`auth`, `device`,
 * `integrator`).
 */
export type Guard = {
  /** Checks what the headers carry, before the body is read. */
  onRequest?(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>
  /** Checks what needs the raw body; answers the payload the body parser reads next. */
  preParsing?(req: FastifyRequest, reply: FastifyReply, payload: RequestPayload): Promise<RequestPayload>
}

/** One row of the table: every route whose path is `prefix` or starts with `prefix/` gets `guard`. */
export type GuardRoute = { prefix: string; caller: 'member' | 'device' | 'integrator'; guard: Guard }

/** The row for a registered route path, or null: a route outside every prefix needs no guard. */
export function guardFor(table: readonly GuardRoute[], routePath: string | undefined): GuardRoute | null {
  if (!routePath) return null
  return table.find((r) => routePath === r.prefix || routePath.startsWith(`${r.prefix}/`)) ?? null
}

/**
 * HTTP 401 with code -1 and nothing more (devices and integrators: machines that read the
 * status). Members keep the console's HTTP 200 with code -1.
 */
export function refuse(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply
    .status(401)
    .type('application/json; charset=utf-8')
    .serializer((p: unknown) => JSON.stringify(p))
    .send({ code: Code.TOKEN, msg: translate('UNAUTHORIZED', langOf(req)), data: null })
}

/** The token of `Authorization: Bearer <token>` (or the console's `JWT <token>`). */
export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization
  if (!h) return null
  const m = /^(?:JWT|Bearer)\s+(\S+)$/i.exec(h.trim())
  return m ? m[1] : null
}
