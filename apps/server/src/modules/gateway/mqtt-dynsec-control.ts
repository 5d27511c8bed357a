import crypto from 'node:crypto'
import { connect, type IClientOptions, type MqttClient } from 'mqtt'
import type { DynsecCommand, DynsecResponse } from './mqtt-dynsec.ts'

/** Where the plugin takes commands, and where it answers the client that sent them. */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1'
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`

/** Commands in one $CONTROL message: the plugin answers them together, in one response message. */
export const DYNSEC_BATCH = 100

export type DynsecControlOptions = {
  url: string
  clientId: string
  username?: string
  password?: string
  /** Extra mqtt.js options (tests: reconnect period). */
  client?: Partial<IClientOptions>
}

/** The server's line to the plugin: commands out, each answered or failed. */
export type DynsecControl = {
  client: MqttClient
  /**
   * Sends the commands (in messages of DYNSEC_BATCH) and answers the plugin's response to each,
   * in order. Rejects when the broker is not reachable or a response does not come in time; the
   * commands may have been applied then, which is why every command the server sends is one it
   * may send again.
   */
  send(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]>
  close(): Promise<void>
}

type Waiting = { resolve: (r: DynsecResponse) => void; reject: (e: Error) => void }

/**
 * The plugin saves its whole JSON file after every command, so a command takes longer the more
 * accounts the broker holds (about 40 ms each at 2,000 devices, measured): the wait grows with
 * the batch.
 */
function timeoutMs(commands: number) {
  return 30_000 + 2_000 * commands
}

/**
 * A connection of its own (clean session, its own client id) to the broker's $CONTROL topic with
 * the server's account, which must be allowed to use it (the dynsec admin role). The gateway's
 * reading connection is not used: it hands every message it gets to the engine.
 */
export function connectDynsecControl(opts: DynsecControlOptions): DynsecControl {
  const client = connect(opts.url, {
    clientId: opts.clientId,
    clean: true,
    protocolVersion: 4,
    username: opts.username,
    password: opts.password,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    ...opts.client,
  })
  const waiting = new Map<string, Waiting>()
  let subscribed: Promise<void> = new Promise(() => {})
  let onSubscribed: (() => void) | null = null
  const resetSubscribed = () => {
    subscribed = new Promise<void>((resolve) => {
      onSubscribed = resolve
    })
  }
  resetSubscribed()
  client.on('connect', () => {
    client.subscribe(DYNSEC_RESPONSE_TOPIC, { qos: 1 }, (err, granted) => {
      if (err || granted?.[0]?.qos === 128) return
      onSubscribed?.()
    })
  })
  client.on('close', () => {
    // Responses to what was sent on the lost connection will not come: fail them now.
    const lost = [...waiting.values()]
    waiting.clear()
    for (const w of lost) w.reject(new Error('broker connection lost before the dynsec response'))
    resetSubscribed()
  })
  client.on('error', () => {})
  client.on('message', (topic, payload) => {
    if (topic !== DYNSEC_RESPONSE_TOPIC) return
    let body: { responses?: DynsecResponse[] }
    try {
      body = JSON.parse(payload.toString('utf8'))
    } catch {
      return
    }
    for (const r of body.responses ?? []) {
      const w = r.correlationData ? waiting.get(r.correlationData) : undefined
      if (!w || !r.correlationData) continue
      waiting.delete(r.correlationData)
      w.resolve(r)
    }
  })

  async function sendBatch(batch: readonly DynsecCommand[]): Promise<DynsecResponse[]> {
    const wait = timeoutMs(batch.length)
    await Promise.race([
      subscribed,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('dynsec: broker not connected')), wait).unref(),
      ),
    ])
    const ids = batch.map(() => crypto.randomUUID())
    const answers = ids.map(
      (id) =>
        new Promise<DynsecResponse>((resolve, reject) => {
          waiting.set(id, { resolve, reject })
        }),
    )
    // One failed answer fails the batch: the others must not reject later, unheard.
    for (const a of answers) a.catch(() => {})
    const timer = setTimeout(() => {
      for (const id of ids) {
        const w = waiting.get(id)
        waiting.delete(id)
        // The plugin answers every command; silence is most often an account not allowed $CONTROL.
        w?.reject(new Error(`dynsec: no response in ${wait} ms (is MQTT_USERNAME the plugin's admin?)`))
      }
    }, wait)
    timer.unref()
    const commands = batch.map((c, i) => ({ ...c, correlationData: ids[i] }))
    client.publish(DYNSEC_TOPIC, JSON.stringify({ commands }), { qos: 1 }, (err) => {
      if (!err) return
      for (const id of ids) {
        const w = waiting.get(id)
        waiting.delete(id)
        w?.reject(err)
      }
    })
    try {
      return await Promise.all(answers)
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    client,
    async send(commands) {
      const out: DynsecResponse[] = []
      for (let i = 0; i < commands.length; i += DYNSEC_BATCH) {
        out.push(...(await sendBatch(commands.slice(i, i + DYNSEC_BATCH))))
      }
      return out
    },
    async close() {
      await client.endAsync(true).catch(() => {})
    },
  }
}
