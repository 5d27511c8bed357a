import { kib as kb, ms, printTable } from '../harness/report.ts'
import { median } from '../harness/stats.ts'
import type { Res } from './browser.ts'
import type { FirstView, signInPage } from './first-view.ts'
import type { FrameStats } from './frames.ts'
import type { traceFirstView } from './trace.ts'

// The report: Markdown tables of the first views, their bytes, the frames, the sign-in page's
// JavaScript, and the trace.

export type Measured = {
  runs: number
  seconds: number
  views: FirstView[]
  login: Awaited<ReturnType<typeof signInPage>>['rows']
  quiet: FrameStats
  live: (FrameStats & { sent: number }) | null
  traced: Awaited<ReturnType<typeof traceFirstView>> | null
}

const sum = (xs: Res[], k: keyof Res) => xs.reduce((n, r) => n + (r[k] as number), 0)

function firstViews({ runs, views }: Measured) {
  const col = (f: (v: FirstView) => number) => {
    const xs = views.map(f)
    return [ms(median(xs)), ms(Math.max(...xs))]
  }
  console.log(`\n### First view (${runs} runs, fresh context each; ms from navigation start)\n`)
  printTable(
    ['measure', 'median', 'worst'],
    [
      ['device layer response received (responseEnd)', ...col((v) => v.responseEnd)],
      ["'dashboard:data'", ...col((v) => v.data)],
      ["'dashboard:drawn'", ...col((v) => v.drawn)],
      ['**drawn − responseEnd** (target ≤ 1500)', ...col((v) => v.drawn - v.responseEnd)],
      ['data − responseEnd (JSON, React)', ...col((v) => v.data - v.responseEnd)],
      ['drawn − data (features, worker, render)', ...col((v) => v.drawn - v.data)],
    ],
  )
  console.log(`\ndevices drawn: ${[...new Set(views.map((v) => v.count))].join(', ')}`)
}

function bytes({ views }: Measured) {
  const v0 = views[0]
  console.log('\n### Bytes of the first view (run 1)\n')
  printTable(
    ['API call', 'encoding', 'transferred', 'body (encoded)', 'decoded'],
    v0.api.map((r) => {
      const u = new URL(r.name)
      return [
        `${u.pathname}${u.search.length > 60 ? `${u.search.slice(0, 57)}…` : u.search}`,
        v0.encodings.get(r.name) ?? '?',
        kb(r.transferSize),
        kb(r.encodedBodySize),
        kb(r.decodedBodySize),
      ]
    }),
  )
  console.log(
    `| **all ${v0.api.length} API calls** | | ${kb(sum(v0.api, 'transferSize'))} | ${kb(sum(v0.api, 'encodedBodySize'))} | ${kb(sum(v0.api, 'decodedBodySize'))} |`,
  )
  const assets = v0.all.filter((r) => !new URL(r.name).pathname.startsWith('/api/'))
  console.log(
    `| (the page's other resources: ${assets.length} files, JS, CSS, basemap) | | ${kb(sum(assets, 'transferSize'))} | ${kb(sum(assets, 'encodedBodySize'))} | ${kb(sum(assets, 'decodedBodySize'))} |`,
  )
  const apiTotals = views.map((v) => sum(v.api, 'transferSize'))
  console.log(`\nAPI transferred per run: ${apiTotals.map(kb).join(', ')}`)
}

function frames({ seconds, quiet, live }: Measured) {
  console.log('\n### Frames while panning and zooming\n')
  const row = (name: string, s: FrameStats) => [
    name,
    s.n,
    ms(s.max),
    ms(s.p99),
    ms(s.p95),
    s.over50,
    s.over100,
    `${s.loaf} (${ms(s.loafMax)}, ${s.loaf100})`,
    `${s.long} (${ms(s.longMax)})`,
  ]
  printTable(
    [
      'run',
      'frames',
      'max ms',
      'p99 ms',
      'p95 ms',
      '> 50 ms',
      '> 100 ms',
      'long animation frames (max, > 100 ms)',
      'long tasks (max)',
    ],
    [
      row(`${seconds} s of mouse`, quiet),
      ...(live ? [row(`${seconds} s of mouse, ${live.sent} status pushes`, live)] : []),
    ],
  )
}

function signInJs({ login: js }: Measured) {
  console.log('\n### Sign-in page JavaScript (fresh context)\n')
  printTable(
    ['file', 'encoding', 'transferred', 'raw', 'gzip -9 (dist)'],
    js.map((r) => [r.file, r.encoding, kb(r.transfer), kb(r.raw), kb(r.gzip)]),
  )
  console.log(
    `| **${js.length} files** | | ${kb(js.reduce((n, r) => n + r.transfer, 0))} | ${kb(js.reduce((n, r) => n + r.raw, 0))} | ${kb(js.reduce((n, r) => n + r.gzip, 0))} |`,
  )
  const heavy = js.filter((r) => /createMap|echartsSetup|maplibre|echarts/i.test(r.file))
  console.log(
    `\nmap or chart chunks on the sign-in page: ${heavy.length ? heavy.map((r) => r.file).join(', ') : 'none'}`,
  )
}

function trace({ traced }: Measured) {
  if (!traced) return
  console.log(
    `\n### Trace of one first view (${traced.file}; 'dashboard:data' mark ${traced.navFound ? 'found' : 'NOT found'})`,
  )
  console.log(
    `response ${ms(traced.view.responseEnd)} ms, data ${ms(traced.view.data)} ms, drawn ${ms(traced.view.drawn)} ms; busy time between response and drawn:`,
  )
  for (const [t, m] of traced.perThread) {
    const top = [...m].sort((x, y) => y[1] - x[1]).slice(0, 12)
    console.log(`- ${t}: ${top.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`)
  }
}

/** Prints the report. */
export function report(m: Measured) {
  firstViews(m)
  bytes(m)
  frames(m)
  signInJs(m)
  trace(m)
}
