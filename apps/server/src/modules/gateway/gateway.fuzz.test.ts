/**
 * Property-based test of the device gateway's promise, over both transports: whatever a device
 * sends is either refused with a clear code (and its place, id and field) and nothing of it
 * stored, or taken (applied, a duplicate, or stale) and its effect visible through the console's
 * API; never acknowledged and lost, never an HTTP 500, never a partial write.
 *
 * The generator makes valid messages of every type (and an unknown type, and a cabinet's type
 * from an AED), then breaks some in one place: a field of the wrong type or out of range, an
 * impossible date, a lone surrogate or U+0000 in any string or key, nesting past 16 levels (up
 * to 100,000 arrays, written as text), a message over 64 KiB or a body over 1 MiB, an envelope
 * field missing or wrong, `v` 2, an id over 64 characters, bytes that are not UTF-8 JSON, a
 * (boot, seq) used before with another body, an older (boot, seq), the same message again or
 * its body under a new id, numbers such as 1e400 and -0. Which of these must be refused is
 * written here from docs/device-protocol.md, not asked of the server's schema; whether a taken
 * message is applied, a duplicate or stale comes from a model of the protocol's ordering rules.
 *
 * The seed is fixed: a failure names its shrunk counterexample, and a rerun repeats it. Each run
 * uses a fresh device; the answers are awaited (PUBACKs, results) with a timeout, never slept on.
 */

import type { Socket } from 'node:net'
import { deviceApi } from '@aed/contracts/device'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { connectAsync, type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestApp } from '../../test/device-link.ts'
import { mqttPassword, mqttUsername } from './mqtt-auth.ts'
import { type EmbeddedBroker, startEmbeddedBroker } from './mqtt-broker.ts'

// The protocol's limits, as docs/device-protocol.md states them.
const MAX_MESSAGE_BYTES = 64 * 1024
const MAX_REQUEST_BYTES = 1024 * 1024
/** Levels of arrays under `data.junk` that still fit in 16 levels (envelope 1, data 2). */
const DEEPEST_ALLOWED = 14
const MAX_SAFE = Number.MAX_SAFE_INTEGER
/** The latest time a message may name (docs/device-protocol.md: 9999-12-31T23:59:59.999Z). */
const MAX_TIME_MS = 253_402_300_799_999

/** Fixed, so a failure reproduces; FUZZ_SEED=n explores another stream of runs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122)
const HTTPS_RUNS = 100
const MQTT_RUNS = 40
/** How long a PUBACK, a result or a closed connection may take. */
const WAIT_MS = 5000

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const START = clock.now().getTime()
let env: Awaited<ReturnType<typeof deviceTestApp>>
let broker: EmbeddedBroker

beforeAll(async () => {
  env = await deviceTestApp(clock)
  broker = await startEmbeddedBroker(env.t.ctx, { port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await broker?.close()
  await env?.t.close()
})

type Device = Awaited<ReturnType<typeof env.registered>>
type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
type Data = Record<string, unknown>

// Arbitraries: valid messages

/** Characters of valid text: ASCII with quotes and MQTT wildcards, CJK, an emoji (a surrogate pair), RTL, spaces. */
const CHARS = [
  ...'abcXYZ019-_.:/#+"\\\'<>{}[] ',
  'é',
  '中',
  '文',
  '🚑',
  '\u202e',
  '\u200b',
  '\t',
  '\u3000',
  'ß',
]
const char = fc.constantFrom(...CHARS)
/** Text the protocol's `text(max)` takes: 1 to max UTF-16 units once trimmed. */
const text = (max: number) =>
  fc
    .array(char, { minLength: 1, maxLength: Math.max(1, Math.floor(max / 2)) })
    .map((cs) => (cs.join('').trim() ? cs.join('') : `X${cs.join('')}`))
const json = fc.jsonValue({ maxDepth: 2, stringUnit: char }) as fc.Arbitrary<Json>
/** Fields a device may add; they pass through untouched. */
const extra = fc.dictionary(fc.constantFrom('note', 'vendor', 'x_1', '内容'), json, { maxKeys: 2 })
/** A real calendar day, years 1000 to 9999. */
const day = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))
const faultCode = fc.oneof(fc.constantFrom('E01', 'E02', 'E05', 'E10', 'E99', ' E02 '), text(16))
/** Unix ms around the test clock, and the edges of a positive safe integer. */
const eventTime = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: START - 86_400_000, max: START + 3_600_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(1, MAX_TIME_MS) },
)
const rescueId = fc.oneof(fc.constantFrom('R1', 'R2'), text(64))

const AED_TYPES = ['hello', 'heartbeat', 'selftest', 'location', 'usage', 'file', 'ack'] as const
/** A cabinet's type sent by an AED, and types the protocol does not know: stored and ignored. */
const IGNORED_TYPES = ['door', 'thermometer', 'x', 'z'.repeat(32)] as const

const withExtra = (data: fc.Arbitrary<Data>) =>
  fc.tuple(data, extra).map(([d, x]) => ({ ...x, ...d }) as Data)

const dataOf: Record<string, fc.Arbitrary<Data>> = {
  hello: fc.record(
    { model: text(16), fw_version: text(32), report_interval_s: fc.integer({ min: 60, max: 7 * 86400 }) },
    { requiredKeys: [] },
  ),
  heartbeat: fc.record(
    {
      battery: fc.integer({ min: 0, max: 100 }),
      rssi: fc.integer({ min: -150, max: 0 }),
      cable_voltage: fc.double({ min: 0, max: 100, noNaN: true }),
    },
    { requiredKeys: ['battery'] },
  ),
  selftest: fc.record(
    {
      report_type: fc.integer({ min: -1, max: 2 }),
      result: fc.constantFrom('pass', 'fail'),
      fault_codes: fc.array(faultCode, { maxLength: 4 }),
      battery: fc.integer({ min: 0, max: 100 }),
      electrode_sheet_expire: day,
      battery_expire: day,
      pads_connected: fc.boolean(),
    },
    { requiredKeys: ['report_type', 'result'] },
  ),
  location: fc.record(
    {
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
      positioning_type: fc.constantFrom('gps', 'lbs', 'wifi'),
      accuracy_m: fc.double({ min: 0, max: 100_000, noNaN: true }),
      altitude: fc.double({ min: -1000, max: 10_000, noNaN: true }),
    },
    { requiredKeys: ['lat', 'lon', 'positioning_type'] },
  ),
  usage: fc.record(
    {
      rescue_event_id: rescueId,
      event_time: eventTime,
      event_desc: fc.oneof(
        fc.constantFrom('power_on', 'pads_on_patient', 'shock_delivered', 'power_off'),
        text(200),
      ),
      event_para: json,
    },
    { requiredKeys: ['rescue_event_id', 'event_time', 'event_desc'] },
  ),
  file: fc.record({ rescue_event_id: rescueId, kind: fc.constant('ecg'), file_id: text(64) }),
  ack: fc.record(
    // An emoji is two UTF-16 units: at most 100 characters are at most 200 units.
    { cmd_id: text(64), ok: fc.boolean(), error: fc.string({ maxLength: 100, unit: char }) },
    { requiredKeys: ['cmd_id', 'ok'] },
  ),
  door: fc.record({ door_status: fc.constantFrom(0, 1) }),
}
const unknownData = fc.dictionary(fc.constantFrom('celsius', 'a', 'b_2', '键'), json, {
  maxKeys: 3,
}) as fc.Arbitrary<Data>

const typed = fc.oneof(
  ...[...AED_TYPES, 'door'].map((type) =>
    fc.record({ type: fc.constant<string>(type), data: withExtra(dataOf[type]) }),
  ),
  fc.record({ type: fc.constantFrom<string>(...IGNORED_TYPES.slice(1)), data: unknownData }),
)

/** The envelope's ts: now, a month ago or minutes ahead (replaced by the receive time), or an edge. */
const tsKind = fc.oneof(
  { weight: 8, arbitrary: fc.constant('now' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('past' as const, 'ahead' as const, 'one' as const, 'max' as const),
  },
)

// Arbitraries: one break per message

const ENVELOPE_FIELDS = ['v', 'id', 'seq', 'boot', 'ts', 'type', 'data'] as const
type EnvelopeField = (typeof ENVELOPE_FIELDS)[number]

type Mutation =
  | { k: 'none' }
  /** A field of the type's data set to a case of FIELD_CASES (most wrong, some valid edges). */
  | { k: 'field'; pick: number }
  /** A number written as text (1e400, -0...) in a numeric field, the ts or an unknown field. */
  | { k: 'odd'; pick: number; raw: string }
  /** A lone surrogate or U+0000 put into one of the message's strings or keys. */
  | { k: 'text'; ch: string; slot: number; at: number }
  /** `data.junk` nested `levels` arrays deep (written as text). */
  | { k: 'deep'; levels: number }
  /** The message padded to exactly `bytes` bytes. */
  | { k: 'size'; bytes: number }
  /** A message over a whole request's limit (HTTPS only). */
  | { k: 'huge' }
  | { k: 'missing'; field: EnvelopeField }
  | { k: 'v2' }
  | { k: 'longId'; length: number }
  /** An envelope field of the wrong type or out of range. */
  | { k: 'envelope'; pick: number }
  /** The message inside an array. */
  | { k: 'wrapped' }
  /** Bytes that are not UTF-8 JSON. */
  | { k: 'garbage'; how: 'ff' | 'ed-a0-80' | 'c0-af' | 'truncated' }
  /** The (boot, seq) of an earlier message of the run, with another body. */
  | { k: 'reuse'; of: number }
  /** A (boot, seq) older than any the run uses. */
  | { k: 'older' }
  /** A hello with an older (boot, seq): new counters (a board swap). */
  | { k: 'newCounters' }
  /** An earlier message of the run again, byte for byte. */
  | { k: 'again'; of: number }
  /** An earlier message's envelope and body under a new id. */
  | { k: 'sameBody'; of: number }

const ODD_NUMBERS = [
  '-0',
  '1e400',
  '-1e400',
  '1e-400',
  '5e-324',
  '1.7976931348623157e308',
  '-0.0',
  '1E2',
  '100.0',
]

/** Which earlier message, counting back from the previous one (most often the previous one). */
const back = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat() })

const mutation = (transport: 'https' | 'mqtt'): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { weight: 30, arbitrary: fc.constant({ k: 'none' as const }) },
    { weight: 12, arbitrary: fc.record({ k: fc.constant('field' as const), pick: fc.nat() }) },
    {
      weight: 4,
      arbitrary: fc.record({
        k: fc.constant('odd' as const),
        pick: fc.nat(),
        raw: fc.constantFrom(...ODD_NUMBERS),
      }),
    },
    {
      weight: 6,
      arbitrary: fc.record({
        k: fc.constant('text' as const),
        ch: fc.constantFrom('\ud800', '\udc00', '\udbff', '\u0000'),
        slot: fc.nat(),
        at: fc.nat(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant('deep' as const),
        levels: fc.oneof(
          fc.constantFrom(DEEPEST_ALLOWED, DEEPEST_ALLOWED + 1, 20),
          fc.integer({ min: 10_000, max: 100_000 }),
        ),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant('size' as const),
        // Mostly at the limit: a byte either side of it.
        bytes: fc.oneof(
          {
            weight: 2,
            arbitrary: fc.constantFrom(MAX_MESSAGE_BYTES - 1, MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES + 1),
          },
          { weight: 1, arbitrary: fc.integer({ min: MAX_MESSAGE_BYTES + 2, max: 80 * 1024 }) },
        ),
      }),
    },
    // A publish over a request's limit ends the connection (a frame limit), so HTTPS only.
    ...(transport === 'https' ? [{ weight: 1, arbitrary: fc.constant({ k: 'huge' as const }) }] : []),
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant('missing' as const),
        field: fc.constantFrom(...ENVELOPE_FIELDS),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ k: 'v2' as const }) },
    {
      weight: 2,
      arbitrary: fc.record({ k: fc.constant('longId' as const), length: fc.integer({ min: 65, max: 300 }) }),
    },
    { weight: 3, arbitrary: fc.record({ k: fc.constant('envelope' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.constant({ k: 'wrapped' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        k: fc.constant('garbage' as const),
        how: fc.constantFrom('ff' as const, 'ed-a0-80' as const, 'c0-af' as const, 'truncated' as const),
      }),
    },
    { weight: 5, arbitrary: fc.record({ k: fc.constant('reuse' as const), of: back }) },
    { weight: 4, arbitrary: fc.constant({ k: 'older' as const }) },
    { weight: 2, arbitrary: fc.constant({ k: 'newCounters' as const }) },
    { weight: 5, arbitrary: fc.record({ k: fc.constant('again' as const), of: back }) },
    { weight: 3, arbitrary: fc.record({ k: fc.constant('sameBody' as const), of: back }) },
  )

type Step = {
  type: string
  data: Data
  ts: 'now' | 'past' | 'ahead' | 'one' | 'max'
  tag: string
  mut: Mutation
}

const step = (transport: 'https' | 'mqtt'): fc.Arbitrary<Step> =>
  fc
    .record({
      t: typed,
      ts: tsKind,
      // Printable ASCII before the message number: quotes, slashes and MQTT wildcards in ids.
      tag: fc.string({ unit: fc.constantFrom(...'aZ09"\\/#+-_~!{}'), maxLength: 8 }),
      mut: mutation(transport),
    })
    .map(({ t, ts, tag, mut }) => ({ type: t.type, data: t.data, ts, tag, mut }))

/** A run's counters: boot (older pairs use boot - 1) and the first seq. */
const counters = fc.record({
  boot: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant(2_147_483_647)),
  seq: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(MAX_SAFE - 100)),
})

// Which breaks must be refused, and where (written from the protocol, not from the server's schema)

type FieldCase = { field: string; value: unknown; valid: boolean; at?: string }
const bad = (field: string, values: unknown[], at?: string): FieldCase[] =>
  values.map((value) => ({ field, value, valid: false, at }))
const good = (field: string, values: unknown[]): FieldCase[] =>
  values.map((value) => ({ field, value, valid: true }))
const BAD_DATES = [
  '2027-02-30',
  '2026-13-01',
  '2026-02-29',
  '2026-04-31',
  '2026-00-10',
  '0999-12-31',
  '2026-1-1',
  20260101,
]
const GOOD_DATES = ['2028-02-29', '1000-01-01', '9999-12-31']

const FIELD_CASES: Record<string, FieldCase[]> = {
  hello: [
    ...bad('model', ['m'.repeat(17), '   ', 5]),
    ...good('model', [' M1 ', 'm'.repeat(16)]),
    ...bad('fw_version', ['v'.repeat(33), '', true]),
    ...good('fw_version', ['v'.repeat(32), ' V2.0.1 ']),
    ...bad('report_interval_s', [59, 7 * 86400 + 1, 3600.5, '3600', null]),
    ...good('report_interval_s', [60, 7 * 86400]),
  ],
  heartbeat: [
    ...bad('battery', [101, -1, 50.5, '50', null, true, undefined]),
    ...good('battery', [0, 100]),
    ...bad('rssi', [1, -151, -70.5]),
    ...good('rssi', [-150, 0]),
    ...bad('cable_voltage', [100.01, -0.1, 'x']),
    ...good('cable_voltage', [0, 12.6]),
  ],
  selftest: [
    ...bad('report_type', [3, -2, 1.5, '1']),
    ...good('report_type', [-1, 2]),
    ...bad('result', ['ok', '', 'PASS', undefined]),
    ...bad('fault_codes', ['E01', null, Array(21).fill('E01')]),
    ...bad('fault_codes', [[1], ['c'.repeat(17)], ['  ']], 'data.fault_codes.0'),
    ...good('fault_codes', [Array.from({ length: 20 }, (_, i) => `E${i}`), [' E02 ', 'E02'], []]),
    ...bad('battery', [101, -1]),
    ...bad('electrode_sheet_expire', BAD_DATES),
    ...good('electrode_sheet_expire', GOOD_DATES),
    ...bad('battery_expire', BAD_DATES),
    ...good('battery_expire', GOOD_DATES),
    ...bad('pads_connected', ['yes', 1]),
  ],
  location: [
    ...bad('lat', [90.0001, -91, '30', null]),
    ...good('lat', [90, -90]),
    ...bad('lon', [180.5, -181]),
    ...good('lon', [180, -180]),
    ...bad('positioning_type', ['GPS', 'sat']),
    ...bad('accuracy_m', [-1, 100_001]),
    ...good('accuracy_m', [0, 100_000]),
    ...bad('altitude', [-1001, 10_001]),
    ...good('altitude', [-1000, 10_000]),
  ],
  usage: [
    ...bad('rescue_event_id', ['', 'r'.repeat(65), '   ', 7]),
    ...good('rescue_event_id', ['r'.repeat(64)]),
    ...bad('event_time', [0, -1, 1.5, '1', 2 ** 53, MAX_SAFE, 8.64e15, MAX_TIME_MS + 1]),
    ...good('event_time', [1, MAX_TIME_MS]),
    ...bad('event_desc', ['', 'd'.repeat(201)]),
    ...good('event_desc', ['d'.repeat(200)]),
    ...good('event_para', [{ joules: 150, pads: [1, { b: null }] }, 'x', null]),
  ],
  file: [
    ...bad('kind', ['pdf', undefined]),
    ...bad('file_id', ['', 'f'.repeat(65)]),
    ...bad('rescue_event_id', [undefined]),
  ],
  ack: [
    ...bad('cmd_id', ['', 'c'.repeat(65), 5]),
    ...bad('ok', ['true', 1, undefined]),
    ...bad('error', ['e'.repeat(201), 5]),
    ...good('error', ['', 'e'.repeat(200)]),
  ],
  door: [...bad('door_status', [2, '0', true]), ...good('door_status', [1])],
}
/** An unknown type's data is anything that is an object. */
const ANY_DATA_CASES = good('x', [1, 'y', [], {}])

/** Numeric fields a number written as text can go into, with what the protocol takes there. */
const isInt = (v: number) => Number.isSafeInteger(v)
const NUMERIC: Record<string, [string, (v: number) => boolean][]> = {
  hello: [['report_interval_s', (v) => isInt(v) && v >= 60 && v <= 7 * 86400]],
  heartbeat: [
    ['battery', (v) => isInt(v) && v >= 0 && v <= 100],
    ['rssi', (v) => isInt(v) && v >= -150 && v <= 0],
    ['cable_voltage', (v) => Number.isFinite(v) && v >= 0 && v <= 100],
  ],
  selftest: [
    ['report_type', (v) => isInt(v) && v >= -1 && v <= 2],
    ['battery', (v) => isInt(v) && v >= 0 && v <= 100],
  ],
  location: [
    ['lat', (v) => Number.isFinite(v) && Math.abs(v) <= 90],
    ['lon', (v) => Number.isFinite(v) && Math.abs(v) <= 180],
    ['accuracy_m', (v) => Number.isFinite(v) && v >= 0 && v <= 100_000],
    ['altitude', (v) => Number.isFinite(v) && v >= -1000 && v <= 10_000],
  ],
  usage: [['event_time', (v) => isInt(v) && v > 0 && v <= MAX_TIME_MS]],
}

const ENVELOPE_CASES: [EnvelopeField, unknown][] = [
  ['seq', -1],
  ['seq', 1.5],
  ['seq', '7'],
  ['seq', 2 ** 53],
  ['seq', null],
  ['boot', -1],
  ['boot', 2 ** 31],
  ['boot', 0.5],
  ['ts', 0],
  ['ts', -1],
  ['ts', 1.5],
  ['ts', '1'],
  ['ts', 2 ** 53],
  ['type', 'Heartbeat'],
  ['type', ''],
  ['type', 'a-b'],
  ['type', 'x'.repeat(33)],
  ['type', 5],
  ['data', []],
  ['data', null],
  ['data', 'x'],
  ['data', 7],
  ['id', ''],
  ['id', 'a b'],
  ['id', 5],
  ['id', 'café'],
  ['v', '1'],
  ['v', true],
]

// Building a run's messages

/** A lone UTF-16 surrogate (no UTF-8 encoding and no database column can hold it). */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
/** The id a refusal names: the message's id when it is text that can be told back, else null. */
function idOf(raw: unknown): string | null {
  const id = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { id?: unknown }).id : undefined
  return typeof id === 'string' && !LONE.test(id) ? id.slice(0, 64) : null
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
/** The id of a payload refused before its content is checked (QoS, RETAIN, size), when it can be read. */
function readableId(bytes: Buffer): string | null {
  try {
    return idOf(JSON.parse(utf8.decode(bytes)))
  } catch {
    return null
  }
}

type Code = 'invalid' | 'too_large' | 'seq_reused' | 'qos' | 'retained'
/** What the effects checks read of a taken message. */
type Effect = {
  type: string
  battery?: number
  fw?: string
  faults?: string[]
  usage?: string
}
/**
 * What the protocol makes of a message's bytes, before ordering: refused (code, field and id;
 * a field of null is not checked), bytes that are not UTF-8 JSON, or taken.
 */
type Verdict =
  | { k: 'refused'; code: Code; field: string | RegExp | null; id: string | null }
  | { k: 'garbage' }
  | {
      k: 'taken'
      id: string
      boot: number
      seq: number
      /** Bodies of the same key are equal (type and data). */
      body: string
      /** An AED type: ordered and applied; otherwise stored and ignored. */
      ordered: boolean
      hello: boolean
      effect: Effect
    }

type Built = { bytes: Buffer; topicType: string; verdict: Verdict; pair: { boot: number; seq: number } }

type Run = {
  boot: number
  nextSeq: number
  nextOld: number
  n: number
  built: Built[]
  /** Each built message's envelope and the number or nesting written into its text (null: not an object's JSON). */
  sources: (Source | null)[]
}
type Source = { obj: Record<string, unknown>; raw: Raw | null }
/** Text put in place of a placeholder string: a number such as 1e400, or deep nesting. */
type Raw = { placeholder: string; text: string }

function render(obj: unknown, raw: Raw | null): string {
  const text = JSON.stringify(obj)
  return raw ? text.replace(JSON.stringify(raw.placeholder), () => raw.text) : text
}

const newRun = (c: { boot: number; seq: number }): Run => ({
  boot: c.boot,
  nextSeq: c.seq,
  nextOld: 1,
  n: 0,
  built: [],
  sources: [],
})

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

function tsOf(kind: Step['ts']): number {
  const now = clock.now().getTime()
  if (kind === 'past') return now - 40 * 86_400_000
  if (kind === 'ahead') return now + 10 * 60_000
  if (kind === 'one') return 1
  if (kind === 'max') return MAX_SAFE
  return now
}

/** Every string and key of a value, by path (a key's slot names the object holding it). */
function slotsOf(v: unknown): { path: string[]; key: string | null }[] {
  const out: { path: string[]; key: string | null }[] = []
  const walk = (x: unknown, path: string[]) => {
    if (typeof x === 'string') out.push({ path, key: null })
    else if (Array.isArray(x)) {
      for (const [i, y] of x.entries()) walk(y, [...path, String(i)])
    } else if (x && typeof x === 'object') {
      for (const [k, y] of Object.entries(x)) {
        out.push({ path, key: k })
        walk(y, [...path, k])
      }
    }
  }
  walk(v, [])
  return out
}

const insert = (s: string, ch: string, at: number) => {
  const p = at % (s.length + 1)
  return s.slice(0, p) + ch + s.slice(p)
}

/** Puts `ch` into the string or key a slot names. */
function putChar(
  obj: Record<string, unknown>,
  slot: { path: string[]; key: string | null },
  ch: string,
  at: number,
) {
  const parentPath = slot.key === null ? slot.path.slice(0, -1) : slot.path
  let parent = obj as Record<string, unknown>
  for (const p of parentPath) parent = parent[p] as Record<string, unknown>
  if (slot.key === null) {
    const last = slot.path[slot.path.length - 1]
    parent[last] = insert(parent[last] as string, ch, at)
    return
  }
  const entries = Object.entries(parent)
  for (const k of Object.keys(parent)) delete parent[k]
  for (const [k, v] of entries)
    Object.defineProperty(parent, k === slot.key ? insert(k, ch, at) : k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    })
}

/** What a taken message's effects checks read: trimmed text, as the protocol stores it. */
function effectOf(type: string, data: Data): Effect {
  const num = (v: unknown) => (typeof v === 'number' ? v + 0 : undefined)
  const trim = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined)
  switch (type) {
    case 'hello':
      return { type, fw: trim(data.fw_version) }
    case 'heartbeat':
      return { type, battery: num(data.battery) }
    case 'selftest': {
      const codes = ((data.fault_codes as string[] | undefined) ?? []).map((c) => c.trim())
      const faults = data.result === 'pass' ? [] : codes.length ? [...new Set(codes)] : ['E00']
      return { type, battery: num(data.battery), faults }
    }
    case 'usage':
      return { type, usage: `${trim(data.rescue_event_id)} ${trim(data.event_desc)}` }
    default:
      return { type }
  }
}

/**
 * Builds a step's message for a transport: its bytes, the topic type it is published under, and
 * what the protocol says of it.
 */
function build(run: Run, s: Step, transport: 'https' | 'mqtt'): Built {
  const n = ++run.n
  const id = `${s.tag}~${n}`
  // `of` counts back from the previous message (0, where shrinking goes): a device resends the
  // message it just sent far more often than an old one.
  const earlier = (of: number) => (run.built.length ? run.built.length - 1 - (of % run.built.length) : -1)
  let mut = s.mut
  if (mut.k === 'again' || mut.k === 'sameBody' || mut.k === 'reuse') {
    const i = earlier(mut.of)
    if (i < 0) mut = { k: 'none' }
    else if (mut.k === 'again' || (mut.k === 'sameBody' && run.built[i].verdict.k !== 'taken')) {
      const b = run.built[i]
      const out = { ...b }
      run.built.push(out)
      run.sources.push(run.sources[i])
      return out
    } else if (mut.k === 'sameBody') {
      const b = run.built[i]
      const source = run.sources[i] as Source
      const obj = { ...source.obj, id }
      const v = b.verdict as Extract<Verdict, { k: 'taken' }>
      const bytes = Buffer.from(render(obj, source.raw))
      // A longer id can take a message at the limit over it.
      const over = bytes.length > MAX_MESSAGE_BYTES
      const out: Built = {
        bytes,
        topicType: b.topicType,
        pair: b.pair,
        verdict: over ? { k: 'refused', code: 'too_large', field: '(message)', id } : { ...v, id },
      }
      run.built.push(out)
      run.sources.push({ obj, raw: source.raw })
      return out
    }
  }
  const pair =
    mut.k === 'older' || mut.k === 'newCounters'
      ? { boot: run.boot - 1, seq: run.nextOld++ }
      : mut.k === 'reuse'
        ? run.built[earlier(mut.of)].pair
        : { boot: run.boot, seq: run.nextSeq++ }
  const type = mut.k === 'newCounters' ? 'hello' : s.type
  const data: Data =
    mut.k === 'newCounters' ? { fw_version: `R${n}`, report_interval_s: 3600 } : clone(s.data)
  if (mut.k === 'reuse') data._r = n
  const obj: Record<string, unknown> = {
    v: 1,
    id,
    seq: pair.seq,
    boot: pair.boot,
    ts: tsOf(s.ts),
    type,
    data,
  }
  let refusal: { code: Code; field: string | RegExp | null } | null = null
  let garbage: Extract<Mutation, { k: 'garbage' }>['how'] | null = null
  let raw: Raw | null = null
  let wrapped = false
  /** Data fields whose text is written raw, as JSON reads them. */
  const parsed: Data = {}
  const refuse = (field: string | RegExp | null, code: Code = 'invalid') => {
    refusal = { code, field }
  }

  switch (mut.k) {
    case 'field': {
      const cases = FIELD_CASES[type] ?? ANY_DATA_CASES
      const c = cases[mut.pick % cases.length]
      data[c.field] = c.value
      if (!c.valid) refuse(c.at ?? `data.${c.field}`)
      break
    }
    case 'odd': {
      const targets: [string, (v: number) => boolean][] = [
        ...(NUMERIC[type] ?? []).map(([f, ok]) => [`data.${f}`, ok] as [string, (v: number) => boolean]),
        ['ts', (v) => isInt(v) && v > 0],
        ['data.oddx', () => true],
      ]
      const [at, ok] = targets[mut.pick % targets.length]
      const value = JSON.parse(mut.raw) as number
      raw = { placeholder: '__odd__', text: mut.raw }
      if (at === 'ts') obj.ts = raw.placeholder
      else data[at.slice(5)] = raw.placeholder
      if (!ok(value)) refuse(at)
      // The text keeps the number as written; the effects read it as JSON does.
      else if (at !== 'ts') parsed[at.slice(5)] = value
      break
    }
    case 'text': {
      const slots = slotsOf(obj)
      const slot = slots[mut.slot % slots.length]
      putChar(obj, slot, mut.ch, mut.at)
      // A bad value names its own path; a bad key the object holding it.
      refuse(slot.path.join('.') || '(message)')
      break
    }
    case 'deep':
      raw = { placeholder: '__deep__', text: `${'['.repeat(mut.levels)}${']'.repeat(mut.levels)}` }
      data.junk = raw.placeholder
      if (mut.levels > DEEPEST_ALLOWED) refuse(/^data\.junk(\.0)*$/)
      break
    case 'size': {
      data.pad = ''
      const base = Buffer.byteLength(JSON.stringify(obj))
      data.pad = 'x'.repeat(Math.max(0, mut.bytes - base))
      if (Buffer.byteLength(JSON.stringify(obj)) > MAX_MESSAGE_BYTES) refuse('(message)', 'too_large')
      break
    }
    case 'huge':
      data.pad = 'x'.repeat(MAX_REQUEST_BYTES)
      refuse('(message)', 'too_large')
      break
    case 'missing':
      delete obj[mut.field]
      refuse(mut.field)
      break
    case 'v2':
      obj.v = 2
      refuse('v')
      break
    case 'longId':
      obj.id = `${id}-${'L'.repeat(mut.length)}`.slice(0, mut.length)
      refuse('id')
      break
    case 'envelope': {
      const [field, value] = ENVELOPE_CASES[mut.pick % ENVELOPE_CASES.length]
      obj[field] = value
      refuse(field)
      break
    }
    case 'wrapped':
      wrapped = true
      refuse('(message)')
      break
    case 'garbage':
      garbage = mut.how
      break
  }

  const textOut = render(wrapped ? [obj] : obj, raw)
  let bytes = Buffer.from(textOut)
  if (garbage) {
    const cut = textOut.indexOf('"id":"') + 6
    const insertBytes = (b: number[]) =>
      Buffer.concat([bytes.subarray(0, cut), Buffer.from(b), bytes.subarray(cut)])
    bytes =
      garbage === 'ff'
        ? insertBytes([0xff])
        : garbage === 'ed-a0-80'
          ? insertBytes([0xed, 0xa0, 0x80])
          : garbage === 'c0-af'
            ? insertBytes([0xc0, 0xaf])
            : bytes.subarray(0, bytes.length - 2)
  }

  let verdict: Verdict
  const r = refusal as { code: Code; field: string | RegExp | null } | null
  if (transport === 'mqtt' && bytes.length > MAX_MESSAGE_BYTES) {
    // MQTT measures the payload before it checks the content.
    verdict = { k: 'refused', code: 'too_large', field: '(message)', id: readableId(bytes) }
  } else if (garbage) {
    verdict =
      transport === 'https'
        ? { k: 'garbage' }
        : { k: 'refused', code: 'invalid', field: '(message)', id: null }
  } else if (r) {
    verdict = { k: 'refused', code: r.code, field: r.field, id: wrapped ? null : idOf(obj) }
  } else {
    verdict = {
      k: 'taken',
      id,
      boot: pair.boot,
      seq: pair.seq,
      body: `body ${n}`,
      ordered: (AED_TYPES as readonly string[]).includes(type),
      hello: type === 'hello',
      effect: effectOf(type, { ...data, ...parsed }),
    }
  }
  const out: Built = { bytes, topicType: type, verdict, pair }
  run.built.push(out)
  run.sources.push(garbage || wrapped ? null : { obj, raw })
  return out
}

// The model: what becomes of a taken message, by the protocol's ordering rules

/**
 * applied (or ignored, both acked), duplicate, stale, or seq_reused (neither of the last two
 * stores anything). A message whose (boot, seq) stored messages share is judged by the first of
 * them stored (since the last counter reset): the same body is a duplicate, another a reused pair,
 * as the protocol's "Order of messages" states it.
 */
type Fate = 'applied' | 'ignored' | 'duplicate' | 'stale' | 'seq_reused'
type Row = {
  id: string
  boot: number
  seq: number
  body: string
  epoch: number
  fate: 'applied' | 'ignored' | 'stale'
}

class Model {
  has = false
  boot = 0
  seq = -1
  /** Rows received before the last counter reset are not compared with. */
  resetEpoch = Number.NEGATIVE_INFINITY
  rows: Row[] = []
  battery: number | undefined
  fw: string | undefined
  faults: string[] = []
  detections = 0
  usage: string[] = []
  reported = false

  /** Decides a taken message's fate and records what it stores and changes. */
  take(v: Extract<Verdict, { k: 'taken' }>, epoch: number): Fate {
    if (this.rows.some((r) => r.id === v.id)) return 'duplicate'
    if (!v.ordered) {
      this.rows.push({ id: v.id, boot: v.boot, seq: v.seq, body: v.body, epoch, fate: 'ignored' })
      return 'ignored'
    }
    const newer = !this.has || v.boot > this.boot || (v.boot === this.boot && v.seq > this.seq)
    let fate: 'applied' | 'stale' = 'applied'
    if (!newer && v.hello) {
      // A hello not newer than the state says the device's counters started again, whatever pair
      // it repeats: the messages after it are compared only with those stored since (the test
      // clock stands still within a batch, so the batch's earlier rows count as stored since).
      this.resetEpoch = epoch
    } else if (!newer) {
      const twins = this.rows.filter(
        (r) => r.boot === v.boot && r.seq === v.seq && r.epoch >= this.resetEpoch,
      )
      // The rows are kept in the order they were stored: the first twin is the one compared.
      if (twins.length) return twins[0].body === v.body ? 'duplicate' : 'seq_reused'
      fate = 'stale'
    }
    this.rows.push({ id: v.id, boot: v.boot, seq: v.seq, body: v.body, epoch, fate })
    const e = v.effect
    this.reported = true
    if (fate === 'applied') {
      this.has = true
      this.boot = v.boot
      this.seq = v.seq
      if (e.battery !== undefined) this.battery = e.battery
      if (e.fw !== undefined) this.fw = e.fw
      if (e.faults) this.faults = e.faults
    }
    if (e.faults) this.detections++
    if (e.usage) this.usage.push(e.usage)
    return fate
  }
}

// Checks against the database and the console's API

async function inboxOf(d: Device) {
  return many<{ msg_id: string; outcome: string | null; processed: boolean }>(
    env.t.db,
    sql`SELECT msg_id, outcome, processed_at IS NOT NULL AS processed FROM device_inbox
        WHERE sender_kind = 'aed' AND sender_id = ${d.id} ORDER BY id`,
  )
}

/** Every stored row is one the model stored, in order, processed, with its outcome. */
async function checkInbox(d: Device, m: Model, transport: string) {
  const rows = await inboxOf(d)
  const outcome = (r: { outcome: string | null; processed: boolean }) =>
    !r.processed ? `unprocessed (${r.outcome})` : r.outcome === 'coalesced' ? 'applied' : r.outcome
  expect(
    rows.map((r) => [r.msg_id, outcome(r)]),
    `${transport}: the inbox holds exactly the taken messages, each applied, ignored or stale`,
  ).toEqual(m.rows.map((r) => [r.id, r.fate]))
}

/** A device's fields as the console shows them before a run. */
type Shown = { battery: number | null; fw_version: string | null; last_report_time: string | null }

/** The device detail's fields a run may change, read before it. */
async function shownBefore(d: Device): Promise<Shown> {
  const detail = await env.t.api(deviceApi.detail, { token: env.admin, params: { id: d.id } })
  const { battery, fw_version, last_report_time } = detail.data
  return { battery, fw_version, last_report_time }
}

/** What the console shows: battery, firmware, last report, open faults, self-tests, usage log. */
async function checkEffects(d: Device, m: Model, before: Shown) {
  const { t, admin } = env
  const detail = await t.api(deviceApi.detail, { token: admin, params: { id: d.id } })
  expect([detail.status, detail.code]).toEqual([200, 0])
  // Unconditional: a refused or stale message that wrote any of these shows here too.
  expect(detail.data.battery, 'battery shown').toBe(m.battery ?? before.battery)
  expect(detail.data.fw_version, 'firmware shown').toBe(m.fw ?? before.fw_version)
  if (m.reported) expect(detail.data.last_report_time, 'last report shown').not.toBeNull()
  else expect(detail.data.last_report_time, 'no report shown').toBe(before.last_report_time)
  const page = (data_type: 'fault' | 'detect') =>
    t.api(deviceDetailApi.page, { token: admin, query: { device_sn: d.sn, data_type, page_size: 500 } })
  const faults = await page('fault')
  expect(faults.code).toBe(0)
  const open = (faults.data.resource as { fault_code: string; recover_time: string | null }[])
    .filter((f) => f.recover_time === null)
    .map((f) => f.fault_code)
  expect(open.sort(), 'open faults shown').toEqual([...m.faults].sort())
  const tests = await page('detect')
  expect(tests.data.count, 'self-tests shown').toBe(m.detections)
  const usage = await t.api(deviceDetailApi.single, {
    token: admin,
    query: { device_sn: d.sn, data_type: 'usage_log', page_size: 500 },
  })
  expect(usage.code).toBe(0)
  const steps = (usage.data as { resource: { rescue_event_id: string; event_desc: string }[] }).resource
  expect(steps.map((u) => `${u.rescue_event_id} ${u.event_desc}`).sort(), 'usage log shown').toEqual(
    [...m.usage].sort(),
  )
}

const refusalOf = (index: number, v: { code: Code; field: string | RegExp | null; id: string | null }) => ({
  index,
  id: v.id,
  code: v.code,
  field:
    v.field === null
      ? expect.any(String)
      : typeof v.field === 'string'
        ? v.field
        : expect.stringMatching(v.field),
  reason: expect.any(String),
})

// HTTPS

type HttpsRun = { counters: { boot: number; seq: number }; batches: Step[][] }

const httpsRun: fc.Arbitrary<HttpsRun> = fc.record({
  counters,
  batches: fc.array(fc.array(step('https'), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }),
})

async function checkHttpsRun(run: HttpsRun) {
  const d = await env.registered()
  const before = await shownBefore(d)
  const r = newRun(run.counters)
  const m = new Model()
  for (const [epoch, steps] of run.batches.entries()) {
    // Rows of a batch are received at one instant, a counter reset's too; the next batch later.
    clock.advance(1000)
    const built = steps.map((s) => build(r, s, 'https'))
    const body = Buffer.concat([
      Buffer.from('['),
      ...built.flatMap((b, i) => (i ? [Buffer.from(','), b.bytes] : [b.bytes])),
      Buffer.from(']'),
    ])
    const res = await d.post(null, { raw: body })
    if (body.length > MAX_REQUEST_BYTES) {
      expect([res.status, res.code], 'a body over 1 MiB is refused with 413').toEqual([413, 1])
    } else if (built.some((b) => b.verdict.k === 'garbage')) {
      expect([res.status, res.code], 'a body that is not UTF-8 JSON is refused whole').toEqual([200, 1])
    } else {
      expect([res.status, res.code], 'a batch is answered message by message').toEqual([200, 0])
      const fates = built.map((b) => (b.verdict.k === 'taken' ? m.take(b.verdict, epoch) : null))
      const want = {
        acked: [] as string[],
        duplicates: [] as string[],
        stale: [] as string[],
        refused: [] as unknown[],
      }
      for (const [i, b] of built.entries()) {
        const v = b.verdict
        if (v.k === 'refused') want.refused.push(refusalOf(i, v))
        if (v.k !== 'taken') continue
        const fate = fates[i]
        if (fate === 'applied' || fate === 'ignored') want.acked.push(v.id)
        if (fate === 'duplicate') want.duplicates.push(v.id)
        if (fate === 'stale') want.stale.push(v.id)
        if (fate === 'seq_reused')
          want.refused.push(refusalOf(i, { code: 'seq_reused', field: 'seq', id: v.id }))
      }
      const { acked, duplicates, stale, refused } = res.data
      expect({ acked, duplicates, stale, refused }, 'every message in exactly one list').toEqual(want)
    }
    await checkInbox(d, m, 'https')
  }
  await checkEffects(d, m, before)
}

// MQTT

type Flags = { qos: 0 | 1 | 2; retain: boolean }
type MqttRun = {
  counters: { boot: number; seq: number }
  publishes: { step: Step; flags: Flags }[]
  /** Ends with a publish on a topic not the device's own. */
  foreign: 'other' | 'down' | 'badType' | null
}

const flags: fc.Arbitrary<Flags> = fc.oneof(
  { weight: 9, arbitrary: fc.constant<Flags>({ qos: 1, retain: false }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Flags>(
      { qos: 0, retain: false },
      { qos: 2, retain: false },
      { qos: 1, retain: true },
    ),
  },
)

const mqttRun: fc.Arbitrary<MqttRun> = fc.record({
  counters,
  publishes: fc.array(fc.record({ step: step('mqtt'), flags }), { minLength: 1, maxLength: 6 }),
  foreign: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('other' as const, 'down' as const, 'badType' as const) },
  ),
})

type Result = { id: string | null; result: string; code: string; field: string | null; reason: string }

/** Rejects after `ms` unless the promise settled first. */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([p, late])
  } finally {
    clearTimeout(timer)
  }
}

let lastTs = 0
async function connect(d: Device) {
  // A password is good for one CONNECT: a new ts for each.
  lastTs = Math.max(lastTs + 1, clock.now().getTime())
  const c = await connectAsync(`mqtt://127.0.0.1:${broker.ports.mqtt}`, {
    clientId: d.sn,
    username: mqttUsername(d.sn, lastTs),
    password: mqttPassword(d.secret, d.sn, lastTs),
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: WAIT_MS,
  })
  // mqtt.js writes a packet in pieces: without this each waits for the broker's delayed ACK.
  ;(c.stream as Partial<Socket>).setNoDelay?.(true)
  return c
}

function publish(c: MqttClient, topic: string, payload: Buffer, f: Flags) {
  return new Promise<void>((resolve, reject) =>
    c.publish(topic, payload, { qos: f.qos, retain: f.retain }, (err) => (err ? reject(err) : resolve())),
  )
}

async function checkMqttRun(run: MqttRun) {
  const d = await env.registered()
  const before = await shownBefore(d)
  const r = newRun(run.counters)
  const m = new Model()
  const c = await connect(d)
  try {
    const resultTopic = `aed/v1/${d.sn}/down/result`
    const results: Result[] = []
    let heard: (x: Result) => void = () => {}
    c.on('message', (topic, payload) => {
      if (topic !== resultTopic) return
      const x = JSON.parse(payload.toString()) as Result
      results.push(x)
      heard(x)
    })
    await c.subscribeAsync(resultTopic, { qos: 1 })

    // What each publish must be told on down/result, in order.
    const expected: Result[] = []
    const told = (
      id: string | null,
      result: 'refused' | 'stale',
      code: string,
      field: string | RegExp | null,
    ) => ({
      id,
      result,
      code,
      field: field === null ? null : typeof field === 'string' ? field : expect.stringMatching(field),
      reason: expect.any(String),
    })
    for (const [i, { step: s, flags: f }] of run.publishes.entries()) {
      const b = build(r, s, 'mqtt')
      await within(
        publish(c, `aed/v1/${d.sn}/up/${b.topicType}`, b.bytes, f),
        WAIT_MS,
        `PUBACK of publish ${i}`,
      )
      const v = b.verdict
      const tell = (result: Result) => expected.push(result)
      // The publish is checked first (QoS, RETAIN), then its bytes, then its order.
      if (f.qos !== 1) tell(told(readableId(b.bytes), 'refused', 'qos', '(publish)'))
      else if (f.retain) tell(told(readableId(b.bytes), 'refused', 'retained', '(publish)'))
      else if (v.k === 'refused') tell(told(v.id, 'refused', v.code, v.field))
      else if (v.k === 'taken') {
        const fate = m.take(v, 0)
        if (fate === 'stale') tell(told(v.id, 'stale', 'stale', null))
        if (fate === 'seq_reused') tell(told(v.id, 'refused', 'seq_reused', 'seq'))
      }
    }
    // A last refused publish: once its result is heard, every earlier one has been (one device's
    // publishes are answered in order).
    const mark = `end-${r.n}`
    const heardMark = new Promise<void>((resolve) => {
      heard = (x) => x.id === mark && resolve()
      if (results.some((x) => x.id === mark)) resolve()
    })
    const sentinel = {
      v: 1,
      id: mark,
      seq: -1,
      boot: r.boot,
      ts: clock.now().getTime(),
      type: 'heartbeat',
      data: {},
    }
    await within(
      publish(c, `aed/v1/${d.sn}/up/heartbeat`, Buffer.from(JSON.stringify(sentinel)), {
        qos: 1,
        retain: false,
      }),
      WAIT_MS,
      'PUBACK of the last publish',
    )
    await within(heardMark, WAIT_MS, 'the result of the last publish')
    expected.push(told(mark, 'refused', 'invalid', 'seq'))
    expect(results, 'one result for each refused or stale publish, in order, none for the others').toEqual(
      expected,
    )

    if (run.foreign) {
      const topic = {
        other: 'aed/v1/A64NOSUCH99/up/heartbeat',
        down: `aed/v1/${d.sn}/down/cmd`,
        badType: `aed/v1/${d.sn}/up/Heart-Beat`,
      }[run.foreign]
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()))
      const msg = {
        v: 1,
        id: 'foreign',
        seq: MAX_SAFE,
        boot: r.boot,
        ts: clock.now().getTime(),
        type: 'heartbeat',
        data: { battery: 1 },
      }
      publish(c, topic, Buffer.from(JSON.stringify(msg)), { qos: 1, retain: false }).catch(() => {})
      await within(closed, WAIT_MS, `the connection closing after a publish on ${topic}`)
    }
    await checkInbox(d, m, 'mqtt')
    await checkEffects(d, m, before)
  } finally {
    await c.endAsync(true).catch(() => {})
  }
}

describe('whatever a device sends is refused clearly, or taken and visible', () => {
  it('over HTTPS: a batch is answered message by message; refused ones leave nothing, taken ones show', async () => {
    await fc.assert(fc.asyncProperty(httpsRun, checkHttpsRun), { seed: SEED, numRuns: HTTPS_RUNS })
  }, 300_000)

  it('over MQTT: every publish gets its PUBACK; a refused or stale one is told once on down/result', async () => {
    await fc.assert(fc.asyncProperty(mqttRun, checkMqttRun), { seed: SEED, numRuns: MQTT_RUNS })
  }, 300_000)
})
