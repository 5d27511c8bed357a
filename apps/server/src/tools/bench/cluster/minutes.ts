import os from 'node:os'
import type { LoadStats } from '../alarm/load.ts'
import type { Alarms, ConsoleWs } from '../alarm/types.ts'
import { log } from '../harness/report.ts'
import { ascending, percentile } from '../harness/stats.ts'
import { mqttIn } from './metrics.ts'
import type { MqttLoadStats } from './mqtt-load.ts'

// The run minute by minute (the soak's p99 must stay steady): messages stored, the acknowledgement
// times of both transports, and the alarm latency of the rescues sent in that minute on the
// consoles of the last instance; a progress line every 10 s.

/** A mark taken at a minute's end: the counters so far. */
type Mark = { s: number; mqtt: number[]; httpAcked: number; mqttAcks: number; httpAcks: number }

export type MinuteRow = {
  minute: number
  /** Messages a second stored by the servers over the minute: MQTT (their count), HTTPS (acknowledged). */
  mqtt: number
  https: number
  mqttAckP99: number
  httpAckP99: number
  /** Alarm latency p50 / p99 of the minute's rescues, on the consoles of the last instance; how many samples. */
  alarmP50: number
  alarmP99: number
  alarmSamples: number
}

type Inputs = {
  bases: string[]
  mqtt0: number[]
  mqttLoad: MqttLoadStats
  httpLoad: LoadStats
  alarms: Alarms
  consoles: ConsoleWs[]
  runStart: number
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

/** Starts the marks and the progress lines; stop() ends them, rows() (after the grace) answers the minutes. */
export function startMinutes(x: Inputs) {
  const marks: Mark[] = [{ s: 0, mqtt: x.mqtt0, httpAcked: 0, mqttAcks: 0, httpAcks: 0 }]
  const last = x.bases.length - 1
  const mark = async () => {
    marks.push({
      s: (performance.now() - x.runStart) / 1000,
      mqtt: await mqttIn(x.bases),
      httpAcked: x.httpLoad.acked,
      mqttAcks: x.mqttLoad.ackMs.length,
      httpAcks: x.httpLoad.ackMs.length,
    })
  }
  const minuteTimer = setInterval(() => void mark(), 60_000)
  let lastProgress = { s: 0, mqtt: sum(x.mqtt0), http: 0 }
  const progress = setInterval(async () => {
    const s = (performance.now() - x.runStart) / 1000
    const mqtt = sum(await mqttIn(x.bases))
    const http = x.httpLoad.acked
    const dt = Math.max(0.001, s - lastProgress.s)
    const lat = ascending(x.alarms.rescues.flatMap((r) => [...r.got.values()]))
    log(
      `${s.toFixed(0)} s: stored ${((mqtt - lastProgress.mqtt) / dt).toFixed(0)} mqtt + ${((http - lastProgress.http) / dt).toFixed(0)} https msg/s | mqtt offered ${x.mqttLoad.offered}, PUBACKs ${x.mqttLoad.brokerAcked}, skipped ${x.mqttLoad.skipped}, errors ${x.mqttLoad.errors} | https errors ${x.httpLoad.errors + x.httpLoad.refused}, skipped ${x.httpLoad.skipped}, in flight ${x.httpLoad.inflight} | rescues ${x.alarms.rescues.length}, alarm p50 ${percentile(lat, 50)?.toFixed(0)} p99 ${percentile(lat, 99)?.toFixed(0)} ms | load ${os.loadavg()[0].toFixed(1)}`,
    )
    lastProgress = { s, mqtt, http }
  }, 10_000)
  return {
    stop() {
      clearInterval(minuteTimer)
      clearInterval(progress)
    },
    rows(): MinuteRow[] {
      const rows: MinuteRow[] = []
      const wallStart = Date.now() - (performance.now() - x.runStart)
      for (let k = 1; k < marks.length; k++) {
        const a = marks[k - 1]
        const b = marks[k]
        const dt = b.s - a.s
        const onLast = new Set(x.consoles.filter((c) => c.instance === last).map((c) => c.i))
        const lat = ascending(
          x.alarms.rescues
            .filter((r) => r.sentAt >= wallStart + a.s * 1000 && r.sentAt < wallStart + b.s * 1000)
            .flatMap((r) => [...r.got].filter(([c]) => onLast.has(c)).map(([, v]) => v)),
        )
        rows.push({
          minute: k,
          mqtt: (sum(b.mqtt) - sum(a.mqtt)) / dt,
          https: (b.httpAcked - a.httpAcked) / dt,
          mqttAckP99: percentile(ascending(x.mqttLoad.ackMs.slice(a.mqttAcks, b.mqttAcks)), 99),
          httpAckP99: percentile(ascending(x.httpLoad.ackMs.slice(a.httpAcks, b.httpAcks)), 99),
          alarmP50: percentile(lat, 50),
          alarmP99: percentile(lat, 99),
          alarmSamples: lat.length,
        })
      }
      return rows
    },
  }
}
