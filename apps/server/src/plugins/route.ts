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

/** What a handler gets: the validated input and, when it asks, the signed-in member. */
export type RouteInput<E extends Endpoint> = {
  req: FastifyRequest
  reply: FastifyReply
  params: ParamsOf<E>
  query: QueryOf<E>
  body: BodyOf<E>
  /** The signed-in member; throws the token error on a public route without one. */
  readonly auth: AuthContext
}

/** Route options beside the endpoint: guards, operation log, and the success message. */
export type RouteOptions = FastifyContextConfig & {
  /** The success message key (保存成功, 添加成功, ...), or one chosen by the answer; 'OK' by default. */
  done?: MessageKey | ((data: never) => MessageKey)
  /** Request content types other than JSON (uploads: multipart/form-data). */
  consumes?: string[]
  /** A larger request body than the app's 2 MB (device files). */
  bodyLimit?: number
}

/**
 * Registers one endpoint of a contracts table: its schemas validate the request, type the
 * handler and write the OpenAPI entry; the handler returns `data` and the envelope is added here.
 */
export function routes(app: FastifyInstance, tags: string[]) {
  return function route<E extends Endpoint>(
    e: E,
    options: RouteOptions,
    handler: (input: RouteInput<E>) => Promise<z.input<E['response']>> | z.input<E['response']>,
  ) {
    const { done = 'OK', consumes, bodyLimit, ...config } = options
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
        return ok(req, data, typeof done === 'function' ? done(data as never) : done)
      },
    })
  }
}
