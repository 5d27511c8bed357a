import crypto from 'node:crypto'
import {
  isWellFormedText,
  MAX_MESSAGE_BYTES,
  type PublishResult,
  parseDeviceMessage,
  type Refusal,
  seqReusedRefusal,
  TOPIC_PREFIX,
} from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import type { DeviceCredentialLookup, DeviceIdentity } from '../../plugins/auth/device.ts'
import { DEVICE_TS_WINDOW_MS } from '../../plugins/auth/device.ts'
import { rememberMqttConnect } from '../../plugins/auth/device-nonces.repository.ts'
import type { Accepted } from '../engine/engine.service.ts'

// The MQTT rules of docs/device-protocol.md, shared by the embedded broker and the external
// broker's HTTP hooks: who may connect, and which topics a device may publish and subscribe to.

const SN = /^[A-Za-z0-9_-]{1,64}$/
const TS = /^\d{10,16}$/
const HEX64 = /^[0-9a-fA-F]{64}$/
/** The `{type}` level of an up topic: the envelope's type rule. */
const TYPE = /^[a-z][a-z0-9_]{0,31}$/

/** The CONNECT password a device sends: hex(HMAC-SHA256(secret, serial + ts)). */
export function mqttPassword(secret: string, sn: string, ts: string | number): string {
  return crypto.createHmac('sha256', secret).update(`${sn}${ts}`).digest('hex')
}

/** The CONNECT username a device sends: `{serial}|{ts}`. */
export function mqttUsername(sn: string, ts: string | number): string {
  return `${sn}|${ts}`
}

export type ConnectAttempt = {
  clientId: string
  username: string | null | undefined
  password: string | Buffer | null | undefined
}

/**
 * The serial and ts a CONNECT claims, when its shape is right: client id = serial, username
 * `{serial}|{ts}` with the same serial, a 64-hex-character password. Null otherwise.
 */
export function connectClaim(a: ConnectAttempt): { sn: string; ts: string; password: Buffer } | null {
  if (!a.username || a.password == null) return null
  const bar = a.username.indexOf('|')
  if (bar < 0) return null
  const sn = a.username.slice(0, bar)
  const ts = a.username.slice(bar + 1)
  if (!SN.test(sn) || !TS.test(ts) || a.clientId !== sn) return null
  const password = typeof a.password === 'string' ? a.password : a.password.toString('utf8')
  if (!HEX64.test(password)) return null
  return { sn, ts, password: Buffer.from(password.toLowerCase(), 'hex') }
}

/** Whether a device ts is within 15 minutes of the server's time. */
export function tsFresh(ts: string, now: Date): boolean {
  return Math.abs(Number(ts) - now.getTime()) <= DEVICE_TS_WINDOW_MS
}

/** Whether the password is the HMAC of serial + ts under one of the device's secrets (current or previous). */
export function passwordMatches(
  secrets: readonly string[],
  sn: string,
  ts: string,
  password: Buffer,
): boolean {
  let ok = false
  for (const secret of secrets) {
    const expected = Buffer.from(mqttPassword(secret, sn, ts), 'hex')
    // Every secret is compared, so the time taken does not tell which one matched.
    if (expected.length === password.length && crypto.timingSafeEqual(expected, password)) ok = true
  }
  return ok
}

export type ConnectDeps = {
  deviceCredentials: DeviceCredentialLookup
  now: () => Date
  /**
   * Records that the device's password for `ts` was accepted; false when it already was (see
   * `rememberMqttConnect`): a password is good for one CONNECT.
   */
  firstUse: (sn: string, ts: string) => Promise<boolean>
}

/**
 * Checks a CONNECT: its shape, its ts (at most 15 minutes off), the device (unknown or deleted
 * is refused), the password, and that this serial and ts were not accepted before (a captured
 * password replayed). Answers the device, or null for any refusal (nothing more told).
 */
export async function authenticateConnect(
  deps: ConnectDeps,
  a: ConnectAttempt,
): Promise<DeviceIdentity | null> {
  const claim = connectClaim(a)
  if (!claim || !tsFresh(claim.ts, deps.now())) return null
  const creds = await deps.deviceCredentials(claim.sn)
  if (!creds || creds.sn !== claim.sn || creds.secrets.length === 0) return null
  if (!passwordMatches(creds.secrets, claim.sn, claim.ts, claim.password)) return null
  // Only a matching password is recorded: nobody without the secret can use up a device's ts.
  if (!(await deps.firstUse(claim.sn, claim.ts))) return null
  return { kind: creds.kind, id: creds.id, sn: creds.sn }
}

/** What `authenticateConnect` needs of the server: its devices, its clock, the nonce table. */
export function connectDeps(ctx: AppContext): ConnectDeps {
  return {
    deviceCredentials: ctx.deviceCredentials,
    now: () => ctx.clock.now(),
    firstUse: (sn, ts) => rememberMqttConnect(ctx.db, sn, ts, ctx.clock.now()),
  }
}

/** The serial a CONNECT's client id or username names, for the ACL hook (null when malformed). */
export function serialOf(clientId: string, username?: string | null): string | null {
  if (!SN.test(clientId)) return null
  if (username) {
    const bar = username.indexOf('|')
    if (bar < 0 || username.slice(0, bar) !== clientId) return null
  }
  return clientId
}

/** The serial and type of an up topic `aed/v1/{serial}/up/{type}`; null for any other topic. */
export function parseUpTopic(topic: string): { sn: string; type: string } | null {
  const parts = topic.split('/')
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}` !== TOPIC_PREFIX || parts[3] !== 'up') return null
  const [, , sn, , type] = parts
  if (!SN.test(sn) || !TYPE.test(type)) return null
  return { sn, type }
}

/** The message type a device may publish on `topic`, or null when the topic is not its own up topic. */
export function publishType(sn: string, topic: string): string | null {
  const up = parseUpTopic(topic)
  return up && up.sn === sn ? up.type : null
}

/**
 * Whether a device may subscribe to `filter`: its own `aed/v1/{serial}/down/#` or anything
 * narrower under it (`down/cmd`, `down/+`); never another device's, a shared subscription or `#`.
 */
export function maySubscribe(sn: string, filter: string): boolean {
  const base = `${TOPIC_PREFIX}/${sn}/down`
  if (filter === base) return true
  if (!filter.startsWith(`${base}/`)) return false
  const rest = filter.slice(base.length + 1).split('/')
  return rest.every((level, i) => {
    if (level === '#') return i === rest.length - 1
    if (level === '+') return true
    return !level.includes('#') && !level.includes('+')
  })
}

/** Whether `topic` is some device's down topic (what the server itself publishes commands on). */
export function isDownTopic(topic: string): boolean {
  const parts = topic.split('/')
  return (
    parts.length >= 5 &&
    `${parts[0]}/${parts[1]}` === TOPIC_PREFIX &&
    SN.test(parts[2]) &&
    parts[3] === 'down' &&
    parts.slice(4).every((p) => p !== '' && !p.includes('#') && !p.includes('+'))
  )
}

/** Whether an MQTT topic filter (with `+` and `#`) matches a topic name. */
export function filterMatches(filter: string, topic: string): boolean {
  const f = filter.split('/')
  const t = topic.split('/')
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true
    if (i >= t.length) return false
    if (f[i] !== '+' && f[i] !== t[i]) return false
  }
  return f.length === t.length
}

/**
 * What one PUBLISH came to: a message to store; a message refused, which the device is told on
 * its `down/result` topic (nothing stored); or a topic the device may not publish on, which ends
 * its connection.
 */
export type PublishCheck =
  | { ok: true; accepted: Accepted }
  | { ok: false; refusal: Refusal }
  | { ok: false; forbidden: string }

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Checks one PUBLISH of device `sn`: its own up topic, QoS 1 and not retained (when the
 * transport tells), one JSON message in UTF-8 as payload, valid by the protocol's schema and
 * size limit, whose envelope `type` is the topic's `{type}`.
 */
export function acceptPublish(
  sn: string,
  topic: string,
  payload: Buffer | string,
  flags: { qos?: number; retain?: boolean } = {},
): PublishCheck {
  const type = publishType(sn, topic)
  if (!type) return { ok: false, forbidden: `topic not allowed: ${topic.slice(0, 200)}` }
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload
  // The payload is read once: the refusals before the schema name the message's id from it too.
  const raw = jsonOf(bytes)
  const refuse = (code: Refusal['code'], field: string, reason: string, id = idOf(raw)) => ({
    ok: false as const,
    refusal: { index: 0, id, code, field, reason },
  })
  if (flags.qos !== undefined && flags.qos !== 1) return refuse('qos', '(publish)', 'publish at QoS 1')
  if (flags.retain) return refuse('retained', '(publish)', 'device messages are not retained')
  if (bytes.length > MAX_MESSAGE_BYTES) {
    return refuse('too_large', '(message)', `larger than ${MAX_MESSAGE_BYTES} bytes`)
  }
  if (raw === NOT_JSON) return refuse('invalid', '(message)', 'payload is not JSON in UTF-8', null)
  if (Array.isArray(raw)) return refuse('invalid', '(message)', 'one message per publish', null)
  const parsed = parseDeviceMessage(raw)
  if (!parsed.ok) {
    const p = parsed.problem
    return refuse(p.code, p.field, p.reason, p.id)
  }
  if (parsed.message.type !== type) {
    return refuse('invalid', 'type', `type ${parsed.message.type} on the topic of ${type}`, parsed.message.id)
  }
  return { ok: true, accepted: { known: parsed.known, message: parsed.message } }
}

const NOT_JSON = Symbol('not JSON in UTF-8')

/** A payload's JSON value, or NOT_JSON when it is not well-formed UTF-8 and JSON. */
function jsonOf(bytes: Buffer): unknown {
  try {
    return JSON.parse(utf8.decode(bytes))
  } catch {
    return NOT_JSON
  }
}

/** The message id a refused payload names, when it can be read (so the device knows which one). */
function idOf(raw: unknown): string | null {
  const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined
  return typeof id === 'string' && isWellFormedText(id) ? id.slice(0, 64) : null
}

/** What a device is told on `down/result` of what the engine made of its publish; null: applied or a duplicate. */
export function outcomeResult(r: { id: string; outcome: string }): PublishResult | null {
  if (r.outcome === 'stale') return publishResult({ stale: r.id })
  if (r.outcome === 'seq_reused') return publishResult({ refusal: seqReusedRefusal(r.id, 0) })
  return null
}

/** What a device is told on `down/result` of a publish that was not applied as sent. */
export function publishResult(r: { refusal: Refusal } | { stale: string }): PublishResult {
  if ('stale' in r) {
    return {
      id: r.stale,
      result: 'stale',
      code: 'stale',
      field: null,
      reason:
        'older than the device state: stored, changed nothing current; send hello after a counter reset',
    }
  }
  const f = r.refusal
  return { id: f.id, result: 'refused', code: f.code, field: f.field, reason: f.reason }
}

/** The username form of a device's Mosquitto dynamic-security account: `{serial}|{8 hex}`. */
export const DYNSEC_USERNAME = /^([A-Za-z0-9_-]{1,64})\|([0-9a-f]{8})$/

const hmacHex = (secret: string, text: string) =>
  crypto.createHmac('sha256', secret).update(text).digest('hex')

/**
 * A device's account on Mosquitto with MQTT_AUTH=mosquitto-dynsec, for one of its secrets: the
 * broker keeps one static password per account, so the password is the HMAC of "mqtt:" + serial
 * (not of a ts), and the username carries a tag of the secret (`{serial}|` + the first 8 hex of
 * the HMAC of "mqtt-user:" + serial), so the two secrets of a rotation's overlap are two accounts
 * the device tells apart by computing them.
 */
export function dynsecLogin(secret: string, sn: string): { username: string; password: string } {
  return {
    username: `${sn}|${hmacHex(secret, `mqtt-user:${sn}`).slice(0, 8)}`,
    password: hmacHex(secret, `mqtt:${sn}`),
  }
}
