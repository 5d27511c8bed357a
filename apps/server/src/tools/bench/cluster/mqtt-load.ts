import type { BenchDevice, Devices } from '../alarm/types.ts'
import { sleep } from '../harness/servers.ts'
import type { MqttFleet } from './mqtt-fleet.ts'

// The MQTT half of the mixed load: one message a publish, heartbeats and every tenth a self-test
// (one in 50 failing), from the devices in turn, at the offered rate. A device with a publish
// not yet acknowledged by the broker is passed over, as a real one waits for its PUBACK.

export type MqttLoadStats = {
  offered: number
  /** PUBACKs: the broker has the message (the servers store it later, from the shared subscription). */
  brokerAcked: number
  errors: number
  /** Not offered because every device in turn was still waiting. */
  skipped: number
  /** Publish to PUBACK, ms. */
  ackMs: number[]
  errorKinds: Map<string, number>
}

/** Starts publishing `rate` messages a second from `pool` from `runStart`; stop() ends it. */
export function startMqttLoad(
  rate: number,
  devices: Devices,
  pool: BenchDevice[],
  fleet: MqttFleet,
  runStart: number,
) {
  const stats: MqttLoadStats = {
    offered: 0,
    brokerAcked: 0,
    errors: 0,
    skipped: 0,
    ackMs: [],
    errorKinds: new Map(),
  }
  let stop = false
  let rr = 0
  let sent = 0
  const publish = (d: BenchDevice) => {
    const n = sent++
    const msg =
      n % 10 === 9
        ? devices.envelope(d, 'selftest', {
            report_type: 1,
            result: n % 500 === 9 ? 'fail' : 'pass',
            fault_codes: n % 500 === 9 ? ['E02'] : [],
          })
        : devices.envelope(d, 'heartbeat', { battery: 90, rssi: -70 })
    stats.offered++
    d.busy = true
    const t = performance.now()
    void fleet.send(d, [msg]).then((r) => {
      d.busy = false
      if (r.ok) {
        stats.brokerAcked++
        stats.ackMs.push(performance.now() - t)
      } else {
        stats.errors++
        const k = r.error.slice(0, 80)
        stats.errorKinds.set(k, (stats.errorKinds.get(k) ?? 0) + 1)
      }
    })
  }
  const loop = (async () => {
    while (!stop) {
      const due = Math.floor(((performance.now() - runStart) / 1000) * rate) - sent
      // Behind by more than a second's worth: what cannot be offered is counted, not queued.
      if (due > rate) {
        stats.skipped += due - rate
        sent += due - rate
      }
      let want = Math.floor(((performance.now() - runStart) / 1000) * rate) - sent
      let scanned = 0
      while (want > 0 && scanned < pool.length) {
        const d = pool[rr++ % pool.length]
        scanned++
        if (d.busy) continue
        publish(d)
        want--
      }
      if (want > 0) {
        stats.skipped += want
        sent += want
      }
      await sleep(10)
    }
  })()
  return {
    stats,
    stop: () => {
      stop = true
      return loop
    },
  }
}
