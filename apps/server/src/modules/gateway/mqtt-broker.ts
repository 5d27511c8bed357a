import type { EventEmitter } from 'node:events'
import fs from 'node:fs'
import net from 'node:net'
import tls from 'node:tls'
import {
  commandTopic,
  MAX_REQUEST_BYTES,
  type PublishResult,
  resultTopic,
} from '@aed/contracts/device-protocol'
import { Aedes, type AuthenticateError, type Client } from 'aedes'
import type { AppContext } from '../../context.ts'
import type { Unsubscribe } from '../../db/events.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import * as commands from '../device/device-command.port.ts'
import { COMMAND_CHANNEL, type CommandNotice } from '../device/device-command.service.ts'
import { ingestFrom } from './gateway.service.ts'
import {
  acceptPublish,
  authenticateConnect,
  connectDeps,
  filterMatches,
  isDownTopic,
  maySubscribe,
  outcomeResult,
  publishResult,
} from './mqtt-auth.ts'
import { limitFrames } from './mqtt-frames.ts'

/** The embedded broker's ports; `port: 0` listens on a free port (tests read `ports` back). */
export type EmbeddedBrokerOptions = {
  port: number
  host?: string
  tls?: { port: number; cert: string; key: string } | null
}

export type EmbeddedBroker = {
  /** The ports listened on (the real ones when 0 was asked). */
  ports: { mqtt: number; tls: number | null }
  /** Whether a device is connected here with a subscription its commands reach. */
  reaches(sn: string): boolean
  /** Stops accepting, closes every client, waits for messages being stored; idempotent. */
  close(): Promise<void>
}

/** The 0x05 "not authorised" CONNACK, and nothing more. */
function refused(): AuthenticateError {
  return Object.assign(new Error('Not authorized'), { returnCode: 5 as const })
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

function listen(server: net.Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as net.AddressInfo).port)
    })
  })
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

/**
 * The MQTT broker inside the server (docs/device-protocol.md, "MQTT"): devices connect with
 * their HMAC password, publish on their own up topics and subscribe under their own down
 * topic. A PUBLISH is checked and stored through the engine inside `authorizePublish`, which
 * aedes runs before it answers PUBACK: a device gets its PUBACK only after the commit. MQTT 3.1.1
 * has no negative PUBACK: a refused message (malformed, too large, not QoS 1, retained) is not
 * stored, and its PUBACK comes after the refusal is published on `aed/v1/{sn}/down/result`; a
 * publish on a topic not the device's own closes the connection, and so does a packet larger
 * than a request may be. Commands go out on `aed/v1/{sn}/down/cmd` at QoS 1 when the device
 * subscribes, and at once when one is created while it is connected here.
 */
export async function startEmbeddedBroker(
  ctx: AppContext,
  opts: EmbeddedBrokerOptions,
): Promise<EmbeddedBroker> {
  const log = ctx.log.child({ module: 'mqtt' })
  const devices = new WeakMap<Client, DeviceIdentity>()
  /** Per connection, the tail of its messages being stored: one device's messages go in order. */
  const tails = new WeakMap<Client, Promise<void>>()
  /** Devices whose down/cmd topic a connection here subscribes to. */
  const reachable = new Map<string, { client: Client; device: DeviceIdentity }>()
  const inflight = new Set<Promise<unknown>>()

  function track<T>(p: Promise<T>): Promise<T> {
    inflight.add(p)
    const done = () => void inflight.delete(p)
    p.then(done, done)
    return p
  }

  /** Tells a device on its `down/result` what became of a publish (QoS 1, not retained). */
  function tell(sn: string, result: PublishResult): Promise<void> {
    return new Promise((resolve) =>
      broker.publish(
        {
          cmd: 'publish',
          topic: resultTopic(sn),
          payload: Buffer.from(JSON.stringify(result)),
          qos: 1,
          retain: false,
          dup: false,
        },
        (err) => {
          if (err) log.warn({ device: sn, err: { message: err.message } }, 'mqtt result not delivered')
          resolve()
        },
      ),
    )
  }

  const broker = new Aedes({
    // Serials are up to 64 characters (aedes' default is MQTT 3.1's 23).
    maxClientsIdLength: 64,

    authenticate(client, username, password, done) {
      track(authenticateConnect(connectDeps(ctx), { clientId: client.id, username, password })).then(
        (device) => {
          if (!device) return done(refused(), false)
          devices.set(client, device)
          done(null, true)
        },
        (e) => {
          log.error({ err: { message: errorText(e) }, client: client.id }, 'mqtt connect check failed')
          done(Object.assign(new Error('Server unavailable'), { returnCode: 3 as const }), false)
        },
      )
    },

    authorizePublish(client, packet, callback) {
      // The server's own publishes (commands) only go to down topics.
      if (!client) return callback(isDownTopic(packet.topic) ? null : new Error('not a down topic'))
      const device = devices.get(client)
      if (!device) return callback(new Error('not authenticated'))
      const check = acceptPublish(device.sn, packet.topic, packet.payload, {
        qos: packet.qos,
        retain: packet.retain,
      })
      if (!check.ok && 'forbidden' in check) {
        log.warn({ device: device.sn, reason: check.forbidden }, 'mqtt publish forbidden')
        return callback(new Error(check.forbidden))
      }
      // Device messages are facts for the server, never retained for other subscribers.
      packet.retain = false
      // One device's publishes are answered in the order they came (MQTT 4.6), refused ones too.
      const before = tails.get(client) ?? Promise.resolve()
      const stored = track(
        before.then(async () => {
          if (!check.ok) {
            log.warn({ device: device.sn, refusal: check.refusal }, 'mqtt message refused')
            return tell(device.sn, publishResult({ refusal: check.refusal }))
          }
          const [r] = await ingestFrom(ctx, device, [check.accepted], 'mqtt')
          const result = outcomeResult(r)
          if (result) await tell(device.sn, result)
        }),
      )
      tails.set(
        client,
        stored.then(
          () => {},
          () => {},
        ),
      )
      // Answered (PUBACK) once stored, or once refused and told why: a refused message sent again
      // would be refused again, so the device is not made to repeat it forever.
      stored.then(
        () => callback(null),
        (e) => {
          // Nothing stored: no PUBACK, the device sends it again after reconnecting.
          log.error({ device: device.sn, err: { message: errorText(e) } }, 'mqtt message not stored')
          callback(new Error('not stored'))
        },
      )
    },

    authorizeSubscribe(client, sub, callback) {
      const device = devices.get(client)
      // A refused filter gets the SUBACK failure code 0x80; the connection stays.
      if (!device || !maySubscribe(device.sn, sub.topic)) return callback(null, null)
      callback(null, sub)
    },
  })
  // Without a listener an 'error' event would end the process.
  ;(broker as EventEmitter).on('error', (e: Error) =>
    log.error({ err: { message: e.message } }, 'mqtt broker error'),
  )
  broker.on('clientError', (client, e) =>
    log.debug({ client: client.id, err: { message: e.message } }, 'mqtt client error'),
  )

  const reachesCommands = (client: Client, device: DeviceIdentity) => {
    const subs = (client as Client & { subscriptions?: Record<string, unknown> }).subscriptions ?? {}
    return Object.keys(subs).some((f) => filterMatches(f, commandTopic(device.sn)))
  }

  function publishCommand(sn: string, c: commands.CommandRecord): Promise<void> {
    return new Promise((resolve, reject) =>
      broker.publish(
        {
          cmd: 'publish',
          topic: commandTopic(sn),
          payload: Buffer.from(JSON.stringify(commands.toDeviceCommand(c))),
          qos: 1,
          retain: false,
          dup: false,
        },
        (err) => (err ? reject(err) : resolve()),
      ),
    )
  }

  /** Sends everything waiting for a device that has just become reachable. */
  async function deliverWaiting(device: DeviceIdentity) {
    const waiting = await commands.takeWaiting(ctx.db, device.kind, device.id, ctx.clock.now())
    for (const c of waiting) await publishCommand(device.sn, c)
  }

  function becameReachable(client: Client) {
    const device = devices.get(client)
    if (!device || !reachesCommands(client, device)) return
    reachable.set(device.sn, { client, device })
    track(deliverWaiting(device)).catch((e) =>
      log.error({ device: device.sn, err: { message: errorText(e) } }, 'mqtt command delivery failed'),
    )
  }

  broker.on('subscribe', (subs, client) => {
    const device = devices.get(client)
    if (!device) return
    if (subs.some((s) => (s.qos as number) !== 128 && filterMatches(s.topic, commandTopic(device.sn))))
      becameReachable(client)
  })
  // A persistent session comes back with its subscriptions.
  broker.on('clientReady', (client) => becameReachable(client))
  broker.on('unsubscribe', (_topics, client) => {
    const device = devices.get(client)
    if (device && reachable.get(device.sn)?.client === client && !reachesCommands(client, device)) {
      reachable.delete(device.sn)
    }
  })
  broker.on('clientDisconnect', (client) => {
    const device = devices.get(client)
    if (device && reachable.get(device.sn)?.client === client) reachable.delete(device.sn)
  })

  /** A new command: published at once when its device is connected here. */
  async function onCommand(notice: CommandNotice) {
    const here = reachable.get(notice.sn)
    if (!here || here.device.id !== notice.sender_id || here.device.kind !== notice.kind) return
    const c = await commands.claimCommand(ctx.db, notice.cmd_id, ctx.clock.now())
    if (c) await publishCommand(notice.sn, c)
  }

  await broker.listen()
  let unsubscribe: Unsubscribe | null = null
  let stopReconnect: (() => void) | null = null
  const servers: net.Server[] = []
  try {
    unsubscribe = await ctx.events.subscribe<CommandNotice>(COMMAND_CHANNEL, (n) =>
      track(onCommand(n)).catch((e) =>
        log.error({ cmd: n.cmd_id, err: { message: errorText(e) } }, 'mqtt command publish failed'),
      ),
    )
    // Notices sent while the event connection was down are lost: resend what waits.
    stopReconnect = ctx.events.onReconnect(() => {
      for (const { device } of reachable.values()) {
        track(deliverWaiting(device)).catch(() => {})
      }
    })
    // No Nagle: a PUBACK or SUBACK goes out at once instead of waiting ~40 ms for the device's
    // delayed ACK (a device that waits for each PUBACK would get some 25 messages a second).
    const plain = net.createServer({ noDelay: true }, (socket) =>
      broker.handle(limitFrames(socket, MAX_REQUEST_BYTES)),
    )
    servers.push(plain)
    const mqttPort = await listen(plain, opts.port, opts.host)
    let tlsPort: number | null = null
    if (opts.tls) {
      const secure = tls.createServer(
        { cert: fs.readFileSync(opts.tls.cert), key: fs.readFileSync(opts.tls.key) },
        (socket) => {
          socket.setNoDelay(true)
          broker.handle(limitFrames(socket, MAX_REQUEST_BYTES))
        },
      )
      servers.push(secure)
      tlsPort = await listen(secure, opts.tls.port, opts.host)
    }
    log.info({ port: mqttPort, tlsPort }, 'mqtt broker listening')

    let closing: Promise<void> | null = null
    // This instance's database link found down (db/link.ts): it can neither check a device's
    // password nor store its messages. It stops listening and closes its devices' connections,
    // so they reconnect through the TCP balancer to another instance (nginx's stream module tries
    // the next server on a refused connection), and listens again once the link answers.
    const ports = [mqttPort, tlsPort]
    let relisten: Promise<void> = Promise.resolve()
    const offLink = ctx.database.link.onChange((up) => {
      relisten = relisten.then(async () => {
        if (closing) return
        if (!up) {
          log.warn({}, 'database link down: devices disconnected, not listening until it answers')
          for (const server of servers) server.close()
          // aedes keeps its connected clients by id (not in its types).
          const connected = (broker as unknown as { clients: Record<string, Client> }).clients
          for (const client of Object.values(connected)) client.close()
          return
        }
        for (const [k, server] of servers.entries()) {
          if (!server.listening)
            await listen(server, ports[k] as number, opts.host).catch((e: Error) =>
              log.error({ port: ports[k], err: { message: e.message } }, 'mqtt listen again failed'),
            )
        }
        log.info({}, 'database link up: listening for devices again')
      })
    })
    return {
      ports: { mqtt: mqttPort, tls: tlsPort },
      reaches: (sn) => reachable.has(sn),
      close() {
        closing ??= (async () => {
          offLink()
          await relisten
          stopReconnect?.()
          await unsubscribe?.()
          const stopped = servers.map(closeServer)
          await new Promise<void>((resolve) => broker.close(() => resolve()))
          await Promise.all(stopped)
          // The database stays open until what was being stored is committed.
          await Promise.allSettled([...inflight])
        })()
        return closing
      },
    }
  } catch (e) {
    stopReconnect?.()
    await unsubscribe?.()
    for (const s of servers) s.close()
    await new Promise<void>((resolve) => broker.close(() => resolve()))
    throw e
  }
}
