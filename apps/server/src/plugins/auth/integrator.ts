import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import { Code, translate } from '@aed/contracts'
import {
  OPEN_API_ERRORS,
  OPEN_API_HEADERS,
  OPEN_API_NONCE,
  OPEN_API_TS_WINDOW_S,
  type OpenApiError,
  type OpenApiService,
  openApiStringToSign,
} from '@aed/contracts/open-api'
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { sha256Hex, splitTarget } from '../../lib/open-api-signing.ts'
import { type Guard, header, readBody } from './guard.ts'
import {
  findIntegratorKey,
  type IntegratorKeyRow,
  type IntegratorRow,
  rememberOpenApiNonce,
  takeRequest,
} from './integrator.repository.ts'

/** The organisation an /open-api request acts for, by its service configuration. */
export type IntegratorContext = IntegratorRow

declare module 'fastify' {
  interface FastifyRequest {
    integrator: IntegratorContext | null
  }
  interface FastifyContextConfig {
    /** The service an /open-api route requires of the caller's configuration; open_api when absent. */
    openApiService?: OpenApiService
  }
}

/** The integrator of a request that passed the integrator guard. */
export function integratorOf(req: FastifyRequest): IntegratorContext {
  if (!req.integrator) throw new Error('integratorOf: not an /open-api route')
  return req.integrator
}

const TOKEN = /^[A-Za-z0-9._~+/=-]{16,96}$/
const TIMESTAMP = /^\d{1,12}$/
const SIGNATURE = /^[0-9a-f]{64}$/
const SHA256 = /^[0-9a-f]{64}$/
/** The most an /open-api body may be (bodies are small JSON; uploads declare more). */
const BODY_LIMIT = 1024 * 1024

const envelopeCode = {
  400: Code.INVALID,
  401: Code.TOKEN,
  403: Code.FORBIDDEN,
  429: Code.RATE_LIMITED,
} as const

/**
 * Answers a refused call: the error's HTTP status, the envelope with its own message, and
 * `data.error` naming it (with what helps to fix it: the string the server signed, the wait).
 */
export function refuseIntegrator(
  req: FastifyRequest,
  reply: FastifyReply,
  error: OpenApiError,
  extra: { string_to_sign?: string; body_sha256?: string; retry_after?: number; service?: string } = {},
): FastifyReply {
  const { status, message } = OPEN_API_ERRORS[error]
  const { service, ...data } = extra
  if (extra.retry_after) reply.header('retry-after', String(extra.retry_after))
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .serializer((p: unknown) => JSON.stringify(p))
    .send({
      code: envelopeCode[status],
      msg: translate(message, langOf(req), { service: service ?? '', seconds: extra.retry_after ?? 0 }),
      data: { error, ...data },
    })
}

type Pending = { key: IntegratorKeyRow; timestamp: string; nonce: string; signature: Buffer }

/**
 * Integrators on /open-api, signed per docs/open-api.md: X-AED-Key (the configuration's access
 * token), X-AED-Timestamp (Unix seconds, within 5 minutes), X-AED-Nonce (16-64 letters and
 * digits, once per key) and X-AED-Signature (hex HMAC-SHA256 of the canonical string, keyed by
 * the secret's text). The headers and the key are checked before the body is read; the
 * signature over the body before it is parsed, then the route's service, the nonce and the
 * request limit. Each refusal names its reason (`data.error`) and writes nothing.
 */
export function integratorGuard(ctx: AppContext): Guard {
  const pending = new WeakMap<FastifyRequest, Pending>()
  return {
    async onRequest(req, reply) {
      const key = header(req, OPEN_API_HEADERS.key)
      if (!key) return refuseIntegrator(req, reply, 'key_missing')
      if (!TOKEN.test(key)) return refuseIntegrator(req, reply, 'key_unknown')
      const timestamp = header(req, OPEN_API_HEADERS.timestamp)
      if (!timestamp || !TIMESTAMP.test(timestamp)) return refuseIntegrator(req, reply, 'timestamp_invalid')
      const now = ctx.clock.now()
      if (Math.abs(Number(timestamp) - now.getTime() / 1000) > OPEN_API_TS_WINDOW_S) {
        return refuseIntegrator(req, reply, 'timestamp_expired')
      }
      const nonce = header(req, OPEN_API_HEADERS.nonce)
      if (!nonce || !OPEN_API_NONCE.test(nonce)) return refuseIntegrator(req, reply, 'nonce_invalid')
      const signature = header(req, OPEN_API_HEADERS.signature)
      if (!signature || !SIGNATURE.test(signature)) return refuseIntegrator(req, reply, 'signature_missing')
      const found = await findIntegratorKey(ctx.db, key, now)
      if (!found) return refuseIntegrator(req, reply, 'key_unknown')
      if (!found.enabled) return refuseIntegrator(req, reply, 'key_disabled')
      pending.set(req, { key: found, timestamp, nonce, signature: Buffer.from(signature, 'hex') })
      return undefined
    },
    async preParsing(req, reply, payload) {
      const p = pending.get(req)
      pending.delete(req)
      if (!p) {
        refuseIntegrator(req, reply, 'key_missing')
        return payload
      }
      const body = await readBody(payload, req.routeOptions.bodyLimit ?? BODY_LIMIT)
      if (!body) throw Object.assign(new Error('Request body is too large'), { statusCode: 413 })
      const bodySha256 = sha256Hex(body)
      const claimed = header(req, OPEN_API_HEADERS.contentSha256)?.toLowerCase()
      if (claimed && SHA256.test(claimed) && claimed !== bodySha256) {
        refuseIntegrator(req, reply, 'body_mismatch', { body_sha256: bodySha256 })
        return payload
      }
      const { path, query } = splitTarget(req.url)
      const stringToSign = openApiStringToSign({
        method: req.method,
        path,
        query,
        timestamp: p.timestamp,
        nonce: p.nonce,
        bodySha256,
      })
      const expected = crypto
        .createHmac('sha256', Buffer.from(p.key.secret, 'utf8'))
        .update(stringToSign)
        .digest()
      if (!crypto.timingSafeEqual(expected, p.signature)) {
        refuseIntegrator(req, reply, 'signature_mismatch', {
          string_to_sign: stringToSign,
          body_sha256: bodySha256,
        })
        return payload
      }
      const service = req.routeOptions.config.openApiService ?? 'open_api'
      if (!p.key.services.includes(service)) {
        refuseIntegrator(req, reply, 'service_denied', { service })
        return payload
      }
      const now = ctx.clock.now()
      if (!(await rememberOpenApiNonce(ctx.db, p.key.config_id, p.nonce, now))) {
        refuseIntegrator(req, reply, 'nonce_reused')
        return payload
      }
      const wait = await takeRequest(ctx.db, p.key.config_id, now, {
        rate: ctx.config.OPEN_API_RATE,
        burst: ctx.config.OPEN_API_BURST,
      })
      if (wait > 0) {
        refuseIntegrator(req, reply, 'rate_limited', { retry_after: wait })
        return payload
      }
      const { enabled: _enabled, secret: _secret, ...integrator } = p.key
      req.integrator = integrator
      return Readable.from([body]) as RequestPayload
    },
  }
}
