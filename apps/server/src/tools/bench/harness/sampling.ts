import fs from 'node:fs'

// CPU and memory readings: of other processes from /proc (the servers a benchmark started,
// PostgreSQL, the machine), and of the benchmark's own process.

/** Clock ticks a second in /proc (USER_HZ). */
export const TICKS_PER_SECOND = 100

/** VmRSS of a process in kB (0 when it is gone). */
export function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : 0
  } catch {
    return 0
  }
}

/** CPU ticks (user + system) of a process. */
export function processTicks(pid: number): number {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
    return Number(f[11]) + Number(f[12])
  } catch {
    return 0
  }
}

export type PostgresTicks = Map<number, { ticks: number; ours: boolean }>

/** CPU ticks of every process called `postgres` by pid, and whether it serves `dbName`. */
export function postgresTicks(dbName: string): PostgresTicks {
  const out: PostgresTicks = new Map()
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
      if (!s.includes('(postgres)')) continue
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8')
      out.set(Number(d), { ticks: Number(f[11]) + Number(f[12]), ours: cmd.includes(dbName) })
    } catch {}
  }
  return out
}

/** Ticks spent between two readings by the processes alive at the second (ours, all). */
export function postgresDelta(before: PostgresTicks, after: PostgresTicks) {
  let ours = 0
  let all = 0
  for (const [pid, a] of after) {
    const d = a.ticks - (before.get(pid)?.ticks ?? 0)
    all += d
    if (a.ours) ours += d
  }
  return { ours, all }
}

/** The machine's busy and total jiffies since boot. */
export function machineTicks() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  const idle = f[3] + (f[4] ?? 0)
  const total = f.reduce((x, y) => x + y, 0)
  return { busy: total - idle, total }
}

/**
 * This process's memory, sampled every `everyMs` until stop(): the RSS at the start, and the
 * peaks of the RSS (read once more at the stop), the V8 heap (total and used), external memory
 * and array buffers.
 */
export function sampleMemory(everyMs = 5) {
  const before = process.memoryUsage().rss
  const peak = { rss: before, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }
  const timer = setInterval(() => {
    const m = process.memoryUsage()
    peak.rss = Math.max(peak.rss, m.rss)
    peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal)
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed)
    peak.external = Math.max(peak.external, m.external)
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers)
  }, everyMs)
  return {
    before,
    stop() {
      clearInterval(timer)
      peak.rss = Math.max(peak.rss, process.memoryUsage().rss)
      return peak
    },
  }
}

/** CPU time of this process (all its threads) since `since`, in ms. */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  return Object.values(process.cpuUsage(since)).reduce((a, b) => a + b, 0) / 1000
}
