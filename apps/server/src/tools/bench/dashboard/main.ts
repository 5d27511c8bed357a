// `npm run bench:dashboard -- [--reuse] [--runs 5] [--seconds 15] [--live-rate 100] [--shots] [--trace]`:
// the dashboard in Chromium on 100,000 registered devices (issue 11).
//
//   1. A PostgreSQL database (BENCH_DATABASE_URL, default .../aed_bench_dash on the dev server),
//      migrated, the demo network seeded (its accounts sign in), and `npm run bench`'s devices,
//      installations and rescues loaded with its own functions. `--reuse` keeps a loaded database.
//   2. The server (buildApp, as main.ts builds it) in a child process on a free port, serving
//      apps/web/dist (built first when missing or older than the sources), with the outbox job
//      (status pushes) but not the engine's sweeps: on devices that never reported, main.ts's
//      expiry recheck would turn the bench's statuses into "never reported" warnings, ~60 a second
//      for half an hour, each a status push to the open dashboard.
//   3. Debian's Chromium (headless, SwiftShader WebGL) through playwright-core:
//      - the sign-in page in a fresh context: the JavaScript it loads (no map or chart chunk);
//      - sign-in as the system super administrator through the page;
//      - `--runs` first views of /watchBoard/dashboard, each in a fresh context (cold cache, the
//        signed-in storage): navigation → the device layer's response → 'dashboard:data' →
//        'dashboard:drawn', and the bytes of every API call;
//      - the map driven with the mouse for `--seconds` (wheel to street level and back, drags, a
//        cluster click), frame durations from requestAnimationFrame and long-animation-frame;
//        again while status pushes arrive (`--live-rate` a second; 0 skips it).
//   `--shots` saves docs/benchmarks/dashboard-100k*.png; `--trace` writes a Chromium trace of one
//   first view and sums where the main thread and MapLibre's worker spent it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { chromiumOptions } from '../harness/chromium.ts'
import { log } from '../harness/report.ts'
import { freePort, runBench, startServer, stopServers } from '../harness/servers.ts'
import { streetAndProvinceShots } from './drive.ts'
import { firstViews, signIn, signInPage } from './first-view.ts'
import { interaction } from './interaction.ts'
import { type DashboardOptions, DB_URL, DIST, dashboardOptions } from './options.ts'
import { report } from './report.ts'
import { serve } from './serve.ts'
import { benchKeys, ensureBuilt, prepareDatabase } from './setup.ts'
import { traceFirstView } from './trace.ts'

const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')

/** 2. The server (serve.ts) in a child process on a free port, serving the web build. */
async function startBenchServer(dataDir: string, keys: Record<string, string>) {
  const server = await startServer({
    name: 'dashboard',
    entry: import.meta.filename,
    args: ['--serve'],
    env: { ...keys, DATABASE_URL: DB_URL, DATA_DIR: dataDir, PORT: String(await freePort()), WEB_DIST: DIST },
    logFile: path.join(dataDir, '..', 'server.log'),
    stdout: true,
    truncate: true,
    ready: { path: '/', everyMs: 500, tries: 120 },
  })
  log(`server ${server.base} (pid ${server.pid}, log ${server.logFile})`)
  return server
}

async function main(o: DashboardOptions) {
  const t0 = Date.now()
  const work = path.join(os.tmpdir(), `aed-bench-dashboard-${new URL(DB_URL).pathname.slice(1)}`)
  const dataDir = path.join(work, 'data')
  fs.mkdirSync(dataDir, { recursive: true })
  // The same keys for the seeding and the server (kept with the data for --reuse).
  const keys = benchKeys(path.join(work, 'keys.json'), o.reuse)
  log(`${os.cpus().length} cores, load average ${loadAverage()}`)
  ensureBuilt(o.noBuild)
  await prepareDatabase(dataDir, keys, o.reuse)
  const { base } = await startBenchServer(dataDir, keys)
  const browser = await chromium.launch(chromiumOptions({ gpuCompositing: o.gpuCompositing }))
  try {
    // 4. The sign-in page, then signing in through it.
    const login = await signInPage(browser, base, o.timeline)
    const storage = await signIn(login.page)
    await login.context.close()
    // 1 and 2. First views; 3. interaction on the last one's page.
    const { views, last } = await firstViews(browser, base, storage, o)
    const { quiet, live } = await interaction(browser, last.page, o)
    if (o.shots) await streetAndProvinceShots(browser, base, storage, o.timeline)
    await last.context.close()
    const traced = o.trace ? await traceFirstView(browser, base, storage, o.timeline) : null
    report({ runs: o.runs, seconds: o.seconds, views, login: login.rows, quiet, live, traced })
    log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s; load average ${loadAverage()}`)
  } finally {
    await browser.close()
    await stopServers(1000)
  }
}

const options = dashboardOptions()
if (options.serve) void serve()
else runBench(() => main(options))
