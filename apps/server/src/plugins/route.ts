import {
  type BodyOf,
  type Endpoint,
  envelope,
  type MessageKey,
  type ParamsOf,
  type QueryOf,
} from '@aed/contracts'
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { type AuthContext, authOf } from './auth.ts'
import { ok } from './envelope.ts'
import { type OplogSpec, oplogEntry } from './oplog.ts'

/** An endpoint's validated request: what its handler, its log line and its success message read. */
export type RouteRequest<E extends Endpoint> = {
  params: ParamsOf<E>
  query: QueryOf<E>
  body: BodyOf<E>
}

/** What a handler gets: the validated input and, when it asks, the signed-in member. */
export type RouteInput<E extends Endpoint> = RouteRequest<E> & {
  req: FastifyRequest
  reply: FastifyReply
  /** The signed-in member; throws the token error on a public route without one. */
  readonly auth: AuthContext
}

/** What a handler answers: `data` of the endpoint's success envelope. */
export type AnswerOf<E extends Endpoint> = z.input<E['response']>

/**
 * Route options beside the endpoint: guards, operation log, and the success message. `D` is the
 * handler's answer: the endpoint's, or more when the log line needs more than the wire gets (the
 * response schema sends only the endpoint's fields).
 */
export type RouteOptions<E extends Endpoint, D> = Omit<FastifyContextConfig, 'oplog'> & {
  /** How a changing route is logged, from its request and answer; `false` for not at all. */
  oplog?: OplogSpec<RouteRequest<E>, D> | false
  /** The success message key (保存成功, 添加成功, ...), or one chosen by the answer and request; 'OK' by default. */
  done?: MessageKey | ((data: D, input: RouteRequest<E>) => MessageKey)
  /** Request content types other than JSON (uploads: multipart/form-data). */
  consumes?: string[]
  /** A larger request body than the app's 2 MB (device files). */
  bodyLimit?: number
}

/**
 * Registers one endpoint of a contracts table: its schemas validate the request, type the
 * handler and write the OpenAPI entry; the handler returns `data` and the envelope is added here,
 * with the request's operation-log entry.
 */
export function routes(app: FastifyInstance, tags: string[]) {
  return function route<E extends Endpoint, D extends AnswerOf<E> = AnswerOf<E>>(
    e: E,
    options: RouteOptions<E, D>,
    handler: (input: RouteInput<E>) => Promise<D> | D,
  ) {
    const { done = 'OK', consumes, bodyLimit, ...config } = options
    const { oplog } = config
    app.route({
      method: e.method,
      url: e.path,
      config,
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: {
        tags,
        summary: e.summary,
        ...(consumes ? { consumes } : {}),
        ...(e.params ? { params: e.params } : {}),
        ...(e.query ? { querystring: e.query } : {}),
        ...(e.body ? { body: e.body } : {}),
        response: { 200: envelope(e.response) },
      },
      handler: async (req, reply) => {
        const input = {
          req,
          reply,
          params: req.params as ParamsOf<E>,
          query: req.query as QueryOf<E>,
          body: req.body as BodyOf<E>,
          get auth() {
            return authOf(req)
          },
        }
        const data = await handler(input)
        if (oplog) req.oplogEntry = await oplogEntry(req, oplog, input, data)
        return ok(req, data, typeof done === 'function' ? done(data, input) : done)
      },
    })
  }
}
