import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { IntervalHistogram } from 'node:perf_hooks'
import { printTable } from '../harness/report.ts'
import type { ServerProcess } from '../harness/servers.ts'
import { ascending, mean as avg, percentile as pct } from '../harness/stats.ts'
import type { LoadStats } from './load.ts'
import { mb, type Sample } from './samples.ts'
import { stages } from './stages.ts'
import type { AlarmOptions, Alarms, ConsoleWs } from './types.ts'

// 6. The figures: a table of the run, the samples, the servers' warnings.

/** What the run left to report. */
export type Run = {
  o: AlarmOptions
  url: string
  dbName: string
  servers: ServerProcess[]
  consoles: ConsoleWs[]
  joined: number
  alarms: Alarms
  rescueSkipped: number
  stats: LoadStats
  samples: Sample[]
  /** The bench's event loop delay over the run. */
  delay: IntervalHistogram
  /** Load averages before and after. */
  load0: number[]
  load1: number[]
  wallStart: number
  /** Seconds from the start until the load stopped, and until every request was answered. */
  loadSecs: number
  drained: number
}

const f0 = (x: number) => x.toFixed(0)

/** Pushes a console in scope never got, by rescue's organisation and console; those behind their console's id. */
function lostPushes({ alarms, consoles }: Run) {
  let lost = 0
  const lostBy = new Map<string, number>()
  // A lost push whose console had already been sent a larger id when the push reached its instance.
  let lostBehind = 0
  let lostWithSnapshot = 0
  for (const r of alarms.rescues)
    for (const c of r.expected) {
      if (r.got.has(c)) continue
      lost++
      const con = consoles[c]
      const k = `${r.agencyKey}→${con.phone}@${'ab'[con.instance]}${con.closedCode !== null ? ` closed ${con.closedCode}` : ''}`
      lostBy.set(k, (lostBy.get(k) ?? 0) + 1)
      if (r.aheadOf.has(c)) {
        lostWithSnapshot++
        if ((r.aheadOf.get(c) as number) > (r.pushId as number)) lostBehind++
      }
    }
  const unheard = alarms.rescues.filter((r) => r.got.size === 0).length
  const expected = alarms.rescues.reduce((n, r) => n + r.expected.size, 0)
  const by = [...lostBy]
    .slice(0, 8)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  return [
    [
      'pushes lost',
      `**${lost}** of ${expected} expected (${unheard} rescues heard by no console)${lostBy.size ? `: ${by}` : ''}`,
    ],
    [
      'lost pushes, console already past its id',
      `${lostBehind} of the ${lostWithSnapshot} lost where another console of the same instance got it`,
    ],
  ]
}

/** Alarm latency p50 / p99 by the minute the rescue was sent. */
function byMinute({ o, alarms, wallStart }: Run) {
  const perMinute: string[] = []
  for (let m = 0; m * 60_000 < o.minutes * 60_000; m++) {
    const xs = ascending(
      alarms.rescues
        .filter((r) => r.sentAt - wallStart >= m * 60_000 && r.sentAt - wallStart < (m + 1) * 60_000)
        .flatMap((r) => [...r.got.values()]),
    )
    if (xs.length) perMinute.push(`${m + 1}: ${pct(xs, 50).toFixed(0)} / ${pct(xs, 99).toFixed(0)}`)
  }
  return perMinute.join('; ')
}

/** The alarm's figures: the rescues sent, the latencies to every console and to the first and last of each. */
function alarmRows(run: Run, where: string) {
  const { rescues } = run.alarms
  const all = ascending(rescues.flatMap((r) => [...r.got.values()]))
  const heard = rescues.filter((r) => r.got.size > 0)
  const firstPer = ascending(heard.map((r) => Math.min(...r.got.values())))
  const lastPer = ascending(heard.map((r) => Math.max(...r.got.values())))
  const rescueAck = ascending(rescues.filter((r) => r.ackMs !== null).map((r) => r.ackMs as number))
  const rescueErrors = rescues.filter((r) => r.error !== null)
  const skipped = run.rescueSkipped ? `; ${run.rescueSkipped} not sent, no unused device` : ''
  return [
    [
      'rescues',
      `${rescues.length} (one every ${run.o.rescueEveryMs / 1000} s${skipped}), POST acknowledged p50 ${f0(pct(rescueAck, 50))} ms, p99 ${f0(pct(rescueAck, 99))} ms; ${rescueErrors.length} failed${rescueErrors.length ? ` (${rescueErrors[0].error})` : ''}`,
    ],
    [
      'alarm latency, every console',
      `**p50 ${f0(pct(all, 50))} ms, p95 ${f0(pct(all, 95))}, p99 ${f0(pct(all, 99))}, max ${f0(all.at(-1) ?? 0)}** (${all.length} pushes)`,
    ],
    ['where the time goes, p50 / p99 ms', where],
    [
      'alarm latency, first / last console of each',
      `p99 ${f0(pct(firstPer, 99))} / ${f0(pct(lastPer, 99))} ms; p50 ${f0(pct(firstPer, 50))} / ${f0(pct(lastPer, 50))}`,
    ],
  ]
}

/** The device messages' figures. */
function loadRows({ o, stats, loadSecs, drained, joined }: Run) {
  const ackMs = ascending(stats.ackMs)
  const kinds = [...stats.errorKinds].map(([k, v]) => `${v}× ${k}`).join('; ') || 'none'
  return [
    [
      'run',
      `${o.minutes} min, ${o.consoles} consoles (${joined} joined), ${o.devices} devices, batches of ${o.batch}`,
    ],
    [
      'device messages',
      `offered ${o.rate}/s: sent ${stats.offered} (${f0(stats.offered / loadSecs)}/s), acknowledged ${stats.acked} (**${f0(stats.acked / loadSecs)}/s**), not offered (client behind) ${stats.skipped}`,
    ],
    ['HTTP errors', `${stats.errors} messages in failed requests, ${stats.refused} refused; ${kinds}`],
    [
      'batch ack latency',
      `p50 ${f0(pct(ackMs, 50))} ms, p95 ${f0(pct(ackMs, 95))}, p99 ${f0(pct(ackMs, 99))}, max ${f0(ackMs.at(-1) ?? 0)} (${stats.requests} requests; all done ${drained.toFixed(0)} s after the start)`,
    ],
  ]
}

/** The frames and consoles' figures. */
function frameRows({ alarms, consoles }: Run) {
  const closed = consoles.filter((c) => c.closedCode !== null)
  const frames: Record<number, number> = {}
  for (const c of consoles) for (const [k, v] of Object.entries(c.frames)) frames[+k] = (frames[+k] ?? 0) + v
  return [
    ['pushes outside scope', `**${alarms.outOfScope}**; alarms of no bench rescue ${alarms.unknown}`],
    ['duplicate / escalated alarm frames', `${alarms.duplicates} / ${alarms.escalations}`],
    [
      'other frames received (warm-up and run)',
      `device status (11) ${frames[11] ?? 0}, count (12) ${frames[12] ?? 0}, message (13) ${frames[13] ?? 0}`,
    ],
    [
      'consoles closed during the run',
      `${closed.length}${closed.length ? ` (codes ${[...new Set(closed.map((c) => c.closedCode))].join(', ')})` : ''}`,
    ],
  ]
}

/** The machine's figures: the servers' RSS, CPU, the bench's event loop, the load average. */
function machineRows({ o, samples, delay, load0, load1 }: Run) {
  const window = (from: number, to: number) => samples.filter((s) => s.s >= from && s.s <= to)
  const first = window(0, 60)
  const lastMin = window(Math.max(0, o.minutes * 60 - 60), 1e9)
  const rssLine = (w: Sample[]) => [0, 1].map((i) => mb(avg(w.map((s) => s.rss[i])))).join(' / ')
  // The first sample is the run's start (RSS only; its CPU interval is empty).
  const during = samples.slice(1)
  const cores = os.cpus().length
  const cpu = (f: (s: Sample) => number) => f0(avg(during.map(f)))
  const peak = [0, 1].map((i) => mb(Math.max(...samples.map((s) => s.rss[i])))).join(' / ')
  return [
    [
      'server RSS A / B',
      `start ${rssLine(samples.slice(0, 1))}; first minute ${rssLine(first)}; last minute ${rssLine(lastMin)}; peak ${peak}`,
    ],
    [
      'CPU (% of one core, mean of 30 s samples)',
      `machine ${cpu((s) => s.machine)} % of ${cores} cores busy; server A ${cpu((s) => s.servers[0])}, B ${cpu((s) => s.servers[1])}, PostgreSQL: the bench database's backends ${cpu((s) => s.postgresOurs)}, every postgres process ${cpu((s) => s.postgres)}, bench ${cpu((s) => s.bench)}, other processes ${cpu((s) => s.machine * cores - s.servers[0] - s.servers[1] - s.postgres - s.bench)}`,
    ],
    [
      'bench event loop delay',
      `p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms (bounds what the bench adds to a latency)`,
    ],
    [
      'load average',
      `before ${load0.map((x) => x.toFixed(1)).join(' ')}; after ${load1.map((x) => x.toFixed(1)).join(' ')}`,
    ],
  ]
}

/** Prints the report. */
export async function report(run: Run) {
  const where = await stages(run.url, run.alarms.rescues)
  const rows = [
    ...loadRows(run),
    ...alarmRows(run, where),
    ...lostPushes(run),
    ['alarm latency p50 / p99 by minute (ms)', byMinute(run)],
    ...frameRows(run),
    ...machineRows(run),
  ]
  console.log()
  printTable(['figure', 'value'], rows)
  console.log(
    '\nSamples (s: RSS A / B, machine busy %, A %, B %, PostgreSQL bench database / all %, bench %, acked/s, load):',
  )
  for (const s of run.samples)
    console.log(
      `  ${String(s.s).padStart(4)} s: ${mb(s.rss[0])} / ${mb(s.rss[1])}, ${f0(s.machine)} %, ${f0(s.servers[0])} %, ${f0(s.servers[1])} %, ${f0(s.postgresOurs)} / ${f0(s.postgres)} %, ${f0(s.bench)} %, ${f0(s.rate)}/s, ${s.load1.toFixed(1)}`,
    )
  for (const s of run.servers) {
    const text = fs.existsSync(s.logFile) ? fs.readFileSync(s.logFile, 'utf8') : ''
    const lines = text.split('\n').filter((l) => l.trim())
    console.log(`\n${path.basename(s.logFile)}: ${lines.length} lines of warnings and errors`)
    for (const l of lines.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`)
  }
  console.log(
    `\nwall time ${((Date.now() - run.wallStart) / 1000).toFixed(0)} s; database ${run.dbName}${run.o.keep ? ' kept' : ' dropped'}`,
  )
}
