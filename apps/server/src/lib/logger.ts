import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino'

/**
 * Field names whose values never reach the log, at any of the first four levels of a log
 * object: credentials, codes, and the personal data of the accounts (phones, emails, ids).
 */
export const REDACTED_KEYS = [
  'password',
  'password_again',
  'old_password',
  're_password',
  'new_password',
  'password_hash',
  'passwd',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  'client_secret',
  'app_secret',
  'jwt_secret',
  'api_key',
  'apikey',
  'sms_code',
  'code_hash',
  'phone',
  'mobile',
  'contact_phone',
  'email',
  'id_card',
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'params',
  'parameters',
] as const

const CENSOR = '[redacted]'

/** fast-redact paths for every key at depth 0-3 (`phone`, `*.phone`, `*.*.phone`, ...). */
function redactPaths(keys: readonly string[]) {
  return keys.flatMap((k) => {
    const plain = /^[A-Za-z_$][\w$]*$/.test(k)
    const own = plain ? k : `["${k}"]`
    const nested = plain ? `.${k}` : `["${k}"]`
    return [own, `*${nested}`, `*.*${nested}`, `*.*.*${nested}`]
  })
}

/** Values that are secret or personal wherever they occur in free text. */
const TEXT_PATTERNS: [RegExp, string][] = [
  // A failed query's parameter list, as Drizzle writes it into the message.
  [/(\bparams: )(?!\[redacted\])[^\n]*/g, '$1[redacted]'],
  // Password hashes (argon2, bcrypt).
  [/\$argon2(?:id|i|d)\$[^\s'"`)]+/g, '[password-hash]'],
  [/\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}/g, '[password-hash]'],
  // Session tokens (JWT) and bearer credentials.
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]'],
  [/\b(JWT|Bearer)\s+[\w.~+/=-]{16,}/gi, '$1 [token]'],
  // Emails and mainland mobile numbers.
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '[email]'],
  [/(?<!\d)1[2-9]\d{9}(?!\d)/g, '[phone]'],
]

/** Masks secrets and personal data in free text (messages, stacks, URLs). */
export function scrubText(text: string): string {
  let out = text
  for (const [re, to] of TEXT_PATTERNS) out = out.replace(re, to)
  return out
}

/** Driver error fields that can quote the row's values (e.g. `Key (phone)=(138...) already exists`). */
const DROPPED_ERROR_FIELDS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'raw'])

type SerializedError = Record<string, unknown>

/** Every `params: ...` text a query error (Drizzle's DrizzleQueryError) writes into its message. */
function paramTexts(err: unknown, seen = new Set<unknown>()): string[] {
  if (!err || typeof err !== 'object' || seen.has(err)) return []
  seen.add(err)
  const e = err as { params?: unknown; cause?: unknown }
  const own = e.params !== undefined ? [`params: ${String(e.params)}`] : []
  return [...own, ...paramTexts(e.cause, seen)]
}

/**
 * The error serializer: pino's standard one, then without query parameters or driver details
 * that quote values, and with secrets and personal data masked in message and stack.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error) && !(err && typeof err === 'object' && 'message' in err)) return err
  const std = pino.stdSerializers.err(err as Error) as unknown as SerializedError
  const params = paramTexts(err)
  const clean = (s: string) => {
    let out = s
    for (const p of params) out = out.split(p).join(`params: ${CENSOR}`)
    return scrubText(out)
  }
  const out: SerializedError = {}
  for (const [key, value] of Object.entries(std)) {
    if (DROPPED_ERROR_FIELDS.has(key)) continue
    if (typeof value === 'string') out[key] = clean(value)
    else if (value && typeof value === 'object' && 'message' in value) out[key] = serializeError(value)
    else out[key] = value
  }
  const cause = (err as { cause?: unknown }).cause
  const c = cause as { code?: unknown; constraint?: unknown; table?: unknown; column?: unknown } | undefined
  if (c && typeof c === 'object') {
    // The driver's code and constraint name say what failed without quoting the row.
    out.cause = {
      ...(c.code !== undefined ? { code: c.code } : {}),
      ...(c.constraint !== undefined ? { constraint: c.constraint } : {}),
      ...(c.table !== undefined ? { table: c.table } : {}),
      ...(c.column !== undefined ? { column: c.column } : {}),
    }
  }
  return out
}

/** The request as a log line shows it: the query's values and any phone or email in the path masked. */
export function serializeRequest(req: {
  method?: string
  url?: string
  host?: string
  ip?: string
  headers?: Record<string, unknown>
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
  }
}

/** `/a/13800000000?phone=1&x=2` → `/a/[phone]?phone=[redacted]&x=[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  const path = scrubText(q < 0 ? url : url.slice(0, q))
  if (q < 0) return path
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=')[0].slice(0, 64)
      return `${scrubText(name)}=${CENSOR}`
    })
  return `${path}?${names.join('&')}`
}

/** The options of the server's logger: redaction, safe serializers, masked messages. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths(REDACTED_KEYS), censor: CENSOR },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    hooks: {
      // Free-text messages get the same masking as errors (a phone or email written into a message).
      logMethod(args, method) {
        const masked = args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as typeof args
        return method.apply(this, masked)
      },
    },
  }
}

/** The server's logger; `destination` for tests that read what was written. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level))
}
