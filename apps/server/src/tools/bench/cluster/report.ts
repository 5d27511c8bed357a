import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { LoadStats } from '../alarm/load.ts'
import type { Alarms, ConsoleWs } from '../alarm/types.ts'
import { printTable } from '../harness/report.ts'
import { ascending, percentile } from '../harness/stats.ts'
import { type MemorySample, memoryGrowth, memorySvg } from './memory.ts'
import type { MinuteRow } from './minutes.ts'
import type { MqttLoadStats } from './mqtt-load.ts'
import type { ClusterBenchOptions, RunResult } from './types.ts'

// A run's figures as Markdown: the rates, the acknowledgement and alarm latencies, the minutes,
// each process's memory; the soak's memory curve written beside its CSV.

export type RunFigures = {
  o: ClusterBenchOptions
  servers: number
  secs: number
  wallStart: number
  load0: number[]
  load1: number[]
  /** Each instance's MQTT count at the start and the end of the load. */
  mqtt0: number[]
  mqtt1: number[]
  mqttLoad: MqttLoadStats
  httpLoad: LoadStats
  alarms: Alarms
  consoles: ConsoleWs[]
  joined: number
  connected: number
  minutes: MinuteRow[]
  memory: MemorySample[]
  rescueSkipped: number
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–')
const pcts = (xs: number[]) => {
  const s = ascending(xs)
  return `${f0(percentile(s, 50))} / ${f0(percentile(s, 95))} / ${f0(percentile(s, 99))} (${s.length})`
}

/** Prints the run's tables; answers its figures for the comparison. */
export async function report(r: RunFigures): Promise<RunResult> {
  const { o, alarms } = r
  const last = r.servers - 1
  const byInstance = r.mqtt1.map((x, i) => x - r.mqtt0[i])
  const storedMqtt = byInstance.reduce((a, b) => a + b, 0) / r.secs
  const storedHttp = r.httpLoad.acked / r.secs
  const latency = (instance: number | null) =>
    alarms.rescues.flatMap((x) =>
      [...x.got].filter(([c]) => instance === null || r.consoles[c].instance === instance).map(([, v]) => v),
    )
  const expected = alarms.rescues.reduce((n, x) => n + x.expected.size, 0)
  const got = alarms.rescues.reduce((n, x) => n + x.got.size, 0)
  const lines: [string, string][] = [
    [
      'run',
      `${r.servers} instance(s), ${f1(r.secs / 60)} min from ${new Date(r.wallStart).toISOString()}; load average ${r.load0.map(f1).join(' ')} before, ${r.load1.map(f1).join(' ')} after, ${os.cpus().length} cores`,
    ],
    [
      'devices',
      `${r.connected} of ${o.devices} MQTT devices connected to Mosquitto; ${o.httpDevices} HTTPS devices through nginx`,
    ],
    [
      'offered',
      `${f0(o.rate)} msg/s: ${f0(o.rate * o.mqttShare)} MQTT (one a PUBLISH, QoS 1), ${f0(o.rate * (1 - o.mqttShare))} HTTPS (batches of ${o.batch})`,
    ],
    [
      'stored (acknowledged)',
      `**${f0(storedMqtt + storedHttp)} msg/s**: MQTT ${f0(storedMqtt)} (taken by the instances: ${byInstance.join(' / ')}), HTTPS ${f0(storedHttp)}`,
    ],
    [
      'MQTT',
      `${r.mqttLoad.offered} offered, ${r.mqttLoad.brokerAcked} PUBACKs, ${r.mqttLoad.errors} errors${r.mqttLoad.errorKinds.size ? ` (${[...r.mqttLoad.errorKinds].map(([k, n]) => `${k} ×${n}`).join(', ')})` : ''}, ${r.mqttLoad.skipped} not offered (device waiting); PUBACK p50 / p95 / p99 ${pcts(r.mqttLoad.ackMs)} ms`,
    ],
    [
      'HTTPS',
      `${r.httpLoad.offered} offered, ${r.httpLoad.acked} acknowledged, ${r.httpLoad.errors + r.httpLoad.refused} failed${r.httpLoad.errorKinds.size ? ` (${[...r.httpLoad.errorKinds].map(([k, n]) => `${k} ×${n}`).join(', ')})` : ''}, ${r.httpLoad.skipped} not offered; request p50 / p95 / p99 ${pcts(r.httpLoad.ackMs)} ms`,
    ],
    [
      `alarm, consoles on instance ${last}`,
      `p50 / p95 / p99 **${pcts(latency(last))}** ms, PUBLISH to the console's frame`,
    ],
    ...(r.servers > 1 ? [['alarm, every console', `${pcts(latency(null))} ms`] as [string, string]] : []),
    [
      'alarms',
      `${alarms.rescues.length} rescues over MQTT (${r.rescueSkipped} skipped), ${alarms.rescues.filter((x) => x.got.size).length} heard; ${got} of ${expected} expected frames on ${r.joined} of ${o.consoles} consoles; ${alarms.outOfScope} out of scope, ${alarms.duplicates} duplicates, ${alarms.unknown} unknown`,
    ],
  ]
  console.log(`\n### ${r.servers} instance(s)${o.soak ? ', soak' : ''}\n`)
  printTable(['', ''], lines)
  console.log('\nBy minute (stored msg/s; p99 ms; alarm on the last instance):\n')
  printTable(
    ['minute', 'MQTT', 'HTTPS', 'PUBACK p99', 'HTTPS p99', 'alarm p50', 'alarm p99', 'samples'],
    r.minutes.map((m) => [
      m.minute,
      f0(m.mqtt),
      f0(m.https),
      f0(m.mqttAckP99),
      f0(m.httpAckP99),
      f0(m.alarmP50),
      f0(m.alarmP99),
      m.alarmSamples,
    ]),
  )
  const warmS = o.warmUpMinutes * 60
  console.log(
    `\nMemory (MB; after the warm-up = the mean of minute ${o.warmUpMinutes + 1}, end = the last minute's):\n`,
  )
  const growth = memoryGrowth(r.memory, warmS)
  printTable(
    ['process', 'after warm-up', 'end', 'growth', 'trend (fit)', 'peak', 'CPU (% of a core)'],
    growth.map((g) => [
      g.role,
      f0(g.warm),
      f0(g.last),
      `${f1(g.growth)} %`,
      `${f1(g.trend)} %`,
      f0(g.peak),
      f0(g.cpu),
    ]),
  )
  const name = `cluster-${o.soak ? 'soak' : 'run'}-${r.servers}`
  const svg = path.join(o.out, `${name}-memory.svg`)
  fs.writeFileSync(
    svg,
    memorySvg(
      r.memory,
      warmS,
      `Memory (MB): ${r.servers} instance(s), ${f0(o.rate)} msg/s, ${o.consoles} consoles, ${f0(r.secs / 60)} min`,
    ),
  )
  console.log(`\nmemory samples: ${path.join(o.out, `${name}.csv`)}; chart ${svg}`)
  return {
    servers: r.servers,
    secs: r.secs,
    stored: storedMqtt + storedHttp,
    storedMqtt,
    storedHttp,
    mqttByInstance: byInstance,
    offered: o.rate,
    lines,
  }
}
