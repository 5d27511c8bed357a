import os from 'node:os'
import { log } from '../harness/report.ts'
import {
  machineTicks,
  postgresDelta,
  postgresTicks,
  processTicks,
  rssKb,
  TICKS_PER_SECOND,
} from '../harness/sampling.ts'
import type { ServerProcess } from '../harness/servers.ts'
import { ascending, percentile } from '../harness/stats.ts'
import type { LoadStats } from './load.ts'
import type { Alarms } from './types.ts'

// 5. What the run is doing: every 30 s each server's RSS and the CPU of the machine, the servers,
// PostgreSQL and the bench; every 10 s a progress line.

export type Sample = {
  /** Seconds since the run's start. */
  s: number
  rss: number[]
  machine: number
  servers: number[]
  postgres: number
  postgresOurs: number
  bench: number
  load1: number
  rate: number
}

export const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`

/**
 * Samples now and every 30 s (CPU as % of one core over the interval); stop() takes the last
 * partial interval's sample, unless one was just taken.
 */
export function startSampling(servers: ServerProcess[], dbName: string, stats: LoadStats, runStart: number) {
  const samples: Sample[] = []
  const hz = TICKS_PER_SECOND
  let last = {
    m: machineTicks(),
    srv: servers.map((s) => processTicks(s.pid)),
    pgT: postgresTicks(dbName),
    cpu: process.cpuUsage(),
    t: performance.now(),
    acked: 0,
  }
  const sample = () => {
    const m = machineTicks()
    const srv = servers.map((s) => processTicks(s.pid))
    const pgT = postgresTicks(dbName)
    const pgD = postgresDelta(last.pgT, pgT)
    const cpu = process.cpuUsage()
    const t = performance.now()
    const secs = (t - last.t) / 1000
    samples.push({
      s: Math.round((t - runStart) / 1000),
      rss: servers.map((s) => rssKb(s.pid)),
      machine: (100 * (m.busy - last.m.busy)) / Math.max(1, m.total - last.m.total),
      servers: srv.map((x, i) => (100 * (x - last.srv[i])) / hz / Math.max(secs, 0.001)),
      postgres: (100 * pgD.all) / hz / Math.max(secs, 0.001),
      postgresOurs: (100 * pgD.ours) / hz / Math.max(secs, 0.001),
      bench: (cpu.user - last.cpu.user + cpu.system - last.cpu.system) / 1e4 / Math.max(secs, 0.001),
      load1: os.loadavg()[0],
      rate: (stats.acked - last.acked) / Math.max(secs, 0.001),
    })
    last = { m, srv, pgT, cpu, t, acked: stats.acked }
  }
  sample()
  const timer = setInterval(sample, 30_000)
  return {
    samples,
    stop() {
      // The last partial interval, unless a sample was just taken.
      if (performance.now() - last.t > 10_000) sample()
      clearInterval(timer)
    },
  }
}

/** A progress line every 10 s: the message rate, the rescues heard, the alarm latency, the servers' RSS. */
export function startProgress(servers: ServerProcess[], stats: LoadStats, alarms: Alarms, runStart: number) {
  const timer = setInterval(() => {
    const secs = (performance.now() - runStart) / 1000
    const { rescues } = alarms
    const done = rescues.filter((r) => r.got.size > 0)
    const lat = ascending(rescues.flatMap((r) => [...r.got.values()]))
    log(
      `${secs.toFixed(0)} s: ${(stats.acked / secs).toFixed(0)} msg/s acked, offered ${stats.offered}, skipped ${stats.skipped}, errors ${stats.errors + stats.refused}, in flight ${stats.inflight} | rescues ${rescues.length} (${done.length} heard), alarm p50 ${percentile(lat, 50)?.toFixed(0)} p99 ${percentile(lat, 99)?.toFixed(0)} ms | RSS ${servers.map((s) => mb(rssKb(s.pid))).join(' / ')} | load ${os.loadavg()[0].toFixed(1)}`,
    )
  }, 10_000)
  return () => clearInterval(timer)
}
