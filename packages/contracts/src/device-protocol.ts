import { z } from 'zod'
import type { Label } from './constants.ts'
import { endpoint } from './endpoint.ts'

// Device protocol v1 (docs/device-protocol.md): one schema for MQTT and HTTPS, so a message
// means the same whichever way it came. Fields may be added by devices; what is read is checked.

/** The protocol version in every envelope's `v`. */
export const PROTOCOL_VERSION = 1
/** At most this many messages in one HTTPS request. */
export const MAX_BATCH = 100
/** A rescue file (ECG) is at most this large. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024
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

const text = (max: number) => z.string().trim().min(1).max(max)
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
const percent = z.number().int().min(0).max(100)

/** `data` of each message type; unknown fields pass through untouched. */
export const messageData = {
  hello: z.looseObject({
    model: text(16).optional(),
    fw_version: text(32).optional(),
    /** How often the device reports, in seconds (a minute to a week). */
    report_interval_s: z
      .number()
      .int()
      .min(60)
      .max(7 * 86400)
      .optional(),
  }),
  heartbeat: z.looseObject({
    battery: percent,
    rssi: z.number().int().min(-150).max(0).optional(),
    cable_voltage: z.number().min(0).max(100).optional(),
  }),
  selftest: z.looseObject({
    /** -1 user inspection, 0 power-on, 1 standby, 2 user self-test. */
    report_type: z.number().int().min(-1).max(2),
    result: z.enum(['pass', 'fail']),
    fault_codes: z.array(text(16)).max(20).default([]),
    battery: percent.optional(),
    electrode_sheet_expire: date.optional(),
    battery_expire: date.optional(),
    pads_connected: z.boolean().optional(),
  }),
  location: z.looseObject({
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
    positioning_type: z.enum(['gps', 'lbs', 'wifi']),
    accuracy_m: z.number().min(0).max(100_000).optional(),
    altitude: z.number().min(-1000).max(10_000).optional(),
  }),
  usage: z.looseObject({
    rescue_event_id: text(64),
    /** Unix milliseconds on the device clock. */
    event_time: z.number().int().positive(),
    event_desc: text(200),
    event_para: z.unknown().optional(),
  }),
  file: z.looseObject({
    rescue_event_id: text(64),
    kind: z.literal('ecg'),
    file_id: text(64),
  }),
  ack: z.looseObject({
    cmd_id: text(64),
    ok: z.boolean(),
    error: z.string().max(200).optional(),
  }),
  cabinet_status: z.looseObject({
    door_status: z.union([z.literal(0), z.literal(1)]),
    battery_power: percent.optional(),
    fw_version: text(32).optional(),
    lat: z.number().min(-90).max(90).optional(),
    lon: z.number().min(-180).max(180).optional(),
    altitude: z.number().min(-1000).max(10_000).optional(),
    aed_present: z.boolean().optional(),
  }),
  door: z.looseObject({ door_status: z.union([z.literal(0), z.literal(1)]) }),
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
  v: z.literal(PROTOCOL_VERSION),
  id: z.string().regex(/^[\x21-\x7e]{1,64}$/, '1 to 64 printable characters'),
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  boot: z.number().int().min(0).max(2_147_483_647),
  ts: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  type: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'lower-case letters, digits and _'),
  data: z.record(z.string(), z.unknown()),
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
export type MessageProblem = { id: string | null; field: string; reason: string }

export type ParsedMessage =
  | { ok: true; known: true; message: DeviceMessage }
  | { ok: true; known: false; message: UnknownMessage }
  | { ok: false; problem: MessageProblem }

function problemOf(raw: unknown, issue: z.core.$ZodIssue | undefined, prefix: string[]): MessageProblem {
  const id =
    raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
      ? ((raw as { id: string }).id.slice(0, 64) as string)
      : null
  const path = [...prefix, ...(issue?.path ?? []).map(String)]
  return { id, field: path.join('.') || '(message)', reason: issue?.message ?? 'invalid' }
}

/** Checks one message against the envelope and its type's schema. */
export function parseDeviceMessage(raw: unknown): ParsedMessage {
  const env = envelopeSchema.safeParse(raw)
  if (!env.success) return { ok: false, problem: problemOf(raw, env.error.issues[0], []) }
  // PostgreSQL cannot store U+0000 in text or jsonb: such a message is refused, never half-kept.
  if (JSON.stringify(env.data.data).includes('\\u0000')) {
    return { ok: false, problem: { id: env.data.id, field: 'data', reason: 'contains U+0000' } }
  }
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
  cmd_id: z.string(),
  name: z.enum(COMMAND_NAMES),
  args: z.record(z.string(), z.unknown()),
  /** ISO 8601. */
  expires_at: z.string(),
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
} as const satisfies Record<string, Label>
export type ReadinessReason = keyof typeof READINESS_REASONS

// Gateway calls (the device-api prefix: HMAC-signed, see plugins/auth/device.ts)

/** HTTPS answer to a batch: what was stored, what was seen before, and commands waiting. */
export const messagesAnswer = z.object({
  acked: z.array(z.string()),
  duplicates: z.array(z.string()),
  cmds: z.array(deviceCommandSchema),
})
export type MessagesAnswer = z.infer<typeof messagesAnswer>

export const fileQuery = z.object({
  kind: z.literal('ecg'),
  rescue_event_id: text(64),
})
export const fileAnswer = z.object({ file_id: z.string(), sha256: z.string() })

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
  messages: endpoint({
    method: 'POST',
    path: '/device-api/v1/messages',
    summary:
      'A device reports one message or an array of at most 100 (docs/device-protocol.md); answered after commit',
    body: z.unknown(),
    response: messagesAnswer,
  }),
  files: endpoint({
    method: 'POST',
    path: '/device-api/v1/files',
    summary: 'A device uploads a rescue file (ECG), raw octet-stream body of at most 20 MB',
    query: fileQuery,
    response: fileAnswer,
  }),
}
