import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { IntervalHistogram } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { many } from '../../../db/sql.ts'
import type { LoadStats } from '../alarm/load.ts'
import { mb, type Sample } from '../alarm/samples.ts'
import type { ConsoleWs } from '../alarm/types.ts'
import { printTable } from '../harness/report.ts'
import type { ServerProcess } from '../harness/servers.ts'
import { ascending, mean, percentile as pct } from '../harness/stats.ts'
import { type BenchStore, openStore } from './setup.ts'
import type { CallAlarms, CallsOptions, SentCall } from './types.ts'

// 6. The figures: the calls' alarm latencies and their count, where the time went, the device
// load, the machine. Read after the servers stopped (a PGlite is then free to open).

/** What the run left to report. */
export type Run = {
  o: CallsOptions
  store: BenchStore
  servers: ServerProcess[]
  consoles: ConsoleWs[]
  joined: number
  calls: SentCall[]
  alarms: CallAlarms
  stats: LoadStats
  samples: Sample[]
  delay: IntervalHistogram
  load0: number[]
  load1: number[]
  wallStart: number
  loadSecs: number
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')
/** p50, p95, p99 and max of ascending `xs`, in ms. */
const spread = (xs: number[]) =>
  `p50 ${f0(pct(xs, 50))}, p95 ${f0(pct(xs, 95))}, p99 ${f0(pct(xs, 99))}, max ${f0(xs.at(-1) ?? Number.NaN)}`

/** Every console's first frame of each answered call, the first console's of each, and the count of frames. */
function arrivals({ calls, alarms, consoles }: Run) {
  const all: number[] = []
  const first: number[] = []
  let expected = 0
  let once = 0
  let missing = 0
  let duplicates = 0
  let outside = 0
  let heardByNone = 0
  const ids = new Set<number>()
  for (const c of calls) {
    if (c.id === null) continue
    ids.add(c.id)
    const got = alarms.frames.get(c.id) ?? new Map<number, number[]>()
    const want = new Set(c.expected)
    expected += want.size
    let firstAt = Number.POSITIVE_INFINITY
    for (const k of want) {
      const times = got.get(k)
      if (!times) {
        missing++
        continue
      }
      if (times.length === 1) once++
      else duplicates += times.length - 1
      all.push(times[0] - c.sentAt)
      firstAt = Math.min(firstAt, times[0])
    }
    for (const k of got.keys()) if (!want.has(k) && !c.indexLink.startsWith(consoles[k].indexLink)) outside++
    if (Number.isFinite(firstAt)) first.push(firstAt - c.sentAt)
    else heardByNone++
  }
  const unknown = [...alarms.frames.keys()].filter((id) => !ids.has(id)).length
  return {
    all: ascending(all),
    first: ascending(first),
    expected,
    once,
    missing,
    duplicates,
    outside,
    heardByNone,
    unknown,
  }
}

/**
 * Where a call's time goes, from the server's stamps: the call's create_time (its intake began:
 * the request parsed and signed in or its signature checked) and the alarm push's create_time
 * (the message handler wrote it), then the first console. Same machine, same clock.
 */
async function stages(run: Run) {
  const answered = run.calls.filter((c) => c.id !== null)
  const database = await openStore(run.store)
  try {
    const created = new Map(
      (
        await many<{ id: number; at: number }>(
          database.db,
          sql`SELECT id::int, extract(epoch FROM create_time) * 1000 AS at FROM call_events
              WHERE id = ANY(${`{${answered.map((c) => c.id).join(',')}}`}::bigint[])`,
        )
      ).map((r) => [Number(r.id), Number(r.at)]),
    )
    const pushIds = [...run.alarms.pushIds.values()]
    const pushed = new Map(
      (
        await many<{ id: number; at: number }>(
          database.db,
          sql`SELECT id::int, extract(epoch FROM create_time) * 1000 AS at FROM live_pushes
              WHERE id = ANY(${`{${pushIds.join(',')}}`}::bigint[])`,
        )
      ).map((r) => [Number(r.id), Number(r.at)]),
    )
    const toIntake: number[] = []
    const toPush: number[] = []
    const toFirst: number[] = []
    const toLast: number[] = []
    for (const c of answered) {
      const id = c.id as number
      const at = created.get(id)
      const pushId = run.alarms.pushIds.get(id)
      const p = pushId === undefined ? undefined : pushed.get(pushId)
      const got = run.alarms.frames.get(id)
      if (at === undefined || p === undefined || !got) continue
      const times = [...got.values()].map((t) => t[0])
      toIntake.push(at - c.sentAt)
      toPush.push(p - at)
      toFirst.push(Math.min(...times) - p)
      toLast.push(Math.max(...times) - Math.min(...times))
    }
    const line = (xs: number[]) => {
      const s = ascending(xs)
      return `${f0(pct(s, 50))} / ${f0(pct(s, 99))}`
    }
    return `${toIntake.length} calls: POST to the intake ${line(toIntake)}; intake to the alarm push (region, transaction, commit, message drain) ${line(toPush)}; push to the first console (NOTIFY, hub, bench) ${line(toFirst)}; first to last console ${line(toLast)}`
  } finally {
    await database.close()
  }
}

/** Alarm latency p50 / p99 (every console) by the minute the call was sent. */
function byMinute({ o, calls, alarms, wallStart }: Run) {
  const out: string[] = []
  for (let m = 0; m < Math.ceil(o.minutes); m++) {
    const xs = ascending(
      calls
        .filter(
          (c) =>
            c.id !== null && c.sentAt - wallStart >= m * 60_000 && c.sentAt - wallStart < (m + 1) * 60_000,
        )
        .flatMap((c) => [...(alarms.frames.get(c.id as number)?.values() ?? [])].map((t) => t[0] - c.sentAt)),
    )
    if (xs.length) out.push(`${m + 1}: ${f0(pct(xs, 50))} / ${f0(pct(xs, 99))}`)
  }
  return out.join('; ')
}

/** The machine's figures: each server's RSS, the CPU, the bench's event loop, the load average. */
function machineRows({ o, servers, samples, delay, load0, load1 }: Run) {
  const during = samples.slice(1)
  const avg = (f: (s: Sample) => number) => f0(mean(during.map(f)))
  const cores = os.cpus().length
  const rss = servers
    .map(
      (_, i) =>
        `${mb(samples[0]?.rss[i] ?? 0)} → ${mb(samples.at(-1)?.rss[i] ?? 0)} (peak ${mb(Math.max(...samples.map((s) => s.rss[i])))})`,
    )
    .join('; ')
  const serverCpu = servers.map((_, i) => avg((s) => s.servers[i])).join(' + ')
  const pgCpu =
    o.adminUrl === null
      ? 'PGlite in the server'
      : `PostgreSQL: the bench database's backends ${avg((s) => s.postgresOurs)}, every postgres process ${avg((s) => s.postgres)}`
  const others = avg(
    (s) => s.machine * cores - s.servers.reduce((x, y) => x + y, 0) - (o.adminUrl ? s.postgres : 0) - s.bench,
  )
  return [
    ['server RSS, start → end (peak)', rss],
    [
      'CPU (% of one core, mean of 30 s samples)',
      `machine ${avg((s) => s.machine)} % of ${cores} cores busy; servers ${serverCpu}; ${pgCpu}; bench ${avg((s) => s.bench)}; other processes ${others}`,
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
  const { o, calls, stats, loadSecs } = run
  const a = arrivals(run)
  const answered = calls.filter((c) => c.id !== null)
  const failed = calls.filter((c) => c.error !== null)
  const ack = ascending(answered.map((c) => c.ackMs as number))
  const batchAck = ascending(stats.ackMs)
  const kinds = [...stats.errorKinds].map(([k, v]) => `${v}× ${k}`).join('; ') || 'none'
  const db = o.adminUrl ? `PostgreSQL, ${o.instances} instance(s)` : 'PGlite, 1 instance'
  const rows = [
    [
      'run',
      `${o.minutes} min on ${db}; ${o.consoles} consoles (${run.joined} joined); ${o.calls} calls/s (${o.via}); ${o.devices} devices at ${o.rate} msg/s offered, batches of ${o.batch}`,
    ],
    [
      'calls',
      `${calls.length} sent (${f0(calls.length / loadSecs)}/s), ${answered.length} answered, ${failed.length} failed${failed.length ? ` (${failed[0].error})` : ''}; answer ${spread(ack)} ms`,
    ],
    ['alarm latency, every console in scope', `**${spread(a.all)} ms** (${a.all.length} frames)`],
    ['alarm latency, first console of each call', `${spread(a.first)} ms`],
    [
      'alarm frames',
      `**${a.once} of ${a.expected} expected arrived exactly once**; ${a.missing} never arrived (${a.heardByNone} calls heard by no console); ${a.duplicates} duplicates; ${a.outside} outside the console's scope; ${a.unknown} calls of no answered request; ${run.alarms.escalations} escalations, ${run.alarms.other} other alarms`,
    ],
    ['where the time goes, p50 / p99 ms', await stages(run)],
    ['alarm latency p50 / p99 by minute (ms)', byMinute(run)],
    [
      'device messages',
      `offered ${o.rate}/s: sent ${stats.offered} (${f0(stats.offered / loadSecs)}/s), acknowledged ${stats.acked} (**${f0(stats.acked / loadSecs)}/s**), not offered (client behind) ${stats.skipped}; batch ack ${spread(batchAck)} ms; errors ${stats.errors}, refused ${stats.refused}: ${kinds}`,
    ],
    ...machineRows(run),
  ]
  console.log()
  printTable(['figure', 'value'], rows)
  for (const s of run.servers) {
    const text = fs.existsSync(s.logFile) ? fs.readFileSync(s.logFile, 'utf8') : ''
    const lines = text.split('\n').filter((l) => l.trim())
    console.log(`\n${path.basename(s.logFile)}: ${lines.length} lines of warnings and errors`)
    for (const l of lines.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`)
  }
  console.log(`\nwall time ${((Date.now() - run.wallStart) / 1000).toFixed(0)} s`)
}
