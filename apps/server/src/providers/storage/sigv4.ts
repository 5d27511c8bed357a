import crypto from 'node:crypto'

/** What an AWS Signature Version 4 needs to sign one request. */
export type SigV4Request = {
  method: string
  /** Host header value as sent (with a port only when not the default). */
  host: string
  /** Path, not yet encoded: every segment is encoded here as S3 expects (once, '/' kept). */
  path: string
  query?: Record<string, string>
  /** Headers to sign besides host; names any case. */
  headers: Record<string, string>
  /** Hex SHA-256 of the body (also sent as x-amz-content-sha256 for S3). */
  payloadHash: string
  accessKeyId: string
  secretAccessKey: string
  region: string
  service: string
  /** ISO basic time, '20130524T000000Z'. */
  amzDate: string
}

const sha256Hex = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')
const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data).digest()

/** RFC 3986 encoding: everything but unreserved characters, as SigV4 requires. */
export const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** The amz date of a moment: '20130524T000000Z'. */
export const amzDateOf = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')

/** Hex SHA-256 of a payload. */
export const payloadHashOf = (body: Buffer | string) => sha256Hex(body)

/** Signs a request; answers the Authorization header and the parts it was made from (for tests). */
export function signV4(r: SigV4Request) {
  const date = r.amzDate.slice(0, 8)
  const scope = `${date}/${r.region}/${r.service}/aws4_request`
  const headers = Object.entries({ ...r.headers, host: r.host })
    .map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const signedHeaders = headers.map(([k]) => k).join(';')
  const canonicalQuery = Object.entries(r.query ?? {})
    .map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`)
    .sort()
    .join('&')
  const canonicalRequest = [
    r.method,
    r.path.split('/').map(uriEncode).join('/'),
    canonicalQuery,
    headers.map(([k, v]) => `${k}:${v}\n`).join(''),
    signedHeaders,
    r.payloadHash,
  ].join('\n')
  const stringToSign = ['AWS4-HMAC-SHA256', r.amzDate, scope, sha256Hex(canonicalRequest)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${r.secretAccessKey}`, date), r.region), r.service), 'aws4_request')
  const signature = crypto.createHmac('sha256', key).update(stringToSign).digest('hex')
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${r.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    canonicalRequest,
    stringToSign,
    signature,
  }
}
