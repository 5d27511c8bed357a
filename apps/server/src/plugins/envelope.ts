import http from 'node:http'
import type { Duplex } from 'node:stream'
import { Code, isMessageKey, type Lang, type MessageKey, translate } from '@aed/contracts'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { isDatabaseUnreachable } from '../db/sql.ts'
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

/** Where a NUL character sits in a request (`query.name`, `body.items.0.title`), or null when nowhere. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (value === null || typeof value !== 'object' || depth > 32) return null
  // File parts of a multipart upload carry their bytes; only their names are text.
  if (value instanceof Uint8Array) return null
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`
    if (key.includes('\u0000')) return at
    const found = findNul(v, at, depth + 1)
    if (found) return found
  }
  return null
}

/** A field path fit to show in a message: no control characters, at most 60 characters. */
function showPath(path: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = path.replace(/[\u0000-\u001f\u007f]/g, '')
  return clean.length > 60 ? `${clean.slice(0, 57)}...` : clean
}

/**
 * Node's own answer to requests its HTTP parser refuses (a URL or headers over the size limit, a
 * malformed request line, a timeout), written in the envelope instead of Fastify's bare JSON.
 * The request was never parsed, so the language comes from whatever raw bytes Node kept.
 */
export function clientErrorHandler(
  this: unknown,
  err: Error & { code?: string; rawPacket?: unknown },
  socket: Duplex,
) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, key]: [number, MessageKey] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'REQUEST_TOO_LARGE']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT']
        : [400, 'INVALID_INPUT']
  const lang: Lang =
    Buffer.isBuffer(err.rawPacket) && /\r\naccept-language:[ \t]*en\b/i.test(err.rawPacket.toString('latin1'))
      ? 'en-US'
      : 'zh-CN'
  const body = JSON.stringify({ code: Code.INVALID, msg: translate(key, lang), data: null })
  // A response already under way on this connection cannot take another status line.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy(err)
}

/**
 * Errors Fastify's router answers before any plugin runs (a path parameter over the length
 * limit, a malformed %-escape in the URL): bad input, answered like every other.
 */
export function frameworkErrors(_err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, 200, Code.INVALID, translate('INVALID_INPUT', langOf(req)))
}

type EnvelopeOptions = { spa?: boolean; rescuePage?: boolean }

/** The built page a GET answers when no route does: null for the APIs, which answer their 404. */
function pageFor(url: string, opts: EnvelopeOptions): string | null {
  if (!opts.spa || url.startsWith('/api') || url.startsWith('/responder-api/')) return null
  // The responder's alert links get their own light page, no console code.
  return opts.rescuePage && /^\/rescue(\/|\?|$)/.test(url) ? 'rescue.html' : 'index.html'
}

/**
 * Every answer is `{code, msg, data}`: validation errors get the spec's message of the first
 * failing field, AppErrors their catalogue entry, anything unexpected a generic message and
 * a log line, never a stack trace. Options: `spa`, the console is built (its index.html answers
 * the routes it owns); `rescuePage`, so is the responder's alert page (rescue.html answers
 * /rescue/{token}).
 */
export const envelopePlugin = fp(async (app: FastifyInstance, opts: EnvelopeOptions) => {
  // PostgreSQL cannot store a NUL character in text: refuse it in any route's input, before validation.
  app.addHook('preValidation', async (req) => {
    const at = findNul(req.params, 'params') ?? findNul(req.query, 'query') ?? findNul(req.body, 'body')
    if (at) throw new AppError(Code.INVALID, 'NUL_CHARACTER', { field: showPath(at) })
  })

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
    if (status === 413 && req.url.startsWith('/device-api/')) {
      // Devices are told the limit, with the status a device's HTTP stack understands.
      const max = req.routeOptions.bodyLimit ?? 0
      return sendError(reply, 413, Code.INVALID, translate('DEVICE_BODY_TOO_LARGE', lang, { max }))
    }
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
      return sendError(reply, 200, Code.INVALID, translate('INVALID_INPUT', lang))
    }
    if (isDatabaseUnreachable(err)) {
      // Not the request's fault, and sent again it may well succeed: here after a restart, or on
      // another instance (nginx sends a GET, or a device's POST, to the other one on a 503).
      req.log.warn({ err: { message: (err as Error).message } }, 'database unreachable')
      return sendError(reply, 503, Code.INTERNAL, translate('DB_UNAVAILABLE', lang))
    }
    req.log.error({ err }, 'unhandled error')
    return sendError(reply, 500, Code.INTERNAL, translate('INTERNAL', lang))
  })

  app.setNotFoundHandler((req, reply) => {
    // Console routes are the single-page app's: any GET outside the APIs gets its index.
    const page = req.method === 'GET' ? pageFor(req.url, opts) : null
    if (page) return reply.type('text/html; charset=utf-8').sendFile(page)
    return sendError(reply, 404, Code.NOT_FOUND, translate('ROUTE_NOT_FOUND', langOf(req)))
  })
})
