import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  NEARBY_LIMIT_DEFAULT,
  NEARBY_LIMIT_MAX,
  NEARBY_RADIUS_DEFAULT,
  NEARBY_RADIUS_MAX,
  OPEN_API_ERRORS,
  OPEN_API_SERVICE_OF,
  OPEN_API_TS_WINDOW_S,
  openApi,
  percentEncode,
  WEBHOOK_EVENTS,
} from '@aed/contracts/open-api'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openApiSignature } from '../lib/open-api-signing.ts'
import { runCli } from './integrator/cli.ts'
import { formatTrace, type OpenApiRequest, showLineBreaks, signWithTrace } from './integrator/client.ts'

// docs/open-api.md cannot drift: its worked example is recomputed here from the inputs it
// prints (credentials, method, target, body, timestamp, nonce), and every value it shows (the
// canonical query, the body hash, the string to sign, the signature, the request, the client's
// --dry-run output) must be the one computed. Its Node.js and Python signing snippets are run on
// the same inputs, and its tables name every error and webhook event of the contracts.

const DOC_PATH = fileURLToPath(new URL('../../../../docs/open-api.md', import.meta.url))
const doc = fs.readFileSync(DOC_PATH, 'utf8')
const fence = (body: string) => `\`\`\`text\n${body}\n\`\`\``

/** The worked example's section: the inputs are read there only. */
const example = doc.slice(doc.indexOf('### 3.1 Worked example'), doc.indexOf('### 3.2 In code'))

function credentials() {
  const key = /^access token +(\S+)$/m.exec(example)?.[1]
  const secret = /^secret +(\S+)$/m.exec(example)?.[1]
  if (!key || !secret)
    throw new Error('docs/open-api.md: the worked example lacks its access token or secret')
  return { key, secret }
}

type Example = { request: OpenApiRequest & { body?: string }; timestamp: number; nonce: string }

function examples(): Example[] {
  const found = [
    ...example.matchAll(
      /```text\nmethod +(GET|POST)\ntarget +(\S+)\nbody +(.*)\ntimestamp +(\d+)\nnonce +(\w+)\n```/g,
    ),
  ]
  return found.map(([, method, target, body, timestamp, nonce]) => ({
    request: {
      method: method as 'GET' | 'POST',
      target,
      ...(body === '(none)' ? {} : { body }),
    },
    timestamp: Number(timestamp),
    nonce,
  }))
}

/** The words of a shell command as the shell splits them: single quotes, line continuations. */
function shellWords(command: string): string[] {
  return [...command.replace(/\\\n/g, ' ').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2])
}

describe('docs/open-api.md: the worked example', () => {
  const creds = credentials()
  const all = examples()

  it('has a GET with a query to encode and sort, and a POST with a body', () => {
    expect(all.map((e) => e.request.method)).toEqual(['GET', 'POST'])
    const get = all[0].request
    expect(get.target).toMatch(/%2B/)
    expect(signWithTrace(creds, get).canonicalQuery).not.toBe(get.target.split('?')[1])
    expect(all[1].request.body).toBeTruthy()
    // Each call its own nonce: a nonce is accepted once.
    expect(new Set(all.map((e) => e.nonce)).size).toBe(all.length)
  })

  it.each([0, 1])('shows the values computed from its inputs (example %i)', (i) => {
    const { request, timestamp, nonce } = all[i]
    const t = signWithTrace(creds, request, { timestamp, nonce })
    const signature = openApiSignature(creds.secret, t.stringToSign)
    expect(t.headers['x-aed-signature']).toBe(signature)

    if (t.canonicalQuery) expect(example).toContain(fence(t.canonicalQuery))
    expect(example).toContain(fence(t.bodySha256))
    expect(example).toContain(fence(showLineBreaks(t.stringToSign)))
    expect(example).toContain(fence(JSON.stringify(t.stringToSign)))
    expect(example).toContain(fence(signature))
    if (request.body) {
      const bytes = Buffer.byteLength(request.body)
      expect(example).toContain(`${bytes} bytes`)
    }
  })

  it('decodes, encodes and sorts the GET query as its table says', () => {
    const query = all[0].request.target.split('?')[1]
    for (const pair of query.split('&')) {
      const [k, v] = pair.split('=')
      const decoded = decodeURIComponent(v.replace(/\+/g, '%20'))
      expect(example).toContain(
        `| \`${pair}\` | \`${k}\` = \`${decoded}\` | \`${percentEncode(k)}=${percentEncode(decoded)}\` |`,
      )
    }
  })

  it('shows the request with the computed headers', () => {
    const { request, timestamp, nonce } = all[0]
    const t = signWithTrace(creds, request, { timestamp, nonce })
    const lines = [
      `${request.method} ${request.target} HTTP/1.1`,
      ...['x-aed-key', 'x-aed-timestamp', 'x-aed-nonce', 'x-aed-signature'].map(
        (h) => `${h.replace(/x-aed-(\w)/, (_, c: string) => `X-AED-${c.toUpperCase()}`)}: ${t.headers[h]}`,
      ),
    ]
    for (const line of lines) expect(example).toContain(line)
  })

  it('prints what `npm run integrator -- --dry-run` prints for it', async () => {
    const block = /```sh\n(npm run integrator -- [^`]*--dry-run[^`]*?)\n```\n\n```text\n([^`]*)\n```/.exec(
      example,
    )
    if (!block) throw new Error('docs/open-api.md: the --dry-run command and its output are missing')
    // npm run integrator -- <the tool's words>
    const words = shellWords(block[1]).slice(4)
    const err: string[] = []
    const code = await runCli(words, {}, { out: () => {}, err: (s) => err.push(s) })
    expect(code).toBe(0)
    expect(err.join('\n')).toBe(block[2])
    const { request, timestamp, nonce } = all[0]
    expect(block[2]).toBe(formatTrace(request, signWithTrace(creds, request, { timestamp, nonce })))
  })
})

describe('docs/open-api.md: its signing code', () => {
  const creds = credentials()
  const all = examples()
  const snippet = (lang: string, marker: string) => {
    const block = [...doc.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``, 'g'))].find((m) =>
      m[1].includes(marker),
    )
    if (!block) throw new Error(`docs/open-api.md: no ${lang} block with ${marker}`)
    return block[1]
  }
  const expected = (e: Example) => signWithTrace(creds, e.request, e).headers['x-aed-signature']
  afterEach(() => vi.restoreAllMocks())

  it('in Node.js signs the examples as the server checks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'open-api-doc-'))
    try {
      const file = path.join(dir, 'sign.mjs')
      fs.writeFileSync(file, snippet('js', 'export function sign('))
      const { sign } = (await import(file)) as {
        sign: (k: string, s: string, m: string, t: string, b?: string) => Record<string, string>
      }
      for (const e of all) {
        vi.spyOn(Date, 'now').mockReturnValue(e.timestamp * 1000)
        vi.spyOn(crypto, 'randomBytes').mockImplementation((() => Buffer.from(e.nonce, 'hex')) as never)
        const headers = sign(creds.key, creds.secret, e.request.method, e.request.target, e.request.body)
        expect(headers['X-AED-Signature']).toBe(expected(e))
        expect(headers['X-AED-Nonce']).toBe(e.nonce)
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  const python = spawnSync('python3', ['--version']).status === 0
  it.skipIf(!python)('in Python signs the examples as the server checks', () => {
    for (const e of all) {
      const run = [
        snippet('python', 'def sign('),
        'import json as _json',
        `time.time = lambda: ${e.timestamp}`,
        `secrets.token_hex = lambda n=16: ${JSON.stringify(e.nonce)}`,
        `args = _json.loads(${JSON.stringify(JSON.stringify([creds.key, creds.secret, e.request.method, e.request.target, e.request.body ?? '']))})`,
        'print(sign(*args[:4], args[4].encode())["X-AED-Signature"])',
      ].join('\n')
      const r = spawnSync('python3', ['-c', run], { encoding: 'utf8' })
      expect(r.stderr).toBe('')
      expect(r.stdout.trim()).toBe(expected(e))
    }
  })
})

describe('docs/open-api.md: the contract it tells', () => {
  it('has a row for every refusal, with its HTTP status', () => {
    for (const [error, { status }] of Object.entries(OPEN_API_ERRORS)) {
      expect(doc).toMatch(new RegExp(`^\\| \`${error}\` \\| ${status} \\|`, 'm'))
    }
  })

  it('has a row for every webhook event, with the service it needs', () => {
    for (const [event, service] of Object.entries(WEBHOOK_EVENTS)) {
      expect(doc).toMatch(new RegExp(`^\\| \`${event.replace(/\./g, '\\.')}\` \\| \`${service}\` \\|`, 'm'))
    }
  })

  it('has a row for every endpoint, with the service it needs', () => {
    for (const [name, e] of Object.entries(openApi)) {
      const path = e.path.replace(/:(\w+)/g, '{$1}')
      const service = OPEN_API_SERVICE_OF[name as keyof typeof openApi]
      expect(doc).toMatch(
        new RegExp(`^\\| \\[\`${path.replace(/[{}]/g, '\\$&')}\`\\]\\(#[^)]+\\) \\| \`${service}\` \\|`, 'm'),
      )
    }
  })

  it('states the limits of the contracts', () => {
    expect(doc).toContain(`whole metres, 1 to **${NEARBY_RADIUS_MAX}** | ${NEARBY_RADIUS_DEFAULT} |`)
    expect(doc).toContain(`| 1 to **${NEARBY_LIMIT_MAX}** | ${NEARBY_LIMIT_DEFAULT} |`)
    expect(doc).toContain(`more than ${OPEN_API_TS_WINDOW_S} seconds`)
  })
})
