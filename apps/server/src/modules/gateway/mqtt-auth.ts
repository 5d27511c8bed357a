import crypto from 'node:crypto'
import { parseDeviceMessage, TOPIC_PREFIX } from '@aed/contracts/device-protocol'
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

/** What one PUBLISH came to: a message to store, or why it is refused. */
export type PublishCheck = { ok: true; accepted: Accepted } | { ok: false; reason: string }

/**
 * Checks one PUBLISH of device `sn`: its own up topic, one JSON message as payload, valid by
 * the protocol's schema, whose envelope `type` is the topic's `{type}`.
 */
export function acceptPublish(sn: string, topic: string, payload: Buffer | string): PublishCheck {
  const type = publishType(sn, topic)
  if (!type) return { ok: false, reason: `topic not allowed: ${topic.slice(0, 200)}` }
  let raw: unknown
  try {
    raw = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'))
  } catch {
    return { ok: false, reason: 'payload is not JSON' }
  }
  if (Array.isArray(raw)) return { ok: false, reason: 'one message per publish' }
  const parsed = parseDeviceMessage(raw)
  if (!parsed.ok) {
    const p = parsed.problem
    return { ok: false, reason: `message ${p.id ?? '?'}: ${p.field}: ${p.reason}` }
  }
  if (parsed.message.type !== type) {
    return { ok: false, reason: `type ${parsed.message.type} on the topic of ${type}` }
  }
  return { ok: true, accepted: { known: parsed.known, message: parsed.message } }
}
