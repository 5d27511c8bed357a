import { Code, isMessageKey, type MessageKey, translate } from '@aed/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { AppError } from '../lib/errors.ts'
import { langOf } from '../lib/lang.ts'

/** Builds a success envelope with the message in the requester's language. */
export function ok<T>(req: FastifyRequest, data: T, key: MessageKey = 'OK') {
  return { code: Code.OK, msg: translate(key, langOf(req)), data }
}

function sendError(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  // Errors skip the route's response schema: it describes the success data only.
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .serializer((p: unknown) => JSON.stringify(p))
    .send({ code, msg, data })
}

/**
 * Every answer is `{code, msg, data}`: validation errors get the spec's message of the first
 * failing field, AppErrors their catalogue entry, anything unexpected a generic message and
 * a log line, never a stack trace.
 */
export const envelopePlugin = fp(async (app: FastifyInstance, opts: { spa?: boolean }) => {
  app.setErrorHandler((err, req, reply) => {
    const lang = langOf(req)
    if (err instanceof AppError) {
      return sendError(reply, 200, err.code, translate(err.key, lang, err.params), err.data)
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]
      const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.')
      const msg =
        first.message && isMessageKey(first.message)
          ? translate(first.message, lang)
          : `${translate('INVALID_INPUT', lang)}${field ? `: ${field}` : ''}`
      return sendError(reply, 200, Code.INVALID, msg)
    }
    const status = (err as { statusCode?: number }).statusCode
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
      return sendError(reply, 200, Code.INVALID, translate('INVALID_INPUT', lang))
    }
    req.log.error({ err }, 'unhandled error')
    return sendError(reply, 500, Code.INTERNAL, translate('INTERNAL', lang))
  })

  app.setNotFoundHandler((req, reply) => {
    // Console routes are the single-page app's: any GET outside /api gets its index.
    if (opts.spa && req.method === 'GET' && !req.url.startsWith('/api')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html')
    }
    return sendError(reply, 404, Code.NOT_FOUND, translate('ROUTE_NOT_FOUND', langOf(req)))
  })
})
