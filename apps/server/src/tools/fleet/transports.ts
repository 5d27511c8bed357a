import crypto from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { commandTopic, TOPIC_PREFIX, upTopic } from '@aed/contracts/device-protocol'
import mqtt, { type MqttClient } from 'mqtt'
import { dynsecLogin } from '../../modules/gateway/mqtt-auth.ts'
import { signDeviceRequest } from '../../plugins/auth/device.ts'
import type { Command, Envelope } from './model.ts'

// How simulated devices reach the server: signed HTTPS batches over kept-alive connections, or
// one MQTT connection per device (QoS 1, acknowledged by PUBACK after the server's commit).
// Rescue files go over HTTPS either way, as the protocol has them.

export type SendResult =
  /** Every message answered: applied, seen before, stale, or refused (a refused one is not sent again). */
  | {
      ok: true
      acked: string[]
      duplicates: string[]
      stale?: string[]
      refused?: unknown[]
      cmds: Command[]
    }
  /** refused: the server said no (bad signature, malformed): sending again will not help. */
  | { ok: false; refused: boolean; error: string }

/** What a transport needs of a sender: its serial and secret (an AED or a cabinet). */
export type FleetDevice = { sn: string; secret: string }

export type Transport = {
  name: 'http' | 'mqtt'
  /** Most messages sent in one go. */
  maxBatch: number
  /** Connects the devices (MQTT); commands pushed to a device go to `onCommand`. */
  start(devices: FleetDevice[], onCommand: (dev: FleetDevice, cmd: Command) => void): Promise<void>
  /** Sends a device's messages, in order; answers once the server has acknowledged them. */
  send(dev: FleetDevice, messages: Envelope[]): Promise<SendResult>
  upload(dev: FleetDevice, rescueEventId: string, body: Buffer): Promise<{ fileId: string } | SendResult>
  close(): Promise<void>
}

type Raw = { status: number; body: string }

/** Signed requests to /device-api over one pool of kept-alive connections. */
function deviceHttp(base: string, sockets: number) {
  const url = new URL(base)
  const lib = url.protocol === 'https:' ? https : http
  // Idle connections are closed here before the server's keep-alive timeout (Fastify's 72 s) can
  // close them under a request just sent (read ECONNRESET when a burst reuses an old socket).
  const agent = new lib.Agent({
    keepAlive: true,
    maxSockets: sockets,
    maxFreeSockets: sockets,
    timeout: 30_000,
  })
  function post(dev: FleetDevice, pathWithQuery: string, body: Buffer, type: string): Promise<Raw> {
    const headers = signDeviceRequest(dev.sn, dev.secret, { method: 'POST', path: pathWithQuery, body })
    return new Promise((resolve, reject) => {
      const req = lib.request(
        {
          agent,
          hostname: url.hostname,
          port: url.port,
          method: 'POST',
          path: pathWithQuery,
          headers: { ...headers, 'content-type': type, 'content-length': body.length },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          )
          res.on('error', reject)
        },
      )
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', reject)
      req.end(body)
    })
  }
  const judge = (r: Raw): SendResult => {
    let j: {
      code?: number
      msg?: string
      data?: { acked: string[]; duplicates: string[]; stale?: string[]; refused?: unknown[]; cmds: Command[] }
    } = {}
    try {
      j = JSON.parse(r.body)
    } catch {}
    if (r.status === 200 && j.code === 0 && j.data) {
      const { acked, duplicates, stale = [], refused = [], cmds = [] } = j.data
      return { ok: true, acked, duplicates, stale, refused, cmds }
    }
    // 401 and code 1 are answers about the request itself; 5xx and the rest may pass next time.
    const refused = r.status === 401 || (r.status < 500 && typeof j.code === 'number' && j.code > 0)
    return { ok: false, refused, error: `HTTP ${r.status} code ${j.code ?? '?'} ${j.msg ?? ''}`.trim() }
  }
  return {
    agent,
    async messages(dev: FleetDevice, messages: Envelope[]): Promise<SendResult> {
      try {
        return judge(
          await post(
            dev,
            '/device-api/v1/messages',
            Buffer.from(JSON.stringify(messages)),
            'application/json',
          ),
        )
      } catch (e) {
        return { ok: false, refused: false, error: (e as Error).message }
      }
    },
    async upload(dev: FleetDevice, rescueEventId: string, body: Buffer) {
      const q = `/device-api/v1/files?kind=ecg&rescue_event_id=${encodeURIComponent(rescueEventId)}`
      try {
        const r = await post(dev, q, body, 'application/octet-stream')
        const j = JSON.parse(r.body) as { code?: number; data?: { file_id: string } }
        if (r.status === 200 && j.code === 0 && j.data) return { fileId: j.data.file_id }
        return judge(r)
      } catch (e) {
        return { ok: false as const, refused: false, error: (e as Error).message }
      }
    },
  }
}

export function httpTransport(base: string, sockets: number): Transport {
  const h = deviceHttp(base, sockets)
  return {
    name: 'http',
    maxBatch: 100,
    async start() {},
    send: h.messages,
    upload: h.upload,
    async close() {
      h.agent.destroy()
    },
  }
}

/** The MQTT password: hex HMAC-SHA256 keyed with the secret over serial + ts. */
export function mqttLogin(sn: string, secret: string, ts = Date.now()) {
  return {
    username: `${sn}|${ts}`,
    password: crypto.createHmac('sha256', secret).update(`${sn}${ts}`).digest('hex'),
  }
}

/**
 * How devices log in to the broker: `hmac`, the one-time password of each CONNECT (the platform's
 * broker, EMQX's hooks), `dynsec`, the static account of the secret that the server keeps in
 * Mosquitto's dynamic security plugin (MQTT_AUTH=mosquitto-dynsec), or `auto`: the first device
 * tries its static account, and the broker's answer decides for all.
 */
export type MqttAuth = 'hmac' | 'dynsec' | 'auto'

/** Whether the broker takes a device's static Mosquitto account (a refusal: it wants the one-time password). */
async function takesDynsec(brokerUrl: string, dev: { sn: string; secret: string }): Promise<boolean> {
  try {
    const c = await mqtt.connectAsync(brokerUrl, {
      clientId: dev.sn,
      ...dynsecLogin(dev.secret, dev.sn),
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    })
    await c.endAsync()
    return true
  } catch {
    return false
  }
}

export function mqttTransport(
  base: string,
  brokerUrl: string,
  sockets: number,
  auth: MqttAuth = 'auto',
): Transport {
  const h = deviceHttp(base, sockets)
  let dynsec = auth === 'dynsec'
  const login = (dev: { sn: string; secret: string }) =>
    dynsec ? dynsecLogin(dev.secret, dev.sn) : mqttLogin(dev.sn, dev.secret)
  const clients = new Map<string, MqttClient>()
  const publish = (c: MqttClient, topic: string, payload: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no PUBACK in 30 s')), 30_000)
      c.publish(topic, payload, { qos: 1 }, (err) => {
        clearTimeout(timer)
        if (err) reject(err)
        else resolve()
      })
    })
  return {
    name: 'mqtt',
    maxBatch: 20,
    async start(devices, onCommand) {
      if (auth === 'auto' && devices.length > 0) dynsec = await takesDynsec(brokerUrl, devices[0])
      let failed = 0
      await Promise.all(
        devices.map(
          (dev, i) =>
            new Promise<void>((resolve) => {
              // A little apart, so 200 handshakes do not all land in the same millisecond.
              setTimeout(() => {
                const c = mqtt.connect(brokerUrl, {
                  clientId: dev.sn,
                  ...login(dev),
                  protocolVersion: 4,
                  clean: true,
                  keepalive: 60,
                  reconnectPeriod: 2000,
                  connectTimeout: 20_000,
                })
                c.on('connect', () => {
                  c.subscribe(`${TOPIC_PREFIX}/${dev.sn}/down/#`, { qos: 1 })
                  resolve()
                })
                c.on('reconnect', () => Object.assign(c.options, login(dev)))
                c.on('error', (e) => {
                  if (failed++ < 5) console.error(`mqtt ${dev.sn}: ${e.message}`)
                  resolve()
                })
                c.on('message', (topic, payload) => {
                  if (topic !== commandTopic(dev.sn)) return
                  try {
                    onCommand(dev, JSON.parse(payload.toString()) as Command)
                  } catch {}
                })
                clients.set(dev.sn, c)
              }, i * 5)
            }),
        ),
      )
      const up = [...clients.values()].filter((c) => c.connected).length
      const how = dynsec ? 'static Mosquitto accounts' : 'one-time passwords'
      console.log(`mqtt: ${up} of ${devices.length} devices connected to ${brokerUrl} (${how})`)
    },
    async send(dev, messages) {
      const c = clients.get(dev.sn)
      if (!c?.connected) return { ok: false, refused: false, error: 'not connected' }
      try {
        await Promise.all(messages.map((m) => publish(c, upTopic(dev.sn, m.type), JSON.stringify(m))))
        return { ok: true, acked: messages.map((m) => m.id), duplicates: [], cmds: [] }
      } catch (e) {
        return { ok: false, refused: false, error: (e as Error).message }
      }
    },
    upload: h.upload,
    async close() {
      await Promise.all([...clients.values()].map((c) => c.endAsync().catch(() => {})))
      h.agent.destroy()
    },
  }
}
