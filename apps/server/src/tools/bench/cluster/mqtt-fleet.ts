import { upTopic } from '@aed/contracts/device-protocol'
import type { Envelope } from '../../fleet/model.ts'
import type { SendResult, Transport } from '../../fleet/transports.ts'
import type { BenchDevice } from '../alarm/types.ts'
import { log } from '../harness/report.ts'
import { LeanMqtt } from './lean-mqtt.ts'

// The MQTT devices: one lean connection each to the broker, opened `parallel` at a time, with
// the static credential Mosquitto's dynamic security knows them by.

/** A device's MQTT account as the broker's dynamic security holds it. */
export type MqttLogin = (d: BenchDevice) => { username: string; password: string }

export type MqttFleet = {
  clients: Map<string, LeanMqtt>
  /** Publishes each message on its type's up topic; answers once the broker acknowledged all. */
  send(d: BenchDevice, messages: Envelope[]): Promise<SendResult>
  /** The fleet as a Transport (for the alarm bench's rescues): send only. */
  transport: Transport
  connected(): number
  close(): void
}

/** Connects `devices` to `url` (mqtt://host:port); answers the fleet once every attempt ended. */
export async function connectFleet(
  url: string,
  devices: BenchDevice[],
  login: MqttLogin,
  parallel = 200,
): Promise<MqttFleet> {
  const u = new URL(url)
  const clients = new Map<string, LeanMqtt>()
  const reasons = new Map<string, number>()
  const t0 = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < devices.length) {
        const d = devices[next++]
        const c = new LeanMqtt({
          host: u.hostname,
          port: Number(u.port || 1883),
          clientId: d.sn,
          ...login(d),
          // No keep-alive: 20,000 pings a minute would be load of the bench's own making.
          keepalive: 0,
        })
        clients.set(d.sn, c)
        if (!(await c.connect())) {
          const k = c.error ?? '?'
          reasons.set(k, (reasons.get(k) ?? 0) + 1)
        }
      }
    }),
  )
  const up = [...clients.values()].filter((c) => c.connected).length
  log(
    `mqtt: ${up} of ${devices.length} devices connected in ${((performance.now() - t0) / 1000).toFixed(1)} s${reasons.size ? `; failed: ${[...reasons].map(([k, n]) => `${k} ×${n}`).join(', ')}` : ''}`,
  )
  const send = async (d: BenchDevice, messages: Envelope[]): Promise<SendResult> => {
    const c = clients.get(d.sn)
    if (!c?.connected) return { ok: false, refused: false, error: c?.error ?? 'not connected' }
    try {
      await Promise.all(messages.map((m) => c.publish(upTopic(d.sn, m.type), JSON.stringify(m))))
      return { ok: true, acked: messages.map((m) => m.id), duplicates: [], cmds: [] }
    } catch (e) {
      return { ok: false, refused: false, error: (e as Error).message }
    }
  }
  const bySn = new Map(devices.map((d) => [d.sn, d]))
  return {
    clients,
    send,
    transport: {
      name: 'mqtt',
      maxBatch: 20,
      async start() {},
      send: (dev, messages) => send(bySn.get(dev.sn) as BenchDevice, messages),
      async upload() {
        return { ok: false, refused: true, error: 'not over MQTT' }
      },
      async close() {},
    },
    connected: () => [...clients.values()].filter((c) => c.connected).length,
    close() {
      for (const c of clients.values()) c.close()
    },
  }
}
