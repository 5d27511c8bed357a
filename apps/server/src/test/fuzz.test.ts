/**
 * Fuzzes every route of the OpenAPI document with bad input: wrong types, huge and odd strings
 * (NUL, emoji, right-to-left, SQL-ish, 10,000 characters), bad ids and bad paging, signed in as
 * the system super administrator (so permission checks do not refuse everything first) and
 * anonymously. Every answer must be a `{code, msg, data}` envelope below HTTP 500, and no table
 * may change: every input here is wrong in some way, so a write means the server took garbage.
 * The generator is seeded: a failure names the request, and a rerun repeats it.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many, one } from '../db/sql.ts'
import { type Rng, seededRng } from '../lib/random.ts'
import { createTestApp, demo, type TestApp } from './harness.ts'

const LONG = 'x'.repeat(10_000)

/** Strings that break careless code. None is a valid phone, password, date, id or file suffix. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(50),
  '🚑🧯💥'.repeat(5),
  '👨‍👩‍👧‍👦',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  "' OR '1'='1",
  "1'; DROP TABLE accounts; --",
  '"; SELECT pg_sleep(0); --',
  '%',
  '_',
  '\\',
  '%_\\%',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, on purpose
  '${7*7}{{7*7}}',
  '\r\n\t',
  '\ud800',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e30',
  'abc',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  LONG,
  `${LONG}\u0000`,
  '１２３',
  '٣',
  '13800000000x',
  '2026-02-30',
  '24:61',
]

/** Numbers at and past every edge. */
const ODD_NUMBERS = [-1, 0, 1e30, -1e30, 1.5, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2, 1e-300]

/** Values of every JSON type. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [1, 'a', null],
  { a: { b: { c: [{}] } } },
  { __proto__: { admin: true } },
  Array.from({ length: 500 }, (_, i) => i),
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
]

/** Path ids that name no row: negative, zero, huge, not a number, not an integer. */
const BAD_IDS = [
  '-1',
  '0',
  '1e30',
  'abc',
  '1.5',
  '99999999999999999999',
  '0x10',
  '1%20OR%201=1',
  '%00',
  '%F0%9F%9A%91',
  'null',
  encodeURIComponent(LONG.slice(0, 2000)),
  '%E0%A4%A',
  '%',
  '%ED%A0%80',
]

/** Paging and sorting that are wrong. */
const BAD_PAGING: Record<string, string[]> = {
  page: ['-1', '0', '1e30', 'abc', '1.5', '99999999999', '', '\u0000'],
  page_size: ['0', '-5', '100000', '1e30', 'abc', '1.5', ''],
  order_by: [
    '-',
    '--id',
    'id;drop',
    '"name"',
    'nonexistent_field',
    '-create_time,id',
    'ID',
    LONG.slice(0, 300),
    '\u0000',
  ],
}

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  enum?: unknown[]
  $ref?: string
}
type Operation = {
  parameters?: { in: 'query' | 'path' | 'header'; name: string; required?: boolean; schema?: Schema }[]
  requestBody?: { content: Record<string, { schema: Schema }> }
}

/** The type a schema declares (first branch of a union). */
function typeOf(s: Schema | undefined): string {
  if (!s) return 'any'
  if (typeof s.type === 'string') return s.type
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? 'any'
  const branch = s.anyOf?.[0] ?? s.oneOf?.[0]
  if (branch) return typeOf(branch)
  if (s.enum) return typeof s.enum[0]
  return 'any'
}

/** A value of another JSON type than the schema asks for. */
function wrongType(rng: Rng, s: Schema | undefined): unknown {
  const t = typeOf(s)
  const pool: unknown[] =
    t === 'string'
      ? [...ODD_NUMBERS, true, null, [], {}, ['a'], { a: 'b' }]
      : t === 'number' || t === 'integer'
        ? ['abc', '1e30', '', '\u0000', true, null, [], {}, [1], LONG]
        : t === 'boolean'
          ? ['true', 'false', 0, 1, 'yes', null, [], {}, '\u0000']
          : t === 'array'
            ? ['a,b', 1, true, null, {}, { 0: 'a', length: 1 }, '\u0000']
            : t === 'object'
              ? ['{}', 1, true, null, [], [{}], '\u0000']
              : ODD_VALUES
  return rng.pick(pool)
}

/** An odd value of the schema's own type (odd strings, edge numbers, odd arrays and objects). */
function oddOfType(rng: Rng, s: Schema | undefined, depth = 0): unknown {
  const t = typeOf(s)
  if (t === 'string') return rng.pick(ODD_STRINGS)
  if (t === 'number' || t === 'integer') return rng.pick(ODD_NUMBERS)
  if (t === 'boolean') return rng.pick(['true', 0, null] as unknown[])
  if (t === 'array') {
    if (rng.chance(0.3)) return []
    const n = rng.pick([1, 2, 3, 200])
    return Array.from({ length: n }, () => (depth < 3 ? oddOfType(rng, s?.items, depth + 1) : null))
  }
  if (t === 'object' && s?.properties && depth < 3) return oddBody(rng, s, depth + 1)
  return rng.pick(ODD_VALUES)
}

/**
 * A body for an object schema in one of several styles: every field of a wrong type, every
 * field odd of its own type, one field at a time wrong, non-object bodies, or unknown fields.
 */
function oddBody(rng: Rng, s: Schema, depth = 0): unknown {
  const props = Object.entries(s.properties ?? {})
  const style = rng.pick(['wrong', 'odd', 'mixed', 'mixed', 'extra', 'shape'] as const)
  if (style === 'shape' && depth === 0) return rng.pick(ODD_VALUES)
  const body: Record<string, unknown> = {}
  for (const [name, p] of props) {
    if (style === 'wrong') body[name] = wrongType(rng, p)
    else if (style === 'odd') body[name] = oddOfType(rng, p, depth)
    else if (style === 'mixed') body[name] = rng.chance(0.5) ? wrongType(rng, p) : oddOfType(rng, p, depth)
    else if (rng.chance(0.3)) body[name] = oddOfType(rng, p, depth)
  }
  if (style === 'extra' || rng.chance(0.2)) {
    body[rng.pick(['__proto__', 'constructor', 'id', 'agency_id', 'role_type', 'is_admin', 'a\u0000'])] =
      rng.pick([...ODD_STRINGS.slice(0, 10), ...ODD_VALUES])
  }
  return body
}

function resolveRefs(doc: { components?: { schemas?: Record<string, Schema> } }, s: Schema): Schema {
  if (s.$ref) {
    const name = s.$ref.split('/').pop()!
    return resolveRefs(doc, doc.components?.schemas?.[name] ?? {})
  }
  return s
}

type Req = {
  method: string
  url: string
  query?: Record<string, string | string[]>
  payload?: string | Buffer
  headers: Record<string, string>
  label: string
}

/** The requests for one operation: bad path ids, bad query and paging, odd bodies, odd content. */
function requestsFor(
  rng: Rng,
  doc: object,
  path: string,
  method: string,
  op: Operation,
  perOp: number,
): Req[] {
  const params = op.parameters ?? []
  const queryParams = params.filter((p) => p.in === 'query')
  const pathParams = params.filter((p) => p.in === 'path')
  const json = op.requestBody?.content['application/json']?.schema
  const multipart = op.requestBody?.content['multipart/form-data']?.schema
  const hasBody = method !== 'GET' && method !== 'DELETE'
  const out: Req[] = []

  // A change without a body (DELETE) reads nothing but its id: the id itself must be the bad input.
  const idIsOnlyInput = method !== 'GET' && !json && !multipart

  /** The path with each parameter filled: an id that may exist ('1'), or a bad one. */
  const fill = (bad: boolean) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const p = pathParams.find((x) => x.name === name)
      if (bad || idIsOnlyInput || typeOf(p?.schema) === 'string') return rng.pick(BAD_IDS)
      return rng.pick(['1', '2', '999999'])
    })

  const oddQuery = () => {
    const q: Record<string, string | string[]> = {}
    for (const p of queryParams) {
      if (!p.required && rng.chance(0.3)) continue
      const paging = BAD_PAGING[p.name]
      q[p.name] = paging && rng.chance(0.6) ? rng.pick(paging) : rng.pick(ODD_STRINGS)
      if (rng.chance(0.1)) q[p.name] = [String(q[p.name]), rng.pick(ODD_STRINGS)]
    }
    // Paging on every list and on routes that take none; and a parameter no route declares.
    if (method === 'GET' && rng.chance(0.5)) {
      for (const [name, values] of Object.entries(BAD_PAGING)) if (rng.chance(0.5)) q[name] = rng.pick(values)
    }
    if (rng.chance(0.15))
      q[rng.pick(['x', '__proto__', 'a\u0000', 'export_xls', 'agency_id'])] = rng.pick(ODD_STRINGS)
    return q
  }

  const headers = (): Record<string, string> => (rng.chance(0.2) ? { 'accept-language': 'en-US' } : {})

  // Every path parameter alone with every bad id.
  if (pathParams.length) {
    for (const id of BAD_IDS) {
      const url = path.replace(/\{([^}]+)\}/g, () => id)
      const req: Req = {
        method,
        url,
        headers: headers(),
        label: `${method} ${path} with id ${id.slice(0, 20)}`,
      }
      if (hasBody && json) {
        req.payload = JSON.stringify(oddBody(rng, resolveRefs(doc, json)))
        req.headers['content-type'] = 'application/json'
      }
      out.push(req)
    }
  }
  // Every query parameter alone with every odd string (the others left out).
  for (const p of queryParams) {
    for (const v of [...ODD_STRINGS, ...(BAD_PAGING[p.name] ?? [])]) {
      out.push({
        method,
        url: fill(false),
        query: { [p.name]: v },
        headers: headers(),
        label: `${method} ${path} ?${p.name}=${JSON.stringify(v.slice(0, 20))}`,
      })
    }
  }
  // Random mixtures of odd queries and odd bodies.
  for (let i = 0; i < perOp; i++) {
    const req: Req = {
      method,
      url: fill(rng.chance(0.3)),
      headers: headers(),
      label: `${method} ${path} #${i}`,
    }
    if (queryParams.length || rng.chance(0.3)) req.query = oddQuery()
    if (hasBody && json) {
      const body = oddBody(rng, resolveRefs(doc, json))
      req.payload = JSON.stringify(body) ?? 'null'
      req.headers['content-type'] = 'application/json'
      req.label += ` body ${req.payload.slice(0, 80)}`
    } else if (hasBody && multipart) {
      req.payload = JSON.stringify(oddBody(rng, resolveRefs(doc, multipart)))
      req.headers['content-type'] = 'application/json'
    }
    out.push(req)
  }
  if (hasBody) {
    // Bodies the parser must refuse, and content types no route takes.
    const raw: [string, string][] = [
      ['application/json', '{"a":'],
      ['application/json', '{"a":1,"a":2}'],
      ['application/json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
      ['application/json', '\u0000'],
      ['text/plain', rng.pick(ODD_STRINGS)],
      ['application/x-www-form-urlencoded', 'a=1&b=%00'],
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="file"; filename="\u0000.png"\r\n\r\n\u0000\r\n--zzz--\r\n',
      ],
      ['multipart/form-data', 'no boundary'],
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\ncut short',
      ],
    ]
    for (const [type, payload] of raw) {
      out.push({
        method,
        url: fill(false),
        payload,
        headers: { 'content-type': type },
        label: `${method} ${path} as ${type.split(';')[0]}: ${JSON.stringify(payload.slice(0, 30))}`,
      })
    }
  }
  if (multipart) {
    // Multipart with odd fields: names and suffix lists that never make a valid upload.
    for (let i = 0; i < 6; i++) {
      const boundary = 'fuzzBoundary'
      const allow = rng.pick(ODD_STRINGS)
      const name = rng.pick(ODD_STRINGS).replace(/["\r\n]/g, '')
      const data = Buffer.from(rng.pick(ODD_STRINGS))
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="allow_suffix"\r\n\r\n${allow}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${rng.pick(['image/png', 'text/plain', '\u00e9'])}\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      out.push({
        method,
        url: path,
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        label: `${method} ${path} multipart allow_suffix=${JSON.stringify(allow.slice(0, 20))} filename=${JSON.stringify(name.slice(0, 20))}`,
      })
    }
  }
  return out
}

/** Percent-encodes like a browser, and a lone surrogate as the invalid UTF-8 bytes a sloppy client sends. */
function encodeOdd(s: string) {
  return s
    .split(/([\ud800-\udfff])/)
    .map((part) =>
      part.length === 1 && /[\ud800-\udfff]/.test(part)
        ? [
            ...Buffer.from([
              0xe0 | (part.charCodeAt(0) >> 12),
              0x80 | ((part.charCodeAt(0) >> 6) & 63),
              0x80 | (part.charCodeAt(0) & 63),
            ]),
          ]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('')
}

function queryString(query: Req['query']) {
  if (!query) return ''
  const pairs = Object.entries(query).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((x) => `${encodeOdd(k)}=${encodeOdd(x)}`),
  )
  return pairs.length ? `?${pairs.join('&')}` : ''
}

/** Row count and a checksum of every table in the public schema. */
async function snapshot(t: TestApp) {
  const tables = (
    await many<{ tablename: string }>(
      t.db,
      sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    )
  ).map((r) => r.tablename)
  const out: Record<string, string> = {}
  for (const name of tables) {
    const [row] = await many<{ n: number; h: string }>(
      t.db,
      sql`SELECT count(*) AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${sql.identifier(name)} x`,
    )
    out[name] = `${row.n} rows, md5 ${row.h}`
  }
  return out
}

let t: TestApp
let token: string
beforeAll(async () => {
  t = await createTestApp()
  token = await t.login(demo.superAdmin)
  await t.app.ready()
})
afterAll(() => t.close())

describe('fuzzing every route of the OpenAPI document', () => {
  it('answers every bad request below HTTP 500, in the envelope, and writes nothing', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> }
    const rng = seededRng(20260517)
    const requests: Req[] = []
    for (const [path, ops] of Object.entries(doc.paths)) {
      // The readiness probe answers 503 by meaning while a part is not up (this app starts no
      // broker); it takes no input to fuzz.
      if (path.startsWith('/api/docs') || path === '/api/ready') continue
      for (const [method, op] of Object.entries(ops)) {
        requests.push(...requestsFor(rng, doc, path, method.toUpperCase(), op, 16))
      }
    }
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0)
    expect(operations).toBeGreaterThan(30)

    const before = await snapshot(t)
    const failures: string[] = []
    let signedIn = 0
    /** Operation-log rows: a success of a changing route writes one, which names the request that wrote. */
    const logged = async () =>
      (await one<{ n: number }>(t.db, sql`SELECT count(*) AS n FROM operation_logs`))!.n
    let logRows = await logged()
    for (const req of requests) {
      for (const as of ['super administrator', 'anonymous'] as const) {
        // Anonymous requests go without a token, or with one that is broken.
        const auth =
          as === 'super administrator'
            ? { authorization: `JWT ${token}` }
            : rng.chance(0.7)
              ? {}
              : {
                  authorization: rng.pick([
                    'JWT abc',
                    `Bearer ${'x'.repeat(5000)}`,
                    'JWT eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
                    'JWT',
                  ]),
                }
        const res = await t.app.inject({
          method: req.method as 'GET',
          url: req.url + queryString(req.query),
          payload: req.payload,
          headers: { ...req.headers, ...auth },
        })
        const where = `${req.label} (${as})`
        if (res.statusCode >= 500) {
          failures.push(`${where}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`)
          continue
        }
        if (req.url.startsWith('/files/') && res.statusCode === 200) continue
        let body: { code?: unknown; msg?: unknown } | null = null
        try {
          body = res.json()
        } catch {
          failures.push(`${where}: not JSON (HTTP ${res.statusCode}) ${res.body.slice(0, 100)}`)
          continue
        }
        if (
          typeof body?.code !== 'number' ||
          typeof body.msg !== 'string' ||
          body.msg === '' ||
          !('data' in body)
        ) {
          failures.push(`${where}: not an envelope ${res.body.slice(0, 200)}`)
        }
        if (as === 'super administrator' && body?.code !== -1) signedIn++
        if (req.method !== 'GET') {
          const now = await logged()
          if (now !== logRows) failures.push(`${where}: wrote the operation log (code ${String(body?.code)})`)
          logRows = now
        }
      }
    }
    const after = await snapshot(t)
    const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k])
    // Both lists in one assertion, so a failing run shows every 5xx and every changed table.
    expect({
      failures,
      changed: changed.map((k) => `${k}: ${before[k]} -> ${after[k]}`),
    }).toEqual({ failures: [], changed: [] })
    // The token stayed good throughout: the signed-in half really reached validation and services.
    expect(signedIn).toBeGreaterThan(requests.length * 0.9)
    expect(requests.length).toBeGreaterThan(1000)
  }, 300_000) // about 40 s on a quiet 2-core machine; the margin is for a busy one
})
