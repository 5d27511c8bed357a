import { z } from 'zod'
import type { Label } from './constants.ts'
import { post } from './endpoint.ts'

// Device protocol v1 (docs/device-protocol.md): one schema for MQTT and HTTPS, so a message
// means the same whichever way it came. Fields may be added by devices; what is read is checked.

/** The protocol version in every envelope's `v`. */
export const PROTOCOL_VERSION = 1
/** At most this many messages in one HTTPS request. */
export const MAX_BATCH = 100
/** A rescue file (ECG) is at most this large. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024
/** One message (its JSON text, UTF-8) is at most this large, on either transport. */
export const MAX_MESSAGE_BYTES = 64 * 1024
/** One HTTPS request body of messages is at most this large (answered HTTP 413 beyond). */
export const MAX_REQUEST_BYTES = 1024 * 1024
/** The latest time a message may name (9999-12-31T23:59:59.999Z): every store can hold it. */
export const MAX_TIME_MS = 253_402_300_799_999
/** Objects and arrays nest at most this deep in a message (the envelope is depth 1). */
export const MAX_DEPTH = 16
/** A device `ts` older than this, or further ahead than the next, is replaced by the receive time and flagged. */
export const TS_PAST_LIMIT_MS = 30 * 24 * 3600_000
export const TS_FUTURE_LIMIT_MS = 5 * 60_000
/** MQTT topics: a device publishes under `up/`, subscribes under `down/`. */
export const TOPIC_PREFIX = 'aed/v1'
/** The shared subscription server instances read an external broker with. */
export const SHARED_SUBSCRIPTION = '$share/aedcloud/aed/v1/+/up/#'

export function upTopic(sn: string, type: string) {
  return `${TOPIC_PREFIX}/${sn}/up/${type}`
}
export function commandTopic(sn: string) {
  return `${TOPIC_PREFIX}/${sn}/down/cmd`
}
/** Where the broker tells a device over MQTT what became of a publish that was not applied. */
export function resultTopic(sn: string) {
  return `${TOPIC_PREFIX}/${sn}/down/result`
}

const text = (max: number) => z.string().trim().min(1).max(max)
/** A real calendar date: 2027-02-30 is refused before it is acknowledged, not by the database after. */
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .refine(isCalendarDate, 'not a calendar date')

/** Whether `YYYY-MM-DD` names a day that exists (year 1000 to 9999). */
export function isCalendarDate(s: string): boolean {
  const [y, m, d] = s.split('-').map(Number)
  if (y < 1000 || m < 1 || m > 12 || d < 1) return false
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return d <= days
}
const percent = z.number().int().min(0).max(100)

/** `data` of each message type; unknown fields pass through untouched. */
export const messageData = {
  hello: z.looseObject({
    model: text(16)
      .optional()
      .describe(
        'The model as the device names itself; kept with the message (the platform reads the model from the serial)',
      ),
    fw_version: text(32).optional().describe('Firmware version; shown on the device'),
    /** How often the device reports, in seconds (a minute to a week). */
    report_interval_s: z
      .number()
      .int()
      .min(60)
      .max(7 * 86400)
      .optional()
      .describe('Seconds between the reports the device promises; sets its offline deadline'),
  }),
  heartbeat: z.looseObject({
    battery: percent.describe('Battery charge, percent'),
    rssi: z
      .number()
      .int()
      .min(-150)
      .max(0)
      .optional()
      .describe('Mobile signal strength, dBm; kept as the latest signal'),
    cable_voltage: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe('Voltage on the power cable (electrode voltage), volts; kept as the latest voltage'),
  }),
  selftest: z.looseObject({
    /** -1 user inspection, 0 power-on, 1 standby, 2 user self-test. */
    report_type: z
      .number()
      .int()
      .min(-1)
      .max(2)
      .describe(
        'Which test: -1 user inspection (用户巡检), 0 power-on (开机自检), 1 standby (待机自检), 2 user self-test (用户自检)',
      ),
    result: z.enum(['pass', 'fail']).describe('The outcome'),
    fault_codes: z
      .array(text(16))
      .max(20)
      .default([])
      .describe('The faults found (see Fault codes); read only when the result is fail'),
    battery: percent.optional().describe('Battery charge at the test, percent'),
    electrode_sheet_expire: date
      .optional()
      .describe("Pads' (电极片) expiry date, a real calendar date; replaces the site's"),
    battery_expire: date
      .optional()
      .describe("Battery's expiry date, a real calendar date; replaces the site's"),
    pads_connected: z
      .boolean()
      .optional()
      .describe('Whether the pads are connected; kept with the message only'),
  }),
  location: z.looseObject({
    lat: z.number().min(-90).max(90).describe('Latitude, WGS-84 degrees'),
    lon: z.number().min(-180).max(180).describe('Longitude, WGS-84 degrees'),
    positioning_type: z
      .enum(['gps', 'lbs', 'wifi'])
      .describe('How the fix was made: gps (any GNSS), lbs (mobile cells), wifi; kept as the latest'),
    accuracy_m: z.number().min(0).max(100_000).optional().describe('Horizontal accuracy (radius), metres'),
    altitude: z.number().min(-1000).max(10_000).optional().describe('Altitude, metres'),
  }),
  usage: z.looseObject({
    rescue_event_id: text(64).describe(
      "The device's id of this use (rescue): a new id starts a new rescue; never reuse one",
    ),
    /** Unix milliseconds on the device clock. */
    event_time: z
      .number()
      .int()
      .positive()
      .max(MAX_TIME_MS)
      .describe('When the step happened: Unix milliseconds, device clock'),
    event_desc: text(200).describe(
      'The step, e.g. power_on, pads_on_patient, analysis, shock_delivered, power_off',
    ),
    event_para: z.unknown().optional().describe("The step's details, any JSON; kept in the usage log"),
  }),
  file: z.looseObject({
    rescue_event_id: text(64).describe('The rescue the file belongs to'),
    kind: z.literal('ecg').describe('The kind of file'),
    file_id: text(64).describe('The `file_id` the upload was answered with'),
  }),
  ack: z.looseObject({
    cmd_id: text(64).describe('The command answered'),
    ok: z.boolean().describe('Whether the device carried it out'),
    error: z.string().max(200).optional().describe('Why not, in words; shown in the console'),
  }),
  cabinet_status: z.looseObject({
    door_status: z.union([z.literal(0), z.literal(1)]).describe('The door now: 1 open, 0 closed'),
    battery_power: percent.optional().describe("The cabinet's battery charge, percent"),
    fw_version: text(32).optional().describe('Firmware version'),
    lat: z.number().min(-90).max(90).optional().describe('Latitude, WGS-84 degrees (with lon)'),
    lon: z.number().min(-180).max(180).optional().describe('Longitude, WGS-84 degrees (with lat)'),
    altitude: z.number().min(-1000).max(10_000).optional().describe('Altitude, metres'),
    aed_present: z.boolean().optional().describe('Whether the AED is inside'),
  }),
  door: z.looseObject({
    door_status: z.union([z.literal(0), z.literal(1)]).describe('1 the door opened, 0 it closed'),
  }),
} as const

export type MessageType = keyof typeof messageData
export const MESSAGE_TYPES = Object.keys(messageData) as MessageType[]
/** What an AED sends and a cabinet sends; another sender's type is stored and ignored. */
export const AED_TYPES: readonly MessageType[] = [
  'hello',
  'heartbeat',
  'selftest',
  'location',
  'usage',
  'file',
  'ack',
]
export const CABINET_TYPES: readonly MessageType[] = [
  'hello',
  'heartbeat',
  'location',
  'ack',
  'cabinet_status',
  'door',
]

/** The envelope around every message. */
export const envelopeSchema = z.object({
  v: z.literal(PROTOCOL_VERSION).describe('Protocol version'),
  id: z
    .string()
    .regex(/^[\x21-\x7e]{1,64}$/, '1 to 64 printable characters')
    .describe('Unique per device, printable ASCII without spaces: the same id again is a duplicate'),
  seq: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .describe('Message counter: one more for every message of a boot'),
  boot: z
    .number()
    .int()
    .min(0)
    .max(2_147_483_647)
    .describe('Start counter: one more at every power-on, kept in flash'),
  ts: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .describe('When the device made the message: Unix milliseconds, device clock'),
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,31}$/, 'lower-case letters, digits and _')
    .describe('The message type; an unknown type is stored and ignored'),
  data: z
    .record(z.string(), z.unknown())
    .describe("The type's fields; fields not described are kept and ignored"),
})

/** A message that passed validation; `data` is its type's shape (or the raw object for an unknown type). */
export type DeviceMessage = {
  [T in MessageType]: Omit<z.output<typeof envelopeSchema>, 'type' | 'data'> & {
    type: T
    data: z.output<(typeof messageData)[T]>
  }
}[MessageType]
export type UnknownMessage = Omit<z.output<typeof envelopeSchema>, 'type'> & { type: string }

/** Why a message was refused: its id when it had one, and the first bad field (`data.battery`). */
export type MessageProblem = {
  id: string | null
  code: 'invalid' | 'too_large'
  field: string
  reason: string
}

export type ParsedMessage =
  | { ok: true; known: true; message: DeviceMessage }
  | { ok: true; known: false; message: UnknownMessage }
  | { ok: false; problem: MessageProblem }

/** A lone UTF-16 surrogate: text that no UTF-8 encoding (and no PostgreSQL column) can hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether a string is well-formed Unicode (String.prototype.isWellFormed, ES2024). */
export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s)
}

function idOf(raw: unknown): string | null {
  const id = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined
  return typeof id === 'string' && isWellFormedText(id) ? id.slice(0, 64) : null
}

function problemOf(raw: unknown, issue: z.core.$ZodIssue | undefined, prefix: string[]): MessageProblem {
  const path = [...prefix, ...(issue?.path ?? []).map(String)]
  return {
    id: idOf(raw),
    code: 'invalid',
    field: path.join('.') || '(message)',
    reason: issue?.message ?? 'invalid',
  }
}

/**
 * What no schema sees but the database and the stack would: nesting deeper than MAX_DEPTH,
 * text (keys too) that is not well-formed Unicode (a lone surrogate such as `\ud800`) or holds
 * U+0000, which PostgreSQL cannot store. Walks without recursion, so any depth is safe to ask.
 */
export function shapeProblem(raw: unknown): MessageProblem | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: raw, path: '', depth: 0 }]
  const bad = (path: string, reason: string): MessageProblem => ({
    id: idOf(raw),
    code: 'invalid',
    field: path || '(message)',
    reason,
  })
  const textProblem = (s: string) =>
    !isWellFormedText(s) ? 'not well-formed Unicode' : s.includes('\u0000') ? 'contains U+0000' : null
  while (stack.length) {
    const { v, path, depth } = stack.pop() as { v: unknown; path: string; depth: number }
    if (typeof v === 'string') {
      const p = textProblem(v)
      if (p) return bad(path, p)
      continue
    }
    if (v === null || typeof v !== 'object') continue
    if (depth >= MAX_DEPTH) return bad(path, `nested deeper than ${MAX_DEPTH} levels`)
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v)
    for (const [k, x] of entries) {
      const at = path ? `${path}.${k}` : k
      const p = textProblem(k)
      if (p) return bad(path || '(message)', `a key is ${p}`)
      stack.push({ v: x, path: at, depth: depth + 1 })
    }
  }
  return null
}

/** Checks one message: its shape, its size, the envelope and its type's schema. */
export function parseDeviceMessage(raw: unknown): ParsedMessage {
  const shape = shapeProblem(raw)
  if (shape) return { ok: false, problem: shape }
  const size = new TextEncoder().encode(JSON.stringify(raw)).length
  if (size > MAX_MESSAGE_BYTES) {
    return {
      ok: false,
      problem: {
        id: idOf(raw),
        code: 'too_large',
        field: '(message)',
        reason: `larger than ${MAX_MESSAGE_BYTES} bytes`,
      },
    }
  }
  const env = envelopeSchema.safeParse(raw)
  if (!env.success) return { ok: false, problem: problemOf(raw, env.error.issues[0], []) }
  const type = env.data.type
  if (!(type in messageData)) return { ok: true, known: false, message: env.data }
  const data = messageData[type as MessageType].safeParse(env.data.data)
  if (!data.success) return { ok: false, problem: problemOf(raw, data.error.issues[0], ['data']) }
  return { ok: true, known: true, message: { ...env.data, type, data: data.data } as DeviceMessage }
}

// Commands

/** What the platform can ask of a device; cabinets also take unlock and siren. */
export const COMMAND_NAMES = ['selftest', 'set_interval', 'locate', 'unlock', 'siren'] as const
export type CommandName = (typeof COMMAND_NAMES)[number]
/** Commands an AED takes from the console. */
export const AED_CONSOLE_COMMANDS = ['selftest', 'locate'] as const
/** A command waits this long for the device, then expires. */
export const COMMAND_TTL_MS = 24 * 3600_000

/** A command as the device receives it (MQTT `down/cmd` payload, or an item of `cmds`). */
export const deviceCommandSchema = z.object({
  cmd_id: z.string().describe('The command id (a UUID): answer it in an `ack`; run each cmd_id once'),
  name: z.enum(COMMAND_NAMES).describe('What to do (see Commands)'),
  args: z
    .record(z.string(), z.unknown())
    .describe("The command's arguments; `{}` for every command sent today"),
  /** ISO 8601. */
  expires_at: z.string().describe('ISO 8601 UTC time after which the command is void: do not run it then'),
})
export type DeviceCommand = z.infer<typeof deviceCommandSchema>

/** Where a command is: waiting, delivered to the device, answered by its `ack`, or expired. */
export const COMMAND_STATES = ['pending', 'sent', 'done', 'failed', 'expired'] as const
export type CommandState = (typeof COMMAND_STATES)[number]
export const COMMAND_STATE_LABELS: Record<CommandState, Label> = {
  pending: ['待下发', 'Waiting'],
  sent: ['已下发', 'Delivered'],
  done: ['已执行', 'Done'],
  failed: ['执行失败', 'Failed'],
  expired: ['已过期', 'Expired'],
}
export const COMMAND_LABELS: Record<CommandName, Label> = {
  selftest: ['远程自检', 'Self-test'],
  set_interval: ['设置上报间隔', 'Set report interval'],
  locate: ['获取定位', 'Locate'],
  unlock: ['远程开锁', 'Unlock'],
  siren: ['鸣笛', 'Siren'],
}

// Conditions and readiness

/** Early-warning codes (device_events.code of kind 'warning'). */
export const WARNING_CODES = {
  pads_expiring: ['电极片即将过期', 'Pads expiring soon'],
  battery_expiring: ['电池即将过期', 'Battery expiring soon'],
  pads_expired: ['电极片已过期', 'Pads expired'],
  battery_expired: ['电池已过期', 'Battery expired'],
  host_expired: ['设备已过期', 'Device expired'],
  battery_low: ['电量低', 'Battery low'],
  battery_exhausted: ['电量耗尽', 'Battery exhausted'],
  /** The AED left its rescue cabinet and was not back some hours after the door closed. */
  not_returned: ['AED未归还救护箱', 'AED not returned to its cabinet'],
} as const satisfies Record<string, Label>
export type WarningCode = keyof typeof WARNING_CODES

/** The self-test fault code dictionary: what a code in `fault_codes` means. */
export const FAULT_CODES: Record<string, Label> = {
  E01: ['电极片未连接或损坏', 'Pads not connected or damaged'],
  E02: ['电池故障', 'Battery fault'],
  E03: ['高压充电电路故障', 'High-voltage charging circuit fault'],
  E04: ['放电电路故障', 'Discharge circuit fault'],
  E05: ['心电采集电路故障', 'ECG acquisition circuit fault'],
  E06: ['语音或扬声器故障', 'Voice prompt or speaker fault'],
  E07: ['主控板故障', 'Main board fault'],
  E08: ['存储器故障', 'Memory fault'],
  E09: ['按键故障', 'Button fault'],
  E10: ['工作温度超出范围', 'Operating temperature out of range'],
}
/** A failed self-test that names no code opens this fault. */
export const UNSPECIFIED_FAULT = 'E00'

/** The description of a fault code (the code itself in the text when the dictionary lacks it). */
export function faultDescription(code: string, lang: 'zh-CN' | 'en-US' = 'zh-CN'): string {
  if (code === UNSPECIFIED_FAULT) return lang === 'zh-CN' ? '自检未通过' : 'Self-test failed'
  const label = FAULT_CODES[code]
  if (label) return lang === 'zh-CN' ? label[0] : label[1]
  return lang === 'zh-CN' ? `未知故障（${code}）` : `Unknown fault (${code})`
}

/** Whether the AED would work if someone collapsed now. */
export const READINESS = ['ready', 'not_ready', 'unknown'] as const
export type Readiness = (typeof READINESS)[number]
export const READINESS_LABELS: Record<Readiness, Label> = {
  ready: ['可用', 'Ready'],
  not_ready: ['不可用', 'Not ready'],
  unknown: ['未知', 'Unknown'],
}
/** Why a device is not ready (or its readiness unknown). */
export const READINESS_REASONS = {
  fault: ['自检故障', 'Self-test fault'],
  pads_expired: ['电极片已过期', 'Pads expired'],
  battery_expired: ['电池已过期', 'Battery expired'],
  battery_exhausted: ['电量耗尽', 'Battery exhausted'],
  in_use: ['正在使用', 'In use'],
  offline: ['设备离线', 'Offline'],
  never_reported: ['从未上报', 'Never reported'],
  /** Reported, but no self-test has passed yet: nobody knows it works. */
  never_verified: ['从未自检通过', 'Never verified'],
} as const satisfies Record<string, Label>
export type ReadinessReason = keyof typeof READINESS_REASONS

// Gateway calls (the device-api prefix: HMAC-signed, see plugins/auth/device.ts)

/**
 * Why a message was not taken: `invalid` (a field, named), `too_large`, `seq_reused` (its
 * (boot, seq) was used before by a message with another body), `qos` and `retained` (MQTT only).
 */
export const REFUSAL_CODES = ['invalid', 'too_large', 'seq_reused', 'qos', 'retained'] as const
export type RefusalCode = (typeof REFUSAL_CODES)[number]

/** A message refused: nothing of it was stored. `index` is its place in the request (0 on MQTT). */
export const refusalSchema = z.object({
  index: z.number().int().describe("The message's place in the request, from 0 (0 on MQTT)"),
  id: z.string().nullable().describe("The message's id; null when it had none that could be read"),
  code: z.enum(REFUSAL_CODES).describe('Why (see Refusal codes)'),
  field: z.string().describe('The first bad field as a path (`data.battery`), or `(message)`, `(publish)`'),
  reason: z.string().describe('What is wrong with it, in English, for the log'),
})
export type Refusal = z.infer<typeof refusalSchema>

/**
 * HTTPS answer to a batch, one list per fate: applied now (`acked`), seen before (`duplicates`),
 * stored but older than the device's state so it changed nothing current (`stale`), refused
 * (`refused`, nothing stored), and the commands waiting for the device.
 */
export const messagesAnswer = z.object({
  acked: z.array(z.string()).describe('Ids stored and applied now (or stored and ignored: an unknown type)'),
  duplicates: z.array(z.string()).describe('Ids stored before: nothing done again'),
  stale: z
    .array(z.string())
    .describe("Ids stored as history, older than the device's state: nothing current changed"),
  refused: z.array(refusalSchema).describe('Messages refused, nothing of them stored (see Refusal)'),
  cmds: z.array(deviceCommandSchema).describe('Commands waiting for the device (see Commands)'),
})
export type MessagesAnswer = z.infer<typeof messagesAnswer>

/** The refusal of a message whose (boot, seq) was used by a stored message with another body. */
export function seqReusedRefusal(id: string, index: number): Refusal {
  return {
    index,
    id,
    code: 'seq_reused',
    field: 'seq',
    reason: 'this (boot, seq) was sent before with another body',
  }
}

/** What an MQTT device hears on `down/result` about a publish that was not applied as sent. */
export const publishResultSchema = z.object({
  id: z.string().nullable().describe("The message's id; null when it had none that could be read"),
  result: z
    .enum(['stale', 'refused'])
    .describe('stale: stored as history, nothing current changed; refused: nothing stored'),
  code: z.enum([...REFUSAL_CODES, 'stale']).describe('A refusal code, or stale'),
  field: z.string().nullable().describe('The first bad field of a refused message; null when stale'),
  reason: z.string().describe('What happened, in English, for the log'),
})
export type PublishResult = z.infer<typeof publishResultSchema>

export const fileQuery = z.object({
  kind: z.literal('ecg').describe('The kind of file'),
  rescue_event_id: text(64).describe('The rescue the file belongs to'),
})
export const fileAnswer = z.object({
  file_id: z
    .string()
    .describe('The id to name in the `file` message: `ecg-` and 32 hex characters of the SHA-256'),
  sha256: z.string().describe('Hex SHA-256 of the bytes received'),
})

/** EMQX HTTP authentication hook body. */
export const mqttAuthBody = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256),
  password: z.string().max(512),
})
/** EMQX HTTP authorisation hook body. */
export const mqttAclBody = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256).optional(),
  topic: z.string().max(1024),
  action: z.enum(['publish', 'subscribe']),
})
export const mqttHookAnswer = z.object({ result: z.enum(['allow', 'deny']) })

/** The device gateway's HTTPS calls. Bodies are read raw (the signature covers the bytes). */
export const gatewayApi = {
  messages: post('/device-api/v1/messages', {
    summary:
      'A device reports one message or an array of at most 100 (docs/device-protocol.md); answered after commit',
    body: z.unknown(),
    response: messagesAnswer,
  }),
  files: post('/device-api/v1/files', {
    summary: 'A device uploads a rescue file (ECG), raw octet-stream body of at most 20 MB',
    query: fileQuery,
    response: fileAnswer,
  }),
}
