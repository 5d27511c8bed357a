import fs from 'node:fs'
import { processTicks, rssKb, TICKS_PER_SECOND } from '../harness/sampling.ts'

// Each process's memory and CPU by pid, every few seconds, into a CSV: the server instances,
// Mosquitto, nginx, PostgreSQL and the bench itself. A server's figure is its VmRSS; PostgreSQL's
// is the private memory (RssAnon) of the postmaster and its backends summed, since each backend's
// VmRSS counts the shared buffers again.

/** A process to follow: `tree` sums the private memory of it and its children. */
export type Watched = { role: string; pid: number; tree?: boolean }

export type MemorySample = { s: number; role: string; pid: number; rssKb: number; cpu: number }

function status(pid: number, field: string): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : 0
  } catch {
    return 0
  }
}

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
      if (Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d))
    } catch {}
  }
  return out
}

/** The memory of `w` (kB) and the CPU ticks of each of its processes by pid. */
function reading(w: Watched) {
  const pids = w.tree ? [w.pid, ...childrenOf(w.pid)] : [w.pid]
  return {
    kb: w.tree ? pids.reduce((a, p) => a + status(p, 'RssAnon'), 0) : rssKb(w.pid),
    ticks: new Map(pids.map((p) => [p, processTicks(p)])),
  }
}

/** Ticks spent since `before` by the processes alive now (one started meanwhile: all of its own). */
function ticksSince(before: Map<number, number>, now: Map<number, number>) {
  let n = 0
  for (const [pid, t] of now) n += t - (before.get(pid) ?? 0)
  return n
}

/**
 * Samples `watched` now and every `everyMs` into `csvPath` (time, seconds since `runStart`, role,
 * pid, kB, % of a core) and memory; stop() ends it. `watched` may change between samples (a
 * restarted process).
 */
export function startMemory(watched: () => Watched[], csvPath: string, runStart: number, everyMs = 5000) {
  const samples: MemorySample[] = []
  fs.writeFileSync(csvPath, 'time,s,role,pid,rss_kb,cpu_pct\n')
  let last = new Map<string, { ticks: Map<number, number>; t: number }>()
  const sample = () => {
    const t = performance.now()
    const now = new Map<string, { ticks: Map<number, number>; t: number }>()
    const lines: string[] = []
    for (const w of watched()) {
      const r = reading(w.role === 'bench' ? { ...w, pid: process.pid } : w)
      const before = last.get(`${w.role} ${w.pid}`)
      // A backend that exited meanwhile takes its ticks along: only the living are compared.
      const cpu = before
        ? (100 * ticksSince(before.ticks, r.ticks)) /
          TICKS_PER_SECOND /
          Math.max(0.001, (t - before.t) / 1000)
        : 0
      now.set(`${w.role} ${w.pid}`, { ticks: r.ticks, t })
      const s = Math.round((t - runStart) / 1000)
      samples.push({ s, role: w.role, pid: w.pid, rssKb: r.kb, cpu })
      lines.push(`${new Date().toISOString()},${s},${w.role},${w.pid},${r.kb},${cpu.toFixed(1)}`)
    }
    last = now
    fs.appendFileSync(csvPath, `${lines.join('\n')}\n`)
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    samples,
    stop() {
      clearInterval(timer)
      sample()
    },
  }
}

/** Per role: the mean RSS (MB) over [from, to) seconds. */
function meanMb(samples: MemorySample[], role: string, from: number, to: number) {
  const xs = samples.filter((x) => x.role === role && x.s >= from && x.s < to).map((x) => x.rssKb)
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length / 1024 : Number.NaN
}

/**
 * The growth of a role's memory after `warmS` as the least-squares line through every sample
 * says: its rise over that time, as a percentage of the mean. Two one-minute means (`growth`)
 * catch wherever a garbage collector's saw-tooth happens to be in each minute (the soak at
 * 89d83fd: PostgreSQL +11.3 % by them, its per-minute means going up and down between 198 and
 * 241 MB with no trend); the line does not.
 */
export function memoryTrend(samples: MemorySample[], role: string, warmS: number): number {
  const pts = samples.filter((x) => x.role === role && x.s >= warmS)
  if (pts.length < 2) return Number.NaN
  const n = pts.length
  const mx = pts.reduce((a, p) => a + p.s, 0) / n
  const my = pts.reduce((a, p) => a + p.rssKb, 0) / n
  const sxx = pts.reduce((a, p) => a + (p.s - mx) ** 2, 0)
  if (sxx === 0 || my === 0) return Number.NaN
  const slope = pts.reduce((a, p) => a + (p.s - mx) * (p.rssKb - my), 0) / sxx
  const span = pts[n - 1].s - pts[0].s
  return (100 * slope * span) / my
}

/**
 * Each role's memory after the warm-up (the mean of the minute after `warmS`), at the end (the
 * mean of the last minute), the growth between as a percentage, the trend over the same time
 * (memoryTrend), the peak, and its mean CPU.
 */
export function memoryGrowth(samples: MemorySample[], warmS: number) {
  const end = Math.max(...samples.map((x) => x.s))
  const roles = [...new Set(samples.map((x) => x.role))]
  return roles.map((role) => {
    const warm = meanMb(samples, role, warmS, warmS + 60)
    const last = meanMb(samples, role, end - 60, end + 1)
    const mine = samples.filter((x) => x.role === role)
    return {
      role,
      warm,
      last,
      growth: (100 * (last - warm)) / warm,
      trend: memoryTrend(samples, role, warmS),
      peak: Math.max(...mine.map((x) => x.rssKb)) / 1024,
      cpu: mine.reduce((a, x) => a + x.cpu, 0) / Math.max(1, mine.length),
    }
  })
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf']

/** The memory curve as an SVG line chart: MB against minutes, a line per role, the warm-up shaded. */
export function memorySvg(samples: MemorySample[], warmS: number, title: string): string {
  const W = 900
  const H = 420
  const L = 60
  const R = 170
  const T = 40
  const B = 50
  const roles = [...new Set(samples.map((x) => x.role))]
  const endS = Math.max(60, ...samples.map((x) => x.s))
  const maxMb = Math.max(1, ...samples.map((x) => x.rssKb / 1024)) * 1.1
  const x = (s: number) => L + ((W - L - R) * s) / endS
  const y = (mb: number) => H - B - ((H - T - B) * mb) / maxMb
  const step = maxMb > 1000 ? 200 : maxMb > 400 ? 100 : maxMb > 100 ? 50 : 10
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${L}" y="24" font-size="14">${title}</text>`,
    `<rect x="${x(0)}" y="${T}" width="${x(warmS) - x(0)}" height="${H - T - B}" fill="#eee"/>`,
    `<text x="${x(0) + 4}" y="${T + 14}" fill="#888">warm-up</text>`,
  ]
  for (let mb = 0; mb <= maxMb; mb += step) {
    parts.push(
      `<line x1="${L}" x2="${W - R}" y1="${y(mb)}" y2="${y(mb)}" stroke="#ddd"/>`,
      `<text x="${L - 6}" y="${y(mb) + 4}" text-anchor="end">${mb}</text>`,
    )
  }
  for (let m = 0; m * 60 <= endS; m += endS > 1200 ? 5 : 1) {
    parts.push(`<text x="${x(m * 60)}" y="${H - B + 18}" text-anchor="middle">${m}</text>`)
  }
  parts.push(
    `<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle">minutes</text>`,
    `<text x="16" y="${(T + H - B) / 2}" transform="rotate(-90 16 ${(T + H - B) / 2})" text-anchor="middle">MB</text>`,
  )
  roles.forEach((role, i) => {
    const colour = COLOURS[i % COLOURS.length]
    const pts = samples
      .filter((s) => s.role === role)
      .map((s) => `${x(s.s).toFixed(1)},${y(s.rssKb / 1024).toFixed(1)}`)
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${pts.join(' ')}"/>`,
      `<rect x="${W - R + 12}" y="${T + i * 18}" width="12" height="3" fill="${colour}"/>`,
      `<text x="${W - R + 30}" y="${T + i * 18 + 5}">${role}</text>`,
    )
  })
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}
