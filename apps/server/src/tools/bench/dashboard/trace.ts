import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { ms, printTable } from '../harness/report.ts'
import { newContext, type Storage } from './browser.ts'
import { firstView } from './first-view.ts'

// Chromium traces: of the drives (`--trace-drive`), their long slices; of one first view
// (`--trace`), where the main thread and MapLibre's worker spent the time.

/** A trace's thread names by "pid:tid", from its metadata events. */
function threadNames(
  events: { name: string; ph: string; pid: number; tid: number; args?: { name?: string } }[],
) {
  const threads = new Map<string, string>()
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?')
  return threads
}

/** What --trace-drive records: enough to tell script, layout, compositing and WebGL apart. */
export const TRACE_DRIVE = ['devtools.timeline', 'toplevel', 'gpu', 'cc', 'viz', 'blink', 'v8.execute']

/** The trace's complete slices over 30 ms, by thread and name: count, longest, total (ms). */
export function summariseLongSlices(file: string) {
  type Ev = { name: string; ph: string; dur?: number; pid: number; tid: number; args?: { name?: string } }
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents
  const threads = threadNames(events)
  const rows = new Map<string, { n: number; max: number; total: number }>()
  for (const e of events) {
    if (e.ph !== 'X' || (e.dur ?? 0) < 30_000) continue
    const key = `${threads.get(`${e.pid}:${e.tid}`) ?? '?'} | ${e.name}`
    const row = rows.get(key) ?? { n: 0, max: 0, total: 0 }
    row.n++
    row.max = Math.max(row.max, e.dur! / 1000)
    row.total += e.dur! / 1000
    rows.set(key, row)
  }
  console.log(`\n### Slices over 30 ms during the drive (${file})\n`)
  printTable(
    ['thread', 'slice', 'count', 'longest ms', 'total ms'],
    [...rows]
      .sort((x, y) => y[1].total - x[1].total)
      .slice(0, 25)
      .map(([key, r]) => [key, r.n, ms(r.max), ms(r.total)]),
  )
}

/** A Chromium trace of one first view: time per thread and per top-level event between the response and drawn. */
export async function traceFirstView(browser: Browser, base: string, storage: Storage, timeline: boolean) {
  const context = await newContext(browser, base, timeline, storage)
  const page = await context.newPage()
  const file = path.join(os.tmpdir(), `aed-bench-dashboard-trace-${Date.now()}.json`)
  await browser.startTracing(page, {
    path: file,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8',
      'v8.execute',
      'blink',
      'gpu',
      'toplevel',
      'blink.user_timing',
      'disabled-by-default-v8.cpu_profiler',
      '__metadata',
    ],
  })
  const v = await firstView(page, timeline)
  await browser.stopTracing()
  await context.close()
  type Node = {
    id: number
    parent?: number
    callFrame: { functionName: string; url: string; lineNumber: number }
  }
  type Ev = {
    name: string
    ph: string
    ts: number
    dur?: number
    pid: number
    tid: number
    id?: string
    args?: {
      name?: string
      data?: {
        url?: string
        functionName?: string
        startTime?: number
        cpuProfile?: { nodes?: Node[]; samples?: number[] }
        timeDeltas?: number[]
      }
    }
  }
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents
  const threads = threadNames(events)
  const threadOf = (e: Ev) => threads.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`
  const wanted = (t: string) => /CrRendererMain|DedicatedWorker/.test(t)
  // The page's time origin in trace microseconds, from the page's own 'dashboard:data' mark.
  const nav = events.find((e) => e.name === 'dashboard:data')
  const origin = (nav?.ts ?? 0) - v.data * 1000
  const windows = [
    ['response → data', origin + v.responseEnd * 1000, origin + v.data * 1000],
    ['data → drawn', origin + v.data * 1000, origin + v.drawn * 1000],
  ] as const
  // Trace events that say where time goes beside the JavaScript: the WebGL readback, messages.
  const named =
    /ReadPixels|^Commit$|MessagePort::Accept|SerializedScriptValueFactory|HandlePostMessage|MajorGC|MinorGC|V8.GC_MARK_COMPACTOR|ParseHTML|Paint$|Layout$/
  const perThread = new Map<string, Map<string, number>>()
  const add = (t: string, key: string, msAdd: number) => {
    const m = perThread.get(t) ?? new Map<string, number>()
    m.set(key, (m.get(key) ?? 0) + msAdd)
    perThread.set(t, m)
  }
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || !named.test(e.name)) continue
    const t = threadOf(e)
    if (!wanted(t)) continue
    for (const [w, from, to] of windows) {
      const overlap = Math.min(e.ts + e.dur, to) - Math.max(e.ts, from)
      if (overlap > 0) add(`${t} [${w}] events`, e.name, overlap / 1000)
    }
  }
  // CPU profile samples: self time per function.
  const profiles = new Map<string, { thread: string; t: number; nodes: Map<number, Node> }>()
  for (const e of events) {
    if (e.name === 'Profile' && e.id) {
      profiles.set(`${e.pid}:${e.id}`, {
        thread: threadOf(e),
        t: e.args?.data?.startTime ?? 0,
        nodes: new Map(),
      })
    } else if (e.name === 'ProfileChunk' && e.id) {
      const p = profiles.get(`${e.pid}:${e.id}`)
      const d = e.args?.data
      if (!p || !d) continue
      for (const n of d.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n)
      const samples = d.cpuProfile?.samples ?? []
      const deltas = d.timeDeltas ?? []
      for (let i = 0; i < samples.length; i++) {
        p.t += deltas[i] ?? 0
        const next = deltas[i + 1] ?? 0
        if (!wanted(p.thread)) continue
        const n = p.nodes.get(samples[i])
        const f = n?.callFrame
        const key = f
          ? `${f.functionName || '(anonymous)'}@${(f.url ?? '').split('/').pop() || ''}:${f.lineNumber}`
          : '?'
        for (const [w, from, to] of windows)
          if (p.t >= from && p.t < to) add(`${p.thread} [${w}] js self`, key, next / 1000)
      }
    }
  }
  return { file, view: v, perThread, navFound: Boolean(nav) }
}
