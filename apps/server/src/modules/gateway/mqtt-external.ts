import os from 'node:os'
import {
  commandTopic,
  type PublishResult,
  resultTopic,
  SHARED_SUBSCRIPTION,
} from '@aed/contracts/device-protocol'
import { connect, type IClientOptions, type ISubscriptionMap, type MqttClient } from 'mqtt'
import type { AppContext } from '../../context.ts'
import type { Unsubscribe } from '../../db/events.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import * as commands from '../device/device-command.port.ts'
import { COMMAND_CHANNEL, type CommandNotice } from '../device/device-command.service.ts'
import { ingestFrom } from './gateway.service.ts'
import { acceptPublish, outcomeResult, parseUpTopic, publishResult } from './mqtt-auth.ts'
import { keepSessions } from './mqtt-sessions.ts'

export type ExternalGatewayOptions = {
  url: string
  /** Stable per instance: the broker keeps this session's unacknowledged messages. */
  clientId: string
  username?: string
  password?: string
  /** What to subscribe to; SHARED_SUBSCRIPTION unless a test's broker has no shared subscriptions. */
  subscription?: string
  /** After the ACL hook let a device subscribe, how long to wait before sending its commands. */
  deliverDelayMs?: number
  /** Extra mqtt.js options (tests: reconnect period, TLS). */
  client?: Partial<IClientOptions>
  /**
   * Connections reading the shared subscription (default CONSUMERS; always 1 on a plain
   * subscription, where each connection would get every message).
   */
  consumers?: number
  /** Orphaned sessions (mqtt-sessions.ts): how often to look, when one is an orphan, and how long a drained one must stay quiet (tests shorten them). */
  sessions?: { sweepMs?: number; staleMs?: number; quietMs?: number }
}

/**
 * Connections per instance reading the shared subscription. One is enough since each pipelines
 * PIPELINE messages (storeFrom), and measured best (bench:mqtt: more connections split a device's
 * messages across streams that then wait on each other); more stay possible for a broker whose
 * in-flight window per connection is small.
 */
export const CONSUMERS = 1

/**
 * Messages one connection stores at once. The broker's in-flight window toward the server must be
 * as wide for it to count (Mosquitto's max_inflight_messages, 20 by default: docs/deploy.md sets
 * 1000). Measured (bench:mqtt): 64 under a window of 200 drained 4,175 msg/s, 256 under 1000
 * 8,573-9,389 msg/s, with the embedded broker at 8,871.
 */
export const PIPELINE = 256

/** Given to mqtt.js's `handleMessage` callback so that it sends no PUBACK of its own (storeFrom). */
const DEFERRED = new Error('acknowledged after the commit')

/** mqtt.js's own packet writer: the only way to send a PUBACK later than its handler would. */
function sendPacket(c: MqttClient, packet: { cmd: 'puback'; messageId: number }) {
  ;(c as unknown as { _sendPacket(p: typeof packet): void })._sendPacket(packet)
}

export type ExternalGateway = {
  /** The first connection: it also publishes commands and results, and tells readiness. */
  client: MqttClient
  /** Every connection reading the subscription, the first included. */
  consumers: MqttClient[]
  /** Resolves once connected and subscribed (the first time). */
  ready: Promise<void>
  /** The ACL hook let `device` subscribe to its down topic: send what waits for it shortly. */
  deviceSubscribed(device: DeviceIdentity): void
  close(): Promise<void>
}

/** The running external gateway of a context, for the broker's hooks (mqtt-hooks.routes.ts). */
export const externalGateways = new WeakMap<AppContext, ExternalGateway>()

/** The default client id: the same across restarts on one host only when MQTT_CLIENT_ID is set. */
export function defaultClientId() {
  return `aedcloud-${os.hostname()}-${process.pid}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * Reads devices from an external broker (MQTT_URL): one shared subscription at QoS 1 with
 * persistent sessions (CONSUMERS connections per instance, client ids `{clientId}` then
 * `{clientId}-2`...), so several server instances share the load and the broker keeps what no
 * instance has stored. Each message is acknowledged (PUBACK) only after the engine's commit,
 * with up to PIPELINE under way per connection (storeFrom).
 * A message the server cannot store is not acknowledged and the connection is dropped, so the
 * broker hands it over again (to this instance when it reconnects, or to another). A message
 * that can never be stored (no such device, malformed) is acknowledged and logged: the broker's
 * hooks already refused what they could, and a poison message must not come back forever.
 */
export function startExternalGateway(ctx: AppContext, opts: ExternalGatewayOptions): ExternalGateway {
  const log = ctx.log.child({ module: 'mqtt' })
  const subscription = opts.subscription ?? SHARED_SUBSCRIPTION
  const count = subscription.startsWith('$share/') ? Math.max(1, opts.consumers ?? CONSUMERS) : 1
  const connectAs = (clientId: string, over: Partial<IClientOptions> = {}) =>
    connect(opts.url, {
      clientId,
      clean: false,
      protocolVersion: 4,
      username: opts.username,
      password: opts.password,
      // Soon after a broker restart: devices' messages that arrive before any instance has
      // subscribed again are acknowledged by the broker and routed nowhere (docs/deploy.md).
      reconnectPeriod: 250,
      connectTimeout: 10_000,
      ...opts.client,
      ...over,
    })
  // The first keeps the plain client id, so an instance's session from before stays its own.
  const consumers = Array.from({ length: count }, (_, k) =>
    connectAs(k === 0 ? opts.clientId : `${opts.clientId.slice(0, 60)}-${k + 1}`),
  )
  const client = consumers[0]
  const inflight = new Set<Promise<unknown>>()
  const timers = new Set<NodeJS.Timeout>()
  function track<T>(p: Promise<T>): Promise<T> {
    inflight.add(p)
    const done = () => void inflight.delete(p)
    p.then(done, done)
    return p
  }

  /** Per device, the tail of its messages being stored here: one device's go one at a time, in order. */
  const tails = new Map<string, Promise<void>>()
  /**
   * Who a serial is, for a few seconds: the broker authenticated the device already, and one
   * lookup a message was the consumer's bottleneck. A deleted device is refused by the broker
   * itself (dynsec drops its connection; EMQX's authorisation cache keeps it longer than this).
   */
  const identities = new Map<string, { who: DeviceIdentity; until: number }>()
  const IDENTITY_MS = 5000

  async function identity(sn: string): Promise<DeviceIdentity | null> {
    const now = Date.now()
    const known = identities.get(sn)
    if (known && known.until > now) return known.who
    const creds = await ctx.deviceCredentials(sn)
    if (!creds) return null
    const who = { kind: creds.kind, id: creds.id, sn: creds.sn }
    if (identities.size > 100_000) identities.clear()
    identities.set(sn, { who, until: now + IDENTITY_MS })
    return who
  }

  function store(topic: string, payload: Buffer): Promise<void> {
    const up = parseUpTopic(topic)
    if (!up) {
      log.warn({ topic: topic.slice(0, 200) }, 'mqtt message on a foreign topic dropped')
      return Promise.resolve()
    }
    const before = tails.get(up.sn) ?? Promise.resolve()
    const mine = before.then(() => storeOne(up.sn, topic, payload))
    const tail = mine.catch(() => {})
    tails.set(up.sn, tail)
    void tail.then(() => {
      if (tails.get(up.sn) === tail) tails.delete(up.sn)
    })
    return mine
  }

  /** One message of device `sn` (read from its topic by store). */
  async function storeOne(sn: string, topic: string, payload: Buffer): Promise<void> {
    const creds = await identity(sn)
    if (!creds) return void log.warn({ device: sn }, 'mqtt message of an unknown device dropped')
    const check = acceptPublish(sn, topic, payload)
    if (!check.ok && 'forbidden' in check) {
      return void log.warn({ device: sn, reason: check.forbidden }, 'mqtt message refused')
    }
    if (!check.ok) {
      log.warn({ device: sn, refusal: check.refusal }, 'mqtt message refused')
      return tell(sn, publishResult({ refusal: check.refusal }))
    }
    const [r] = await ingestFrom(ctx, creds, [check.accepted], 'mqtt')
    const result = outcomeResult(r)
    if (result) tell(sn, result)
  }

  /**
   * Tells a device on its `down/result` what became of a message. Not awaited: mqtt.js reads no
   * packet (this publish's PUBACK included) until the message being handled is done.
   */
  function tell(sn: string, result: PublishResult): void {
    client.publish(resultTopic(sn), JSON.stringify(result), { qos: 1 }, (err) => {
      if (err) log.warn({ device: sn, err: { message: err.message } }, 'mqtt result not delivered')
    })
  }

  /**
   * Stores each message `c` is handed and acknowledges it only after its commit, with up to
   * PIPELINE of them under way at once. mqtt.js reads a connection's next packet only when
   * `handleMessage` calls back, and sends the PUBACK itself when the callback has no error: so
   * the callback is given DEFERRED at once (mqtt.js moves on without a PUBACK), and the PUBACK
   * goes out here after the commit, on the same connection only (after a reconnect the broker
   * hands the message over again, and the inbox knows it). Past PIPELINE, the callback waits for
   * a message to finish, so the broker's window is the only queue.
   */
  function storeFrom(c: MqttClient, watch?: { start(): void; end(): void }) {
    let busy = 0
    const waiting: (() => void)[] = []
    const finished = () => {
      busy--
      waiting.shift()?.()
    }
    c.handleMessage = (packet, done) => {
      watch?.start()
      busy++
      const stream = c.stream
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload)
      const acknowledge = () => {
        if (packet.qos === 1 && packet.messageId !== undefined && c.stream === stream && !stream.destroyed)
          sendPacket(c, { cmd: 'puback', messageId: packet.messageId })
      }
      track(store(packet.topic, payload).then(acknowledge)).then(
        () => {
          watch?.end()
          finished()
        },
        (e) => {
          watch?.end()
          finished()
          log.error({ topic: packet.topic, err: { message: errorText(e) } }, 'mqtt message not stored')
          // No PUBACK; dropping the connection makes the broker deliver it again.
          if (c.stream === stream) stream.destroy()
        },
      )
      const next = () => done(DEFERRED)
      if (busy < PIPELINE) next()
      else waiting.push(next)
    }
  }

  function consume(c: MqttClient): Promise<void> {
    storeFrom(c)
    let first = true
    c.on('error', (e) =>
      log.error({ clientId: c.options.clientId, err: { message: e.message } }, 'mqtt external broker error'),
    )
    c.on('offline', () =>
      log.warn({ clientId: c.options.clientId }, 'mqtt external broker offline; reconnecting'),
    )
    return new Promise<void>((resolve) => {
      c.on('connect', (connack) => {
        // Subscribed again on every connection, resumed sessions included: Mosquitto 2.0.11
        // restores a session after its restart without its shared subscription. `resubscribe`
        // makes mqtt.js send it although it believes the topic is subscribed already.
        c.subscribe({ [subscription]: { qos: 1 }, resubscribe: true } as ISubscriptionMap, (err) => {
          if (err) return log.error({ err: { message: err.message } }, 'mqtt shared subscription failed')
          if (first && c === client)
            log.info(
              { url: redact(opts.url), clientId: opts.clientId, consumers: count },
              'mqtt external broker connected',
            )
          if (!connack.sessionPresent)
            log.info({ clientId: c.options.clientId }, 'mqtt session started fresh')
          first = false
          resolve()
        })
      })
    })
  }
  const ready = Promise.all(consumers.map(consume))

  const draining = new Set<MqttClient>()
  /**
   * Drains a silent instance's session: connects under its id (no reconnecting), leaves the
   * shared group so nothing new is routed to it, stores what the broker kept for it until it is
   * quiet, then ends the session (a clean connection under its id discards it). Dropped by the
   * broker on the way (its owner connected again): 'taken'.
   */
  async function adopt(clientId: string): Promise<'ended' | 'taken'> {
    const quietMs = opts.sessions?.quietMs ?? 3000
    let last = Date.now()
    let busy = 0
    const c = connectAs(clientId, { reconnectPeriod: 0 })
    draining.add(c)
    c.on('error', (e) => log.warn({ clientId, err: { message: e.message } }, 'mqtt adopted session error'))
    storeFrom(c, {
      start: () => {
        busy++
        last = Date.now()
      },
      end: () => {
        busy--
        last = Date.now()
      },
    })
    try {
      const opened = await new Promise<boolean>((resolve) => {
        c.once('connect', () => resolve(true))
        c.once('close', () => resolve(false))
      })
      if (!opened) return 'taken'
      await c.unsubscribeAsync(subscription)
      const closed = new Promise<'taken'>((resolve) => c.once('close', () => resolve('taken')))
      for (;;) {
        const quiet = new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), quietMs / 4))
        if ((await Promise.race([quiet, closed])) === 'taken' || closing) return 'taken'
        // Quiet and nothing being stored: what the broker kept is all acknowledged.
        if (Date.now() - last >= quietMs && busy === 0) break
      }
      await c.endAsync(false)
      const cleaner = connectAs(clientId, { clean: true, reconnectPeriod: 0 })
      await new Promise<void>((resolve, reject) => {
        cleaner.once('connect', () => resolve())
        cleaner.once('error', reject)
      })
      await cleaner.endAsync(false)
      return 'ended'
    } finally {
      draining.delete(c)
      if (!c.disconnected) await c.endAsync(true).catch(() => {})
    }
  }
  const sessions = subscription.startsWith('$share/')
    ? keepSessions(ctx, {
        holder: opts.clientId,
        own: consumers.map((c) => String(c.options.clientId)),
        adopt,
        sweepMs: opts.sessions?.sweepMs,
        staleMs: opts.sessions?.staleMs,
      })
    : null

  function publishCommand(sn: string, c: commands.CommandRecord): Promise<void> {
    return new Promise((resolve, reject) =>
      client.publish(commandTopic(sn), JSON.stringify(commands.toDeviceCommand(c)), { qos: 1 }, (err) =>
        err ? reject(err) : resolve(),
      ),
    )
  }

  async function deliverWaiting(device: DeviceIdentity) {
    const waiting = await commands.takeWaiting(ctx.db, device.kind, device.id, ctx.clock.now())
    for (const c of waiting) await publishCommand(device.sn, c)
  }

  /** Every instance hears a new command; the one that claims the row publishes it. */
  async function onCommand(n: CommandNotice) {
    const c = await commands.claimCommand(ctx.db, n.cmd_id, ctx.clock.now())
    if (c) await publishCommand(n.sn, c)
  }

  let unsubscribe: Unsubscribe | null = null
  const subscribing = ctx.events
    .subscribe<CommandNotice>(COMMAND_CHANNEL, (n) =>
      track(onCommand(n)).catch((e) =>
        log.error({ cmd: n.cmd_id, err: { message: errorText(e) } }, 'mqtt command publish failed'),
      ),
    )
    .then((u) => {
      unsubscribe = u
    })

  let closing: Promise<void> | null = null
  const gateway: ExternalGateway = {
    client,
    consumers,
    ready: Promise.all([ready, subscribing]).then(() => {}),
    deviceSubscribed(device) {
      if (closing) return
      const timer = setTimeout(() => {
        timers.delete(timer)
        track(deliverWaiting(device)).catch((e) =>
          log.error({ device: device.sn, err: { message: errorText(e) } }, 'mqtt command delivery failed'),
        )
      }, opts.deliverDelayMs ?? 1000)
      timer.unref()
      timers.add(timer)
    },
    close() {
      closing ??= (async () => {
        offLink()
        externalGateways.delete(ctx)
        for (const t of timers) clearTimeout(t)
        // Adoptions under way stop where they are: their sessions stay marked as this instance's,
        // so another adopts them once this one's marks are old.
        for (const c of draining) c.stream?.destroy()
        await sessions?.stop()
        await subscribing.catch(() => {})
        await (unsubscribe as Unsubscribe | null)?.()
        // What is being stored finishes (and is acknowledged) before the connection ends.
        await Promise.allSettled([...inflight])
        await Promise.all(consumers.map((c) => c.endAsync(false).catch(() => {})))
      })()
      return closing
    },
  }
  // This instance's database link found down (db/link.ts): what it takes from the broker would
  // wait in its pipeline, unstored. Its connections end (unacknowledged messages stay in its
  // session) and stay ended until the link answers again; meanwhile another instance adopts the
  // session once its marks are old (mqtt-sessions.ts), as if this one had died.
  const offLink = ctx.database.link.onChange((up) => {
    if (closing) return
    if (!up) {
      log.warn({}, 'database link down: leaving the broker until it answers')
      for (const c of draining) c.stream?.destroy()
      for (const c of consumers) c.end(true)
    } else {
      log.info({}, 'database link up: back to the broker')
      for (const c of consumers) c.reconnect()
    }
  })
  externalGateways.set(ctx, gateway)
  return gateway
}

/** The broker URL without its password, for the log. */
function redact(url: string) {
  return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@')
}
