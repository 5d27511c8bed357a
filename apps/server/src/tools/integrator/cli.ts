import { parseArgs } from 'node:util'
import {
  asSent,
  callOpenApi,
  type FetchLike,
  formatTrace,
  type OpenApiAnswer,
  type OpenApiRequest,
  requestOf,
  showLineBreaks,
  signWithTrace,
  succeeded,
  UsageError,
} from './client.ts'
import { startReceiver } from './receiver.ts'
import { imageFiller, readUpload, uploadCommand, uploadRequest } from './upload.ts'

// `npm run integrator -- <command>`: the open API from the command line (docs/open-api.md).
// runCli is the whole tool but for the process: it takes the words, the environment and where
// to write, so the tests run it against a test server.

export const USAGE = `npm run integrator -- [options] <command>

Calls the open API signed with a service configuration's access token and secret, prints the
JSON answer; exits 0 when the envelope's code is 0, 1 otherwise.

commands:
  get '<path>?<query>'        any GET, e.g. get '/open-api/v1/aed/nearby?lat=30.27&lon=120.15'
  post <path> '<json>'        any POST with a JSON body
  nearby <lat> <lon>          ready AEDs near a point  [--radius m] [--limit n] [--coord gcj02|wgs84]
  aed <sn>                    one AED                  [--coord gcj02|wgs84]
  status                      AED statuses changed     [--since iso] [--page n] [--page-size n] [--coord …]
  events                      device events changed    [--since iso] [--page n] [--page-size n] [--coord …]
  classroom                   first-aid classroom      [--category 1|2|3] [--page n] [--page-size n]
  upload <file>               a jpg/jpeg/png for a submission (multipart, signed over its bytes)
  volunteer '<json>'          submit a public volunteer for review
                              [--image cert.jpg: uploads it first, as cert_img with has_cert 1]
  third-party-aed '<json>'    report a third-party AED for review
                              [--image site.jpg, up to twice: uploads them first, as install_imgs]

options:
  --url URL      the server (AED_URL; default http://localhost:$PORT, PORT 8080)
  --key TOKEN    the access token (AED_KEY)
  --secret S     the secret (AED_SECRET)
  --verbose      print the canonical query, body hash, string to sign and headers (to stderr)
  --dry-run      print them and send nothing (with --timestamp and --nonce: reproducible)
  --timestamp S  sign with this Unix time instead of now
  --nonce N      sign with this nonce instead of a random one
  --lang en      messages (msg) in English (AED_LANG; Chinese by default)

webhook receiver:
  --receive PORT [--secret whsec_…] [--fail-with CODE] [--retry-after S]
                 listens on PORT, verifies each delivery with the webhook secret
                 (--secret or AED_WEBHOOK_SECRET), prints one line per delivery, answers 204
                 (401 when the signature fails; CODE instead with --fail-with)`

export type Io = {
  out: (s: string) => void
  err: (s: string) => void
  fetch?: FetchLike
}

const options = {
  url: { type: 'string' },
  key: { type: 'string' },
  secret: { type: 'string' },
  verbose: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  timestamp: { type: 'string' },
  nonce: { type: 'string' },
  lang: { type: 'string' },
  receive: { type: 'string' },
  'fail-with': { type: 'string' },
  'retry-after': { type: 'string' },
  radius: { type: 'string' },
  limit: { type: 'string' },
  coord: { type: 'string' },
  since: { type: 'string' },
  page: { type: 'string' },
  'page-size': { type: 'string' },
  category: { type: 'string' },
  image: { type: 'string', multiple: true },
  help: { type: 'boolean', default: false },
} as const

/**
 * `--key -Xy…` as `--key=-Xy…`: parseArgs refuses a value that starts with a dash after a
 * separate option, and access tokens are base64url (one in 64 starts with `-`). Words after `--`
 * are left alone.
 */
export function joinOptionValues(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]
    if (w === '--') return [...out, ...argv.slice(i)]
    const name = w.startsWith('--') && !w.includes('=') ? w.slice(2) : ''
    const spec = (options as Record<string, { type: string }>)[name]
    if (spec?.type === 'string' && i + 1 < argv.length) out.push(`${w}=${argv[++i]}`)
    else out.push(w)
  }
  return out
}

const whole = (v: string, name: string, min: number, max: number) => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be ${min} to ${max}`)
  return n
}

/** Prints an answer: its JSON, or what came instead; a wait asked for; the server's string to sign. */
function report(answer: OpenApiAnswer, io: Io) {
  if (answer.json) io.out(JSON.stringify(answer.json, null, 2))
  else io.err(`HTTP ${answer.status}: ${answer.text.slice(0, 2000)}`)
  if (answer.retryAfter) io.err(`rate limited: retry after ${answer.retryAfter} s`)
  const data = answer.json?.data as { error?: string; string_to_sign?: string } | undefined
  if (data?.error === 'signature_mismatch' && data.string_to_sign !== undefined) {
    const same = data.string_to_sign === answer.trace.stringToSign
    io.err(
      same
        ? 'the server signed the same string: the secret is wrong'
        : `the server signed another string:\n${showLineBreaks(data.string_to_sign)}`,
    )
  }
}

/**
 * Runs one command line. Resolves with the exit code, or with `running` for the receiver, which
 * keeps listening (its server is in `started`).
 */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io,
  started?: (server: import('node:http').Server, port: number) => void,
): Promise<number | 'running'> {
  try {
    const { values: a, positionals } = parseArgs({
      args: joinOptionValues(argv),
      options,
      allowPositionals: true,
    })
    if (a.help) {
      io.out(USAGE)
      return 0
    }
    if (a.receive !== undefined) {
      const secret = a.secret ?? env.AED_WEBHOOK_SECRET
      if (secret && !secret.startsWith('whsec_')) {
        throw new UsageError('the receiver takes the webhook secret (whsec_…), not the API secret')
      }
      const { server, port } = await startReceiver({
        port: whole(a.receive, 'receive', 0, 65535),
        secret,
        failWith: a['fail-with'] === undefined ? undefined : whole(a['fail-with'], 'fail-with', 200, 599),
        retryAfter:
          a['retry-after'] === undefined ? undefined : whole(a['retry-after'], 'retry-after', 0, 86400),
        log: io.out,
      })
      io.err(
        `listening on :${port}${secret ? '' : ' (no webhook secret: deliveries are not verified)'}${
          a['fail-with'] ? `, answering ${a['fail-with']}` : ''
        }`,
      )
      started?.(server, port)
      return 'running'
    }

    const cwd = env.INIT_CWD ?? process.cwd()
    const request: OpenApiRequest =
      positionals[0] === 'upload' ? uploadCommand(positionals.slice(1), cwd) : requestOf(positionals, a)
    const images = a.image ?? []
    const fill = images.length > 0 ? imageFiller(positionals[0], request.body, images) : null
    const key = a.key ?? env.AED_KEY
    const secret = a.secret ?? env.AED_SECRET
    if (!key || !secret)
      throw new UsageError('the access token and secret are needed: --key/--secret or AED_KEY/AED_SECRET')
    const url = a.url ?? env.AED_URL ?? `http://localhost:${env.PORT || 8080}`
    const at = {
      timestamp: a.timestamp === undefined ? undefined : whole(a.timestamp, 'timestamp', 0, 1e12),
      nonce: a.nonce,
    }
    const uploads = images.map((f) => ({ file: f, request: uploadRequest(readUpload(f, cwd)) }))
    if (a['dry-run']) {
      // The submission is shown with placeholders: the uploads' answers fill them, and so change its signature.
      const shown = fill ? { ...request, body: fill(images.map((f) => `<access_url of ${f}>`)) } : request
      const traces = [...uploads.map((u) => u.request), shown].map((r) => {
        const sent = { ...r, target: asSent(r.target, url) }
        return formatTrace(sent, signWithTrace({ key, secret }, sent, at))
      })
      if (fill)
        traces.push('(the submission is signed with "<access_url of FILE>" where each upload\'s answer goes)')
      io.err(traces.join('\n\n'))
      return 0
    }
    if (a.nonce !== undefined && uploads.length > 0)
      throw new UsageError('--nonce signs one call; --image makes one more for each image')
    const send = async (r: OpenApiRequest) => {
      const answer = await callOpenApi({ url, key, secret }, r, {
        ...at,
        lang: a.lang ?? env.AED_LANG,
        fetch: io.fetch,
      })
      if (a.verbose) io.err(`${formatTrace(answer.request, answer.trace)}\n< HTTP ${answer.status}`)
      return answer
    }
    const urls: string[] = []
    for (const u of uploads) {
      const answer = await send(u.request)
      const accessUrl = (answer.json?.data as { access_url?: unknown } | null | undefined)?.access_url
      if (!succeeded(answer) || typeof accessUrl !== 'string') {
        report(answer, io)
        io.err(`${u.file} was not uploaded: nothing submitted`)
        return 1
      }
      io.err(`uploaded ${u.file}: ${accessUrl}`)
      urls.push(accessUrl)
    }
    const answer = await send(fill ? { ...request, body: fill(urls) } : request)
    report(answer, io)
    return succeeded(answer) ? 0 : 1
  } catch (e) {
    if (
      e instanceof UsageError ||
      (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      io.err(`${e.message}\n\n${USAGE}`)
      return 2
    }
    io.err(
      e instanceof Error
        ? `${e.message}${e.cause ? ` (${String((e.cause as Error).message ?? e.cause)})` : ''}`
        : String(e),
    )
    return 1
  }
}
