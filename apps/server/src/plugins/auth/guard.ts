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

/** A request header's single value, or null (absent or repeated). */
export function header(req: FastifyRequest, name: string): string | null {
  const v = req.headers[name]
  return typeof v === 'string' ? v : null
}

/**
 * Past the limit, a body is still read (and dropped) up to this much, so the 413 reaches the
 * caller (a device's 30 MB firmware dump sent by mistake); beyond it the connection is cut. Kept small:
 * anyone can send it before the signature is checked.
 */
const DRAIN_LIMIT = 32 * 1024 * 1024

/**
 * The whole body, or null when it is over `limit`. An over-size body is read to its end and
 * dropped (up to DRAIN_LIMIT): leaving the loop early would destroy the socket, and the caller
 * would see a connection reset instead of its HTTP 413.
 */
export async function readBody(payload: RequestPayload, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of payload) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += b.length
    if (size <= limit) chunks.push(b)
    else if (size > DRAIN_LIMIT) return null
  }
  return size > limit ? null : Buffer.concat(chunks)
}
