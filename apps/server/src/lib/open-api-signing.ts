import crypto from 'node:crypto'
import { OPEN_API_HEADERS, openApiStringToSign } from '@aed/contracts/open-api'

/** The hex SHA-256 of a body (of the empty string for none), as the canonical string ends. */
export function sha256Hex(body: Buffer | string = ''): string {
  return crypto.createHash('sha256').update(body).digest('hex')
}

/** Splits a request target into its path and its raw query (without the '?'). */
export function splitTarget(target: string): { path: string; query: string } {
  const i = target.indexOf('?')
  return i < 0 ? { path: target, query: '' } : { path: target.slice(0, i), query: target.slice(i + 1) }
}

/** X-AED-Signature: lowercase hex HMAC-SHA256 of the canonical string, keyed by the secret's UTF-8 text. */
export function openApiSignature(secret: string, stringToSign: string): string {
  return crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(stringToSign, 'utf8').digest('hex')
}

/**
 * The headers of a signed open-API call (what an integrator, the command-line client and the
 * tests send). `target` is the path with its query as sent; the body exactly as sent.
 */
export function signOpenApiRequest(
  key: string,
  secret: string,
  r: { method: string; target: string; body?: Buffer | string; timestamp?: number; nonce?: string },
): Record<string, string> {
  const timestamp = String(r.timestamp ?? Math.floor(Date.now() / 1000))
  const nonce = r.nonce ?? crypto.randomBytes(16).toString('hex')
  const { path, query } = splitTarget(r.target)
  const bodySha256 = sha256Hex(r.body ?? '')
  const stringToSign = openApiStringToSign({ method: r.method, path, query, timestamp, nonce, bodySha256 })
  return {
    [OPEN_API_HEADERS.key]: key,
    [OPEN_API_HEADERS.timestamp]: timestamp,
    [OPEN_API_HEADERS.nonce]: nonce,
    [OPEN_API_HEADERS.signature]: openApiSignature(secret, stringToSign),
    [OPEN_API_HEADERS.contentSha256]: bodySha256,
  }
}
