// The tables of docs/device-protocol.md, generated from the protocol itself: the zod schemas and
// limits of packages/contracts/src/device-protocol.ts (types, ranges, enums and required fields
// through z.toJSONSchema, meanings from each field's .describe()) and the engine's numbers. The
// doc keeps them between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; the prose
// around them is written by hand. protocol-doc.test.ts fails when the committed doc differs
// from what this generates now.
//
//   npm run docs:protocol            rewrites the blocks in place
//   npm run docs:protocol -- --check  exits 1 when the doc is out of date

import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CABINET_CONSOLE_COMMANDS } from '@aed/contracts/cabinet'
import {
  AED_CONSOLE_COMMANDS,
  AED_TYPES,
  CABINET_TYPES,
  COMMAND_LABELS,
  COMMAND_NAMES,
  COMMAND_TTL_MS,
  type CommandName,
  deviceCommandSchema,
  envelopeSchema,
  FAULT_CODES,
  faultDescription,
  fileAnswer,
  fileQuery,
  MAX_BATCH,
  MAX_DEPTH,
  MAX_FILE_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_REQUEST_BYTES,
  MESSAGE_TYPES,
  type MessageType,
  messageData,
  messagesAnswer,
  PROTOCOL_VERSION,
  publishResultSchema,
  READINESS,
  READINESS_LABELS,
  READINESS_REASONS,
  REFUSAL_CODES,
  type RefusalCode,
  refusalSchema,
  TS_FUTURE_LIMIT_MS,
  TS_PAST_LIMIT_MS,
  UNSPECIFIED_FAULT,
  WARNING_CODES,
} from '@aed/contracts/device-protocol'
import { z } from 'zod'
import { NONCE_RETENTION_MS } from '../jobs/housekeeping.repository.ts'
import { INBOX_RETENTION_MS, SWEEP_EVERY_MS } from '../modules/engine/engine.jobs.ts'
import {
  AED_RETURN_MS,
  DEADLINE_GRACE_MS,
  DEFAULT_REPORT_INTERVAL_S,
  DOOR_RESCUE_WINDOW_MS,
  MISSED_FACTOR,
} from '../modules/engine/engine.rules.ts'
import {
  BATTERY_EXHAUSTED,
  BATTERY_LOW,
  MAX_FIX_ACCURACY_M,
  OFFSET_CLEAR_RATIO,
  OFFSET_FIXES,
  RESCUE_QUIET_MS,
} from '../modules/engine/reducer.ts'
import { dynsecLogin } from '../modules/gateway/mqtt-auth.ts'
import { DEVICE_TS_WINDOW_MS } from '../plugins/auth/device.ts'

/** The document the blocks live in. */
export const DOC_PATH = fileURLToPath(new URL('../../../../docs/device-protocol.md', import.meta.url))

// What a field's JSON Schema says, as far as these tables read it.
type Json = {
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: Json[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  maxItems?: number
  minItems?: number
  items?: Json
  default?: unknown
  description?: string
  properties?: Record<string, Json>
  required?: string[]
  additionalProperties?: unknown
}

/** A zod schema's internals, only to see through wrappers and find `.trim()`. */
type ZodInside = {
  _zod: {
    def: {
      type: string
      innerType?: ZodInside
      element?: ZodInside
      checks?: { _zod: { def: { check: string; tx?: (s: string) => string } } }[]
    }
  }
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const code = (v: unknown) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``

function table(head: string[], rows: string[][]): string {
  const line = (r: string[]) => `| ${r.map(cell).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}

/** The schema under optional/default/nullable wrappers. */
function unwrap(s: ZodInside): ZodInside {
  let at = s
  while (
    at._zod.def.innerType &&
    ['optional', 'default', 'nullable', 'readonly'].includes(at._zod.def.type)
  ) {
    at = at._zod.def.innerType
  }
  return at
}

/** Whether a string schema trims its value before its checks (`.trim()`). */
function trims(s: ZodInside): boolean {
  const inner = unwrap(s)
  return (inner._zod.def.checks ?? []).some((c) => {
    const d = c._zod.def
    return d.check === 'overwrite' && typeof d.tx === 'function' && d.tx(' a ') === 'a'
  })
}

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v)
const SAFE = Number.MAX_SAFE_INTEGER

function typeOf(j: Json): string {
  if (j.anyOf) {
    const consts = j.anyOf.map((a) => a.const)
    if (consts.every(isInt)) return 'integer'
    return [...new Set(j.anyOf.map(typeOf))].join(' or ')
  }
  if (j.const !== undefined) return isInt(j.const) ? 'integer' : typeof j.const
  if (Array.isArray(j.type)) return j.type.join(' or ')
  if (j.type === 'array') return `array of ${j.items ? typeOf(j.items) : 'any JSON'}`
  return j.type ?? 'any JSON'
}

function numberRange(j: Json): string | null {
  const lo = j.minimum ?? null
  const hi = j.maximum ?? null
  const gt = j.exclusiveMinimum ?? null
  const bigHi = hi === null || hi >= SAFE
  const bigLo = lo === null || lo <= -SAFE
  if (gt !== null) return bigHi ? `> ${gt}` : `> ${gt}, ≤ ${hi}`
  if (bigLo && bigHi) return null
  if (bigHi) return `≥ ${lo}`
  if (bigLo) return `≤ ${hi}`
  return `${lo} to ${hi}`
}

function lengthRange(j: Json): string | null {
  const lo = j.minLength ?? 0
  const hi = j.maxLength
  if (hi === undefined) return lo > 0 ? `at least ${lo} characters` : null
  return lo > 0 ? `${lo} to ${hi} characters` : `at most ${hi} characters`
}

/** The range, values and format column. */
function constraints(j: Json, zod: ZodInside | null): string {
  const parts: string[] = []
  if (j.anyOf?.every((a) => a.const !== undefined)) {
    parts.push(j.anyOf.map((a) => code(a.const)).join(' or '))
  } else if (j.const !== undefined) parts.push(`always ${code(j.const)}`)
  if (j.enum) parts.push(j.enum.map(code).join(', '))
  if (j.type === 'integer' || j.type === 'number') {
    const r = numberRange(j)
    if (r) parts.push(r)
  }
  if (j.type === 'string') {
    const r = lengthRange(j)
    if (r) parts.push(r)
    if (j.pattern) parts.push(`pattern ${code(j.pattern)}`)
    if (zod && trims(zod)) parts.push('spaces around it trimmed')
  }
  if (j.type === 'array') {
    if (j.minItems) parts.push(`at least ${j.minItems} items`)
    if (j.maxItems !== undefined) parts.push(`at most ${j.maxItems} items`)
    if (j.items) {
      const element = zod ? (unwrap(zod)._zod.def.element ?? null) : null
      const each = constraints(j.items, element)
      if (each) parts.push(`each ${each}`)
    }
  }
  if (j.default !== undefined) parts.push(`default ${code(j.default)}`)
  return parts.join('; ')
}

/** A field table of an object schema: one row per field, in the schema's order. */
export function fieldTable(name: string, schema: z.ZodObject, prefix = ''): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json
  const required = new Set(json.required ?? [])
  const shape = schema.shape as Record<string, ZodInside>
  const missing: string[] = []
  const rows = Object.entries(json.properties ?? {}).map(([field, j]) => {
    if (!j.description) missing.push(field)
    return [
      code(`${prefix}${field}`),
      typeOf(j),
      required.has(field) ? 'yes' : 'no',
      constraints(j, shape[field] ?? null) || '—',
      j.description ?? '',
    ]
  })
  if (missing.length) {
    throw new Error(
      `${name}: no description for ${missing.join(', ')}: add .describe('…') to the field in ` +
        'packages/contracts/src/device-protocol.ts',
    )
  }
  return table(['field', 'type', 'required', 'range, values, format', 'meaning'], rows)
}

// Durations and sizes as people read them.

export function duration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ]
  for (const [size, unit] of units) {
    // A day is said in hours (24 hours), longer spans in days.
    if (ms % size === 0 && !(unit === 'day' && ms < 2 * size)) {
      const n = ms / size
      return `${n} ${unit}${n === 1 ? '' : 's'}`
    }
  }
  return `${ms} ms`
}

export function bytes(n: number): string {
  const units: [number, string][] = [
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ]
  for (const [size, unit] of units) if (n % size === 0) return `${n / size} ${unit} (${n} bytes)`
  return `${n} bytes`
}

// What the tables say that no schema holds; each is checked against the list it explains, so a
// new refusal code or command cannot be left out.

const REFUSAL_MEANINGS: Record<RefusalCode, [transport: string, meaning: string]> = {
  invalid: [
    'both',
    'Not a valid message: a field missing, of the wrong type or out of range (named in `field`), text that is not well-formed Unicode or holds U+0000, nesting too deep, a `type` other than the topic’s (MQTT), an array or non-JSON payload (MQTT)',
  ],
  too_large: ['both', `The message is larger than ${bytes(MAX_MESSAGE_BYTES)}`],
  seq_reused: [
    'both',
    'Its (`boot`, `seq`) was used before by a stored message with another `type` or `data`: a counter bug; the message is not stored',
  ],
  qos: ['MQTT', 'Published at QoS 0 or 2: publish at QoS 1'],
  retained: ['MQTT', 'Published with the RETAIN flag: device messages are never retained'],
}

const COMMAND_MEANINGS: Record<CommandName, [args: string, what: string]> = {
  selftest: ['none', 'Run a self-test now and send its `selftest` message (`report_type` 2), then the `ack`'],
  locate: [
    'none',
    'Take a position fix now and send a `location` message, then the `ack` (`ok` false with an `error` when there is no fix)',
  ],
  set_interval: [
    '`report_interval_s` (integer, seconds)',
    'Report at this interval from now on, and say so in the next `hello`',
  ],
  unlock: ['none', 'Unlock the door (the door events follow as the door opens and closes), then the `ack`'],
  siren: ['none', 'Sound the siren, then the `ack`'],
}

function who(name: CommandName): string {
  const to: string[] = []
  if ((AED_CONSOLE_COMMANDS as readonly string[]).includes(name)) to.push('AED')
  if ((CABINET_CONSOLE_COMMANDS as readonly string[]).includes(name)) to.push('cabinet')
  return to.length ? to.join(', ') : 'nobody yet (no console action sends it)'
}

function senders(type: MessageType): string {
  const from: string[] = []
  if (AED_TYPES.includes(type)) from.push('AEDs')
  if (CABINET_TYPES.includes(type)) from.push('rescue cabinets')
  return from.join(' and ')
}

function messageBlock(type: MessageType): string {
  const schema = messageData[type] as unknown as z.ZodObject
  return [
    `Sent by ${senders(type)}. Topic \`aed/v1/{serial}/up/${type}\`; envelope \`"type": "${type}"\`.`,
    '',
    fieldTable(`messageData.${type}`, schema, 'data.'),
    '',
    'Other fields in `data` are kept with the message and ignored.',
  ].join('\n')
}

function limitsBlock(): string {
  return table(
    ['limit', 'value', 'beyond it'],
    [
      [
        'one message (its JSON text in UTF-8)',
        `at most ${bytes(MAX_MESSAGE_BYTES)}`,
        'refused `too_large` (in a batch, its neighbours are still taken)',
      ],
      [
        'one HTTPS request body of messages',
        `at most ${bytes(MAX_REQUEST_BYTES)}`,
        'HTTP 413, nothing stored',
      ],
      ['one MQTT packet', `at most ${bytes(MAX_REQUEST_BYTES)}`, 'the connection is closed'],
      ['messages in one HTTPS request', `1 to ${MAX_BATCH}`, 'code 1, nothing stored'],
      [
        'nesting of objects and arrays',
        `at most ${MAX_DEPTH} levels (the envelope is level 1)`,
        'refused `invalid`',
      ],
      [
        'text (values and keys alike)',
        'well-formed Unicode (no lone surrogate such as `\\ud800`), no U+0000',
        'refused `invalid`',
      ],
      ['dates (`YYYY-MM-DD`)', 'a day that exists, years 1000 to 9999 (no 2027-02-30)', 'refused `invalid`'],
      ['one ECG file', `at most ${bytes(MAX_FILE_BYTES)}, not empty`, 'HTTP 413 (empty: code 1)'],
      [
        '`X-Ts` and the MQTT username’s ts',
        `within ${duration(DEVICE_TS_WINDOW_MS)} of the server’s clock`,
        'HTTP 401 / CONNACK 5',
      ],
      ['`X-Nonce`', `not used by the same device in the last ${duration(NONCE_RETENTION_MS)}`, 'HTTP 401'],
      [
        'envelope `ts`',
        `at most ${duration(TS_PAST_LIMIT_MS)} old and ${duration(TS_FUTURE_LIMIT_MS)} ahead`,
        'the message is taken, timed by its arrival instead, and flagged',
      ],
      [
        'a repeated `id` is known as a duplicate',
        `for ${duration(INBOX_RETENTION_MS)} after the first was processed`,
        'later it is taken as a new message (and is stale when its `boot`/`seq` are old)',
      ],
      ['a command waits for its device', duration(COMMAND_TTL_MS), 'it expires'],
    ],
  )
}

function rulesBlock(): string {
  const interval = messageData.hello.shape.report_interval_s.unwrap()
  return table(
    ['rule', 'value'],
    [
      [
        'report interval when the device declared none in `hello`',
        `${DEFAULT_REPORT_INTERVAL_S} s (${duration(DEFAULT_REPORT_INTERVAL_S * 1000)})`,
      ],
      [
        'report interval a `hello` may declare',
        `${interval.minValue} to ${interval.maxValue} s (${duration((interval.minValue ?? 0) * 1000)} to ${duration((interval.maxValue ?? 0) * 1000)})`,
      ],
      [
        'offline deadline after a message arrives',
        `report interval × ${MISSED_FACTOR} + ${duration(DEADLINE_GRACE_MS)}`,
      ],
      ['deadlines are checked every', duration(SWEEP_EVERY_MS)],
      ['battery low (预警 电量低)', `${BATTERY_LOW}% and below`],
      ['battery exhausted (电量耗尽, not ready)', `${BATTERY_EXHAUSTED}% and below`],
      [
        'a GNSS fix counts for the location offset when its `accuracy_m` is',
        `absent or ≤ ${MAX_FIX_ACCURACY_M} m`,
      ],
      ['fixes in a row beyond the threshold that open a location offset', String(OFFSET_FIXES)],
      ['a location offset closes at a fix within', `${OFFSET_CLEAR_RATIO * 100}% of the threshold`],
      ['a rescue ends after no `usage` step for', duration(RESCUE_QUIET_MS)],
      [
        'an AED that left its cabinet is 未归还 (not returned) after the door closed by',
        duration(AED_RETURN_MS),
      ],
      ['a rescue came out of its cabinet when the door opened within', duration(DOOR_RESCUE_WINDOW_MS)],
    ],
  )
}

function refusalBlock(): string {
  for (const c of REFUSAL_CODES)
    if (!REFUSAL_MEANINGS[c]) throw new Error(`refusal code ${c} has no meaning here`)
  return [
    fieldTable('refusalSchema', refusalSchema),
    '',
    table(
      ['code', 'transport', 'meaning'],
      REFUSAL_CODES.map((c) => [code(c), ...REFUSAL_MEANINGS[c]]),
    ),
  ].join('\n')
}

function commandsBlock(): string {
  for (const c of COMMAND_NAMES) if (!COMMAND_MEANINGS[c]) throw new Error(`command ${c} has no meaning here`)
  return [
    fieldTable('deviceCommandSchema', deviceCommandSchema),
    '',
    table(
      ['name', 'console name', 'sent to', 'args', 'what the device does'],
      COMMAND_NAMES.map((c) => [
        code(c),
        `${COMMAND_LABELS[c][0]} (${COMMAND_LABELS[c][1]})`,
        who(c),
        ...COMMAND_MEANINGS[c],
      ]),
    ),
  ].join('\n')
}

function faultCodesBlock(): string {
  const rows = Object.entries(FAULT_CODES).map(([c, [zh, en]]) => [code(c), zh, en])
  rows.push([
    code(UNSPECIFIED_FAULT),
    faultDescription(UNSPECIFIED_FAULT, 'zh-CN'),
    `${faultDescription(UNSPECIFIED_FAULT, 'en-US')} (a failed test that names no code)`,
  ])
  rows.push([
    'any other',
    faultDescription('X', 'zh-CN').replace('X', 'code'),
    faultDescription('X', 'en-US').replace('X', 'code'),
  ])
  return table(['code', '中文', 'English'], rows)
}

function labelTable(labels: Record<string, readonly [string, string]>): string {
  return table(
    ['code', '中文', 'English'],
    Object.entries(labels).map(([c, [zh, en]]) => [code(c), zh, en]),
  )
}

function readinessBlock(): string {
  return [
    table(
      ['readiness', '中文', 'English'],
      READINESS.map((r) => [code(r), READINESS_LABELS[r][0], READINESS_LABELS[r][1]]),
    ),
    '',
    labelTable(READINESS_REASONS),
  ].join('\n')
}

function fileBlock(): string {
  return [
    'Query:',
    '',
    fieldTable('fileQuery', fileQuery),
    '',
    'Answer (`data`):',
    '',
    fieldTable('fileAnswer', fileAnswer),
  ].join('\n')
}

/** The worked example's serial and secret (section 3.2 of the doc). */
const EXAMPLE_SN = 'A6400000001'
const EXAMPLE_SECRET = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'

/** The Mosquitto account of the worked example's device, computed by the code the server uses. */
function dynsecBlock(): string {
  const login = dynsecLogin(EXAMPLE_SECRET, EXAMPLE_SN)
  return [
    `| field | the worked example (serial \`${EXAMPLE_SN}\`, its secret) |`,
    '| --- | --- |',
    `| client id | \`${EXAMPLE_SN}\` |`,
    `| username | \`${login.username.replace('|', '\\|')}\` |`,
    `| password | \`${login.password}\` |`,
  ].join('\n')
}

/** Every block the doc holds, by name: what goes between its markers. */
export function generateBlocks(): Map<string, string> {
  const blocks = new Map<string, string>()
  blocks.set('limits', limitsBlock())
  blocks.set(
    'envelope',
    [
      fieldTable('envelopeSchema', envelopeSchema),
      '',
      `\`v\` is ${PROTOCOL_VERSION}; an envelope with other fields is taken, the extra fields dropped.`,
    ].join('\n'),
  )
  for (const type of MESSAGE_TYPES) blocks.set(`message:${type}`, messageBlock(type))
  blocks.set('answer', fieldTable('messagesAnswer', messagesAnswer))
  blocks.set('refusal', refusalBlock())
  blocks.set('result', fieldTable('publishResultSchema', publishResultSchema))
  blocks.set('file', fileBlock())
  blocks.set('commands', commandsBlock())
  blocks.set('fault-codes', faultCodesBlock())
  blocks.set('warnings', labelTable(WARNING_CODES))
  blocks.set('readiness', readinessBlock())
  blocks.set('rules', rulesBlock())
  blocks.set('dynsec-login', dynsecBlock())
  return blocks
}

const MARKER = /<!-- generated:([a-z0-9:_-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g

/**
 * The doc with every generated block replaced by what the schemas say now. Throws when the doc
 * lacks a block the tool makes (say, a new message type) or holds one it does not know.
 */
export function renderDoc(doc: string, blocks = generateBlocks()): string {
  const seen = new Set<string>()
  const out = doc.replace(MARKER, (_all, name: string) => {
    const body = blocks.get(name)
    if (body === undefined) throw new Error(`docs/device-protocol.md: unknown block generated:${name}`)
    seen.add(name)
    return `<!-- generated:${name} -->\n${body}\n<!-- /generated:${name} -->`
  })
  const missing = [...blocks.keys()].filter((n) => !seen.has(n))
  if (missing.length) {
    throw new Error(
      `docs/device-protocol.md lacks the blocks ${missing.join(', ')}: add ` +
        `<!-- generated:NAME --> and <!-- /generated:NAME --> (each on its own line) where they belong`,
    )
  }
  return out
}

function main() {
  const check = process.argv.includes('--check')
  const doc = fs.readFileSync(DOC_PATH, 'utf8')
  const next = renderDoc(doc)
  const rel = path.relative(path.resolve(path.dirname(DOC_PATH), '..'), DOC_PATH)
  if (next === doc) {
    console.log(`${rel} is up to date`)
    return
  }
  if (check) {
    console.error(`${rel} is out of date: run npm run docs:protocol`)
    process.exitCode = 1
    return
  }
  fs.writeFileSync(DOC_PATH, next)
  console.log(`${rel} rewritten from the protocol's schemas`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
