// The device side of bench:mqtt, in a worker thread of its own so that publishing does not take
// the server's event loop: one MQTT connection per device (client id = serial), each keeping
// `window` QoS 1 heartbeats in flight, for `seconds` or `count` messages a device. Posts back
// how many were acknowledged.
import { parentPort, workerData } from 'node:worker_threads'
import { connectAsync, type MqttClient } from 'mqtt'

type Device = { sn: string; username?: string; password?: string }
/** Either `seconds` of publishing, or `count` messages per device. */
type Input = {
  url: string
  devices: Device[]
  window: number
  seconds?: number
  count?: number
  start: number
}

const input = workerData as Input
const clients: MqttClient[] = []
let acked = 0

async function drive(d: Device, c: MqttClient, until: number) {
  let seq = input.start
  let left = input.count ?? Number.POSITIVE_INFINITY
  const one = async () => {
    while (Date.now() < until && left-- > 0) {
      seq++
      const msg = {
        v: 1,
        id: `q${seq}`,
        seq,
        boot: 1000,
        ts: Date.now(),
        type: 'heartbeat',
        data: { battery: 80 },
      }
      await c.publishAsync(`aed/v1/${d.sn}/up/heartbeat`, JSON.stringify(msg), { qos: 1 })
      acked++
    }
  }
  await Promise.all(Array.from({ length: input.window }, one))
}

async function main() {
  for (const d of input.devices) {
    clients.push(
      await connectAsync(input.url, {
        clientId: d.sn,
        username: d.username,
        password: d.password,
        reconnectPeriod: 0,
        clean: true,
      }),
    )
  }
  parentPort?.postMessage({ connected: true })
  const until = input.seconds ? Date.now() + input.seconds * 1000 : Number.POSITIVE_INFINITY
  const ticker = setInterval(() => parentPort?.postMessage({ acked }), 1000)
  await Promise.all(input.devices.map((d, i) => drive(d, clients[i], until)))
  clearInterval(ticker)
  await Promise.all(clients.map((c) => c.endAsync(true)))
  parentPort?.postMessage({ acked, done: true })
}

void main()
