import crypto from 'node:crypto'
import { TOPIC_PREFIX, upTopic } from '@aed/contracts/device-protocol'
import mqtt, { type MqttClient } from 'mqtt'
import { signDeviceRequest } from '../../plugins/auth/device.ts'
import type { Envelope } from '../fleet/model.ts'

// The fault suite's steady load: devices that behave as docs/device-protocol.md asks of a real
// one. Each keeps an outbox, sends it oldest first with one request or publish in flight (so no
// message overtakes an older one and turns it stale), and sends again, with the same id, whatever
// was not acknowledged: an HTTPS answer 200 with code 0, or the PUBACK.

/** A device of the load, on the transport it always uses. */
export type LoadDevice = { sn: string; secret: string; transport: 'https' | 'mqtt' }

/** One message a device made, and what became of it. */
export type SentMessage = {
  sn: string
  id: string
  type: string
  transport: LoadDevice['transport']
  /** The fault under way when it was made. */
  tag: string
  /** The rescue it starts (a usage step with a new rescue_event_id), else null. */
  rescue: string | null
  createdAt: number
  attempts: number
  /** When the answer or PUBACK came; null while unacknowledged. */
  ackedAt: number | null
  /** The server refused it (a firmware bug in the load, not a fault): never sent again. */
  refused: string | null
}

export type LoadOptions = {
  devices: LoadDevice[]
  /** Where HTTPS devices post (nginx). */
  httpBase: string
  /** The broker MQTT devices connect to. */
  mqttUrl: string
  /** The MQTT username and password of a device, asked before every CONNECT. */
  mqttLogin: (d: LoadDevice) => { username: string; password: string }
  /** Each device makes a message this often. */
  intervalMs: number
  /** Every n-th message of a device starts a rescue (a first-aid alarm); every other one is a heartbeat or a self-test. */
  rescueEvery: number
  /** Makes ids and rescue ids of this run unique. */
  run: string
}

/** What went wrong on the wire, counted for the report. */
export type WireErrors = Record<string, number>

type DeviceState = {
  dev: LoadDevice
  boot: number
  seq: number
  /** Its place in the cycle of kinds (heartbeats, self-tests, a rescue): counts its messages from its own start. */
  made: number
  outbox: { msg: SentMessage; env: Envelope }[]
  busy: boolean
  failures: number
  retryTimer: NodeJS.Timeout | null
  client: MqttClient | null
}

const HTTP_TIMEOUT_MS = 10_000
const MQTT_PUBACK_TIMEOUT_MS = 15_000

/** Waits a little longer after each failure, with some randomness, as the protocol asks (scaled to a test). */
const backoffMs = (failures: number) =>
  Math.min(3000, 250 * 2 ** Math.min(failures, 4)) * (0.5 + Math.random())

/** Starts the devices: MQTT ones connect, every one makes a message each interval until stop(). */
export function startLoad(o: LoadOptions) {
  const messages: SentMessage[] = []
  const errors: WireErrors = {}
  // Each device starts at another point of the cycle, so rescues and self-tests are spread over
  // time (all at once, a fault between two bursts would see no alarm at all).
  const states = o.devices.map<DeviceState>((dev, i) => ({
    dev,
    boot: 1,
    seq: 0,
    made: i,
    outbox: [],
    busy: false,
    failures: 0,
    retryTimer: null,
    client: null,
  }))
  let tag = ''
  let paused = false
  let stopped = false
  const count = (what: string) => {
    errors[what] = (errors[what] ?? 0) + 1
  }

  function make(s: DeviceState) {
    const n = s.made++
    const seq = ++s.seq
    const id = `${o.run}-${s.boot}-${seq}`
    let type = 'heartbeat'
    let data: Record<string, unknown> = { battery: 80 + (n % 20), rssi: -70 }
    let rescue: string | null = null
    if (n % o.rescueEvery === o.rescueEvery - 1) {
      type = 'usage'
      rescue = `${o.run}-${s.dev.sn}-${n}`
      data = { rescue_event_id: rescue, event_time: Date.now(), event_desc: 'power_on' }
    } else if (n % 7 === 3) {
      // Self-tests that fail and pass in turn: faults open and close (device events, SMS, webhooks).
      type = 'selftest'
      data =
        n % 14 === 3
          ? { report_type: 1, result: 'fail', fault_codes: ['E03'] }
          : { report_type: 1, result: 'pass' }
    }
    const env: Envelope = { v: 1, id, boot: s.boot, seq, ts: Date.now(), type, data }
    const msg: SentMessage = {
      sn: s.dev.sn,
      id,
      type,
      transport: s.dev.transport,
      tag,
      rescue,
      createdAt: Date.now(),
      attempts: 0,
      ackedAt: null,
      refused: null,
    }
    messages.push(msg)
    s.outbox.push({ msg, env })
    pump(s)
  }

  function failed(s: DeviceState, what: string) {
    count(what)
    s.failures++
    s.busy = false
    if (stopped) return
    s.retryTimer = setTimeout(() => {
      s.retryTimer = null
      pump(s)
    }, backoffMs(s.failures))
  }

  function done(s: DeviceState, acked: number) {
    const at = Date.now()
    for (const { msg } of s.outbox.splice(0, acked)) msg.ackedAt = at
    s.failures = 0
    s.busy = false
    pump(s)
  }

  function pump(s: DeviceState) {
    if (s.busy || s.retryTimer || s.outbox.length === 0 || stopped) return
    s.busy = true
    if (s.dev.transport === 'https') void postBatch(s)
    else publishFirst(s)
  }

  async function postBatch(s: DeviceState) {
    const batch = s.outbox.slice(0, 20)
    for (const b of batch) b.msg.attempts++
    const body = Buffer.from(JSON.stringify(batch.map((b) => b.env)))
    const path = '/device-api/v1/messages'
    try {
      const res = await fetch(new URL(path, o.httpBase), {
        method: 'POST',
        headers: {
          ...signDeviceRequest(s.dev.sn, s.dev.secret, { method: 'POST', path, body }),
          'content-type': 'application/json',
        },
        body,
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      })
      const j = (await res.json().catch(() => null)) as {
        code?: number
        data?: {
          acked: string[]
          duplicates: string[]
          stale: string[]
          refused: { id: string | null; reason: string }[]
        }
      } | null
      if (res.status !== 200 || j?.code !== 0 || !j.data)
        return failed(s, `http ${res.status} code ${j?.code ?? '?'}`)
      const answered = new Set([...j.data.acked, ...j.data.duplicates, ...j.data.stale])
      for (const r of j.data.refused) {
        const b = batch.find((x) => x.msg.id === r.id)
        if (b) b.msg.refused = r.reason
      }
      // Every message of the batch has its fate in a 200 answer; one without is a server bug to show.
      for (const b of batch)
        if (!answered.has(b.msg.id) && !b.msg.refused) count('http answer without the id')
      done(s, batch.length)
    } catch (e) {
      failed(s, `http ${(e as Error).name === 'TimeoutError' ? 'timeout' : (e as Error).message}`)
    }
  }

  function connect(s: DeviceState) {
    const c = mqtt.connect(o.mqttUrl, {
      clientId: s.dev.sn,
      ...o.mqttLogin(s.dev),
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    })
    c.on('connect', () => {
      c.subscribe(`${TOPIC_PREFIX}/${s.dev.sn}/down/#`, { qos: 1 })
    })
    c.on('reconnect', () => Object.assign(c.options, o.mqttLogin(s.dev)))
    c.on('error', (e) => count(`mqtt ${e.message.slice(0, 60)}`))
    c.on('close', () => count('mqtt connection closed'))
    s.client = c
  }

  function publishFirst(s: DeviceState) {
    const c = s.client as MqttClient
    const first = s.outbox[0]
    first.msg.attempts++
    // The client keeps an unacknowledged QoS 1 publish and sends it again after a reconnect; this
    // timer only keeps a device from waiting forever on a broker that took it and died.
    let settled = false
    const timer = setTimeout(() => {
      settled = true
      failed(s, 'mqtt no PUBACK in time')
    }, MQTT_PUBACK_TIMEOUT_MS)
    c.publish(upTopic(s.dev.sn, first.env.type), JSON.stringify(first.env), { qos: 1 }, (err) => {
      clearTimeout(timer)
      if (settled) {
        // The PUBACK came after we gave up waiting: it still acknowledges the message.
        if (!err && s.outbox[0] === first && !s.busy) done(s, 1)
        return
      }
      settled = true
      if (err) failed(s, `mqtt ${err.message.slice(0, 60)}`)
      else done(s, 1)
    })
  }

  for (const s of states) if (s.dev.transport === 'mqtt') connect(s)
  // Each device on its own phase of the interval, so the load is steady, not a burst per tick.
  const timers = states.map((s, i) =>
    setTimeout(
      () => {
        const t = setInterval(() => {
          if (!paused && !stopped) make(s)
        }, o.intervalMs)
        timers[i] = t
      },
      Math.floor((i / states.length) * o.intervalMs),
    ),
  )

  return {
    devices: o.devices,
    messages,
    errors,
    /** Tags the messages made from now on. */
    setTag(t: string) {
      tag = t
    },
    /** No new messages; the outboxes are still sent. */
    pause() {
      paused = true
    },
    resume() {
      paused = false
    },
    /** Messages made more than `olderThanMs` ago and not yet acknowledged (nor refused). */
    unacknowledged: (olderThanMs = 0) => {
      const before = Date.now() - olderThanMs
      let n = 0
      for (let i = messages.length - 1; i >= 0; i--) {
        const m = messages[i]
        if (m.ackedAt === null && m.refused === null && m.createdAt <= before) n++
      }
      return n
    },
    /** Devices with a message made after `since` (ms since the epoch) acknowledged. */
    ackedSince(since: number) {
      const sns = new Set<string>()
      for (let i = messages.length - 1; i >= 0 && messages[i].createdAt > since; i--)
        if (messages[i].ackedAt !== null) sns.add(messages[i].sn)
      return sns.size
    },
    /** MQTT devices connected now. */
    connected: () => states.filter((s) => s.client?.connected).length,
    async stop() {
      stopped = true
      for (const t of timers) clearInterval(t)
      for (const s of states) if (s.retryTimer) clearTimeout(s.retryTimer)
      await Promise.all(states.map((s) => s.client?.endAsync(true).catch(() => {})))
    },
  }
}

export type Load = ReturnType<typeof startLoad>

/** A run id: ids of messages and rescues of this run never repeat an earlier run's. */
export const runId = () => `F${crypto.randomBytes(3).toString('hex')}`
