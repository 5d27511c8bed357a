import crypto from 'node:crypto'
import { canonicalQuery, openApi, openApiStringToSign, percentEncode } from '@aed/contracts/open-api'
import { sha256Hex, signOpenApiRequest, splitTarget } from '../../lib/open-api-signing.ts'

// The open API as an integrator calls it (docs/open-api.md): a request signed with the service
// configuration's access token and secret, its answer, and what was signed (for --verbose and
// the doc's worked example). The signature itself is signOpenApiRequest's, the one the tests and
// the server's own checks are built on.

/** Enough of `fetch` to send a request: the global one, or a test's stand-in. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>

export type Credentials = { url: string; key: string; secret: string }

/**
 * A request before it is signed: the path with its query as it will be sent, and the body: JSON
 * text, or the bytes of a multipart upload with their content type (boundary included).
 */
export type OpenApiRequest = {
  method: 'GET' | 'POST'
  target: string
  body?: string | Uint8Array
  contentType?: string
}

/** The bytes that are hashed and sent: a string as UTF-8, bytes as they are. */
const bytesOf = (body: string | Uint8Array = '') =>
  typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)

/** Every step of a signature, as the doc's worked example and --verbose show them. */
export type SigningTrace = {
  path: string
  query: string
  canonicalQuery: string
  bodySha256: string
  stringToSign: string
  headers: Record<string, string>
}

/**
 * Signs a request and says how: the headers come from signOpenApiRequest; the intermediate
 * strings are recomputed from the same inputs with the contracts' canonical form.
 */
export function signWithTrace(
  creds: Pick<Credentials, 'key' | 'secret'>,
  r: OpenApiRequest,
  at: { timestamp?: number; nonce?: string } = {},
): SigningTrace {
  const timestamp = at.timestamp ?? Math.floor(Date.now() / 1000)
  const nonce = at.nonce ?? crypto.randomBytes(16).toString('hex')
  const body = bytesOf(r.body)
  const signed = signOpenApiRequest(creds.key, creds.secret, { ...r, body, timestamp, nonce })
  const { path, query } = splitTarget(r.target)
  const bodySha256 = sha256Hex(body)
  const stringToSign = openApiStringToSign({
    method: r.method,
    path,
    query,
    timestamp: String(timestamp),
    nonce,
    bodySha256,
  })
  const headers: Record<string, string> = { ...signed }
  if (r.body !== undefined) headers['content-type'] = r.contentType ?? 'application/json'
  return { path, query, canonicalQuery: canonicalQuery(query), bodySha256, stringToSign, headers }
}

/** The canonical string with each line break shown as `\n`, one line per part. */
export function showLineBreaks(s: string): string {
  return s
    .split('\n')
    .map((line, i, all) => (i < all.length - 1 ? `${line}\\n` : line))
    .join('\n')
}

/** What --verbose prints before the answer: the request, every intermediate string, the headers. */
export function formatTrace(r: OpenApiRequest, t: SigningTrace): string {
  const header = (name: string) =>
    name.startsWith('x-aed-')
      ? `X-AED-${name
          .slice(6)
          .split('-')
          .map((w) => (w === 'sha256' ? 'SHA256' : w[0].toUpperCase() + w.slice(1)))
          .join('-')}`
      : name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase())
  return [
    `> ${r.method} ${r.target}`,
    `canonical query: ${t.canonicalQuery || '(empty)'}`,
    ...(typeof r.body === 'object' ? [`body:            ${r.body.byteLength} bytes, hashed as sent`] : []),
    `body SHA-256:    ${t.bodySha256}`,
    'string to sign:',
    ...showLineBreaks(t.stringToSign)
      .split('\n')
      .map((l) => `  ${l}`),
    'headers:',
    ...Object.entries(t.headers).map(([k, v]) => `  ${header(k)}: ${v}`),
  ].join('\n')
}

export type OpenApiAnswer = {
  status: number
  /** The envelope, or null when the answer was not JSON. */
  json: { code: number; msg: string; data?: unknown } | null
  text: string
  retryAfter: string | null
  /** The request as it went out (asSent). */
  request: OpenApiRequest
  trace: SigningTrace
}

/**
 * A target as it goes out once made a URL: what is signed must be what is sent, and a URL
 * encodes what was typed raw (spaces, Chinese), resolves dot segments and drops a fragment.
 */
export function asSent(target: string, base = 'http://localhost'): string {
  const u = new URL(target, base)
  return `${u.pathname}${u.search}`
}

/** Sends one signed request and reads its answer. */
export async function callOpenApi(
  creds: Credentials,
  request: OpenApiRequest,
  o: { fetch?: FetchLike; timestamp?: number; nonce?: string; lang?: string } = {},
): Promise<OpenApiAnswer> {
  const r = { ...request, target: asSent(request.target, creds.url) }
  const trace = signWithTrace(creds, r, o)
  const send = o.fetch ?? (fetch as unknown as FetchLike)
  const res = await send(new URL(r.target, creds.url).toString(), {
    method: r.method,
    // Accept-Language is not signed: it only chooses the language of msg.
    headers: o.lang ? { ...trace.headers, 'accept-language': o.lang } : trace.headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
  })
  const text = await res.text()
  let json: OpenApiAnswer['json'] = null
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'number') {
      json = parsed as OpenApiAnswer['json']
    }
  } catch {}
  return { status: res.status, json, text, retryAfter: res.headers.get('retry-after'), request: r, trace }
}

/** A call succeeded: HTTP 2xx and envelope code 0. */
export const succeeded = (a: Pick<OpenApiAnswer, 'status' | 'json'>) =>
  a.status >= 200 && a.status < 300 && a.json?.code === 0

/** A target from a path and query parameters (undefined ones left out), RFC 3986 encoded. */
export function targetOf(path: string, query: Record<string, string | undefined> = {}): string {
  const pairs = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)
  if (pairs.length === 0) return path
  return `${path}?${pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}`
}

/** The options the named commands read (strings as typed; the server checks them). */
export type CommandOptions = {
  radius?: string
  limit?: string
  coord?: string
  since?: string
  page?: string
  'page-size'?: string
  category?: string
}

/** A body as typed, once it is known to be JSON. */
function jsonOf(command: string, text: string): string {
  try {
    JSON.parse(text)
  } catch {
    throw new UsageError(`${command}: the body is not JSON: ${text}`)
  }
  return text
}

/**
 * The request of a command line's words: `get <target>`, `post <path> <json>`,
 * `nearby <lat> <lon>`, `aed <sn>`, `status`, `events`, `classroom`, `volunteer <json>`,
 * `third-party-aed <json>` (`upload <file>` reads a file: see upload.ts). Throws a usage message.
 */
export function requestOf(words: string[], o: CommandOptions = {}): OpenApiRequest {
  const [command, ...rest] = words
  const need = (n: number, usage: string) => {
    if (rest.length !== n) throw new UsageError(`usage: ${usage}`)
  }
  const paging = { page: o.page, page_size: o['page-size'] }
  switch (command) {
    case 'get':
      need(1, "get '<path>?<query>'")
      return { method: 'GET', target: rest[0] }
    case 'post':
      need(2, "post <path> '<json>'")
      return { method: 'POST', target: rest[0], body: jsonOf(command, rest[1]) }
    case 'volunteer':
    case 'third-party-aed':
      need(1, `${command} '<json>' [--image <file>]`)
      return {
        method: 'POST',
        target: (command === 'volunteer' ? openApi.volunteer : openApi.thirdPartyAed).path,
        body: jsonOf(command, rest[0]),
      }
    case 'nearby':
      need(2, 'nearby <lat> <lon> [--radius m] [--limit n] [--coord gcj02|wgs84]')
      return {
        method: 'GET',
        target: targetOf(openApi.nearby.path, {
          lat: rest[0],
          lon: rest[1],
          radius: o.radius,
          limit: o.limit,
          coord: o.coord,
        }),
      }
    case 'aed':
      need(1, 'aed <sn> [--coord gcj02|wgs84]')
      return {
        method: 'GET',
        target: targetOf(openApi.aed.path.replace(':sn', percentEncode(rest[0])), { coord: o.coord }),
      }
    case 'status':
    case 'events':
      need(0, `${command} [--since iso] [--page n] [--page-size n] [--coord gcj02|wgs84]`)
      return {
        method: 'GET',
        target: targetOf((command === 'status' ? openApi.status : openApi.events).path, {
          changed_since: o.since,
          ...paging,
          coord: o.coord,
        }),
      }
    case 'classroom':
      need(0, 'classroom [--category 1|2|3] [--page n] [--page-size n]')
      return { method: 'GET', target: targetOf(openApi.classroom.path, { category: o.category, ...paging }) }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'no command')
  }
}

export class UsageError extends Error {}
