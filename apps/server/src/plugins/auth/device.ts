import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { FastifyRequest, RequestPayload } from 'fastify'
import type { AppContext } from '../../context.ts'
import type {
  DeviceCredentialLookup,
  DeviceCredentials,
  DeviceIdentity,
} from '../../lib/device-credentials.ts'
import { rememberNonce } from './device-nonces.repository.ts'
import { type Guard, header, readBody, refuse } from './guard.ts'

export type {
  DeviceCredentialLookup,
  DeviceCredentials,
  DeviceIdentity,
} from '../../lib/device-credentials.ts'

/** Until the device registry exists there are no devices: every signed request is refused. */
export const noDevices: DeviceCredentialLookup = async () => null

declare module 'fastify' {
  interface FastifyRequest {
    device: DeviceIdentity | null
  }
}

/** The device of a request that passed the device guard. */
export function deviceOf(req: FastifyRequest): DeviceIdentity {
  if (!req.device) throw new Error('deviceOf: not a /device-api route')
  return req.device
}

/** |X-Ts − server time| beyond this is refused. */
export const DEVICE_TS_WINDOW_MS = 15 * 60_000

/** The text a device signs: method, path with query, ts, nonce and the hex SHA-256 of the raw body. */
export function deviceStringToSign(
  method: string,
  pathWithQuery: string,
  ts: string,
  nonce: string,
  body: Buffer,
) {
  const bodyHash = crypto.createHash('sha256').update(body).digest('hex')
  return `${method.toUpperCase()}\n${pathWithQuery}\n${ts}\n${nonce}\n${bodyHash}`
}

/** X-Sig: hex HMAC-SHA256 keyed with the secret's 64-character text (not the bytes it encodes). */
export function deviceSignature(
  secret: string,
  r: { method: string; path: string; ts: string; nonce: string; body: Buffer },
): string {
  return crypto
    .createHmac('sha256', secret)
    .update(deviceStringToSign(r.method, r.path, r.ts, r.nonce, r.body))
    .digest('hex')
}

/** The four headers a device sends with a request (what a device or the simulator does). */
export function signDeviceRequest(
  sn: string,
  secret: string,
  r: { method: string; path: string; body?: Buffer | string; ts?: number; nonce?: string },
): Record<string, string> {
  const ts = String(r.ts ?? Date.now())
  const nonce = r.nonce ?? crypto.randomBytes(16).toString('hex')
  const body = typeof r.body === 'string' ? Buffer.from(r.body) : (r.body ?? Buffer.alloc(0))
  return {
    'x-device-id': sn,
    'x-ts': ts,
    'x-nonce': nonce,
    'x-sig': deviceSignature(secret, { method: r.method, path: r.path, ts, nonce, body }),
  }
}

const SN = /^[A-Za-z0-9_-]{1,64}$/
const TS = /^\d{10,16}$/
const NONCE = /^[\x21-\x7e]{16,64}$/
const SIG = /^[0-9a-fA-F]{64}$/

type Pending = { creds: DeviceCredentials; ts: string; nonce: string; sig: Buffer }

/**
 * Devices on /device-api, signed per docs/device-protocol.md: X-Device-Id, X-Ts (Unix ms, at
 * most 15 minutes off), X-Nonce (16 to 64 characters, not seen in the last 30 minutes) and
 * X-Sig over method, path with query, ts, nonce and the raw body's SHA-256. The headers and
 * the device are checked before the body is read; the signature over the body just before it
 * is parsed, so nothing of an unsigned request is parsed. Any failure: HTTP 401, code -1,
 * nothing more.
 */
export function deviceGuard(ctx: AppContext): Guard {
  const pending = new WeakMap<FastifyRequest, Pending>()
  return {
    async onRequest(req, reply) {
      const sn = header(req, 'x-device-id')
      const ts = header(req, 'x-ts')
      const nonce = header(req, 'x-nonce')
      const sig = header(req, 'x-sig')
      if (
        !sn ||
        !SN.test(sn) ||
        !ts ||
        !TS.test(ts) ||
        !nonce ||
        !NONCE.test(nonce) ||
        !sig ||
        !SIG.test(sig)
      ) {
        return refuse(req, reply)
      }
      if (Math.abs(Number(ts) - ctx.clock.now().getTime()) > DEVICE_TS_WINDOW_MS) return refuse(req, reply)
      const creds = await ctx.deviceCredentials(sn)
      if (!creds || creds.sn !== sn || creds.secrets.length === 0) return refuse(req, reply)
      pending.set(req, { creds, ts, nonce, sig: Buffer.from(sig.toLowerCase(), 'hex') })
      return undefined
    },

    async preParsing(req, reply, payload) {
      const p = pending.get(req)
      pending.delete(req)
      if (!p) {
        refuse(req, reply)
        return payload
      }
      const body = await readBody(payload, req.routeOptions.bodyLimit ?? 1024 * 1024)
      if (!body) throw Object.assign(new Error('Request body is too large'), { statusCode: 413 })
      const text = deviceStringToSign(req.method, req.url, p.ts, p.nonce, body)
      const matches = p.creds.secrets.some((secret) => {
        const expected = crypto.createHmac('sha256', secret).update(text).digest()
        return expected.length === p.sig.length && crypto.timingSafeEqual(expected, p.sig)
      })
      if (!matches || !(await rememberNonce(ctx.db, p.creds.sn, p.nonce, ctx.clock.now()))) {
        refuse(req, reply)
        return payload
      }
      req.device = {
        kind: p.creds.kind,
        id: p.creds.id,
        sn: p.creds.sn,
        commandsWaiting: p.creds.commandsWaiting,
      }
      return Readable.from([body]) as RequestPayload
    },
  }
}
