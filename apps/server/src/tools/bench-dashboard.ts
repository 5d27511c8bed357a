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
import { type ChildProcess, execSync, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import pino from 'pino'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { buildApp } from '../app.ts'
import { createContext } from '../bootstrap.ts'
import { loadConfig } from '../config.ts'
import { openPostgres } from '../db/client.ts'
import { DEMO_PASSWORD } from '../db/seed.ts'
import { many, one } from '../db/sql.ts'
import { createJobRunner } from '../jobs/runner.ts'
import { outboxJob } from '../modules/engine/outbox.ts'
import { load, loadRescues } from './bench.ts'

const { values: a } = parseArgs({
  options: {
    reuse: { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '15' },
    'live-rate': { type: 'string', default: '100' },
    shots: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    'trace-drive': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
    'gpu-compositing': { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
  },
})
if (a.help) {
  console.log(`npm run bench:dashboard -- [options]
  --reuse          keep the database when it is loaded (else it is dropped and loaded again, ~2 min)
  --runs N         first views measured, each in a fresh browser context (default 5)
  --seconds S      length of each mouse-driven interaction (default 15)
  --live-rate R    status pushes a second during the second interaction; 0 skips it (default 100)
  --shots          save docs/benchmarks/dashboard-100k.png, -street.png and -province.png
  --trace          trace one more first view and sum the threads' time (main, MapLibre worker)
  --trace-drive    trace the mouse drives and list its long slices (over 30 ms) by thread and name
  --no-build       use apps/web/dist as it is
  --timeline       print each first view's map events (renders, source data, idle) from the response
  --gpu-compositing  without --disable-gpu: SwiftShader in the GPU process composites too, so the
                   page's WebGL frames are not read back to the CPU on the main thread
Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:55432/aed_bench_dash); BENCH_DEVICES etc. as for npm run bench.
BENCH_WEB_DIST: serve that build instead of apps/web/dist (implies --no-build).`)
  process.exit(0)
}

const RUNS = Math.max(1, Number(a.runs))
const SECONDS = Math.max(2, Number(a.seconds))
const LIVE_RATE = Math.max(0, Number(a['live-rate']))
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/aed_bench_dash'
const ROOT = path.resolve(import.meta.dirname, '../../../..')
const WEB = path.join(ROOT, 'apps/web')
/** BENCH_WEB_DIST: another build to serve (e.g. an older commit's, to compare on the same machine state). */
const DIST = process.env.BENCH_WEB_DIST ?? path.join(WEB, 'dist')
const SHOTS = path.join(ROOT, 'docs/benchmarks')
const SYSTEM_PHONE = '13800000000'
const LOCATION = '/api/v1/analysis-board/device/location/'
const SHANGHAI = { lon: 121.47, lat: 31.23 }
const BEIJING = { lon: 116.4, lat: 39.9 }

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const children: ChildProcess[] = []

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

/** The newest modification time under a folder (sources only). */
function newest(dir: string): number {
  let t = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') t = Math.max(t, newest(p))
    } else t = Math.max(t, fs.statSync(p).mtimeMs)
  }
  return t
}

/** Builds the web app when dist is missing or older than its sources (and the contracts'). */
function ensureBuilt() {
  const built = fs.existsSync(path.join(DIST, 'index.html'))
    ? fs.statSync(path.join(DIST, 'index.html')).mtimeMs
    : 0
  const sources = Math.max(
    newest(path.join(WEB, 'src')),
    newest(path.join(ROOT, 'packages/contracts/src')),
    fs.statSync(path.join(WEB, 'index.html')).mtimeMs,
  )
  if (a['no-build'] || process.env.BENCH_WEB_DIST || built >= sources) {
    log(
      `apps/web/dist built ${new Date(built).toISOString()}${built < sources ? ' (older than the sources: --no-build)' : ''}`,
    )
    return
  }
  log('building apps/web (dist is missing or older than the sources)')
  execSync('npm run build -w apps/web', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
}

/** Creates the database (dropping it first unless --reuse) and loads the bench's network. */
async function prepareDatabase(dataDir: string, secrets: Record<string, string>) {
  const u = new URL(DB_URL)
  const name = u.pathname.slice(1)
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`)
  const adminUrl = new URL(DB_URL)
  adminUrl.pathname = '/postgres'
  const admin = new pg.Client({ connectionString: adminUrl.toString() })
  await admin.connect()
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount
  if (exists && !a.reuse) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
  if (!exists || !a.reuse) await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()

  const database = await openPostgres(DB_URL)
  // Migrates and, on an empty database, seeds the demo network (its accounts and organisations;
  // bench.ts spreads its agencies under the demo's general agents). No demo history: the
  // dashboard's figures are the bench's.
  const ctx = await createContext(
    loadConfig({
      ...secrets,
      DATABASE_URL: DB_URL,
      DATA_DIR: dataDir,
      WEB_DIST: '/nonexistent',
      SEED_HISTORY: 'false',
    }),
    database,
    pino({ level: 'warn' }),
  )
  const loaded = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM agencies WHERE name LIKE '压测机构%'`,
  )
  const t0 = performance.now()
  if (!loaded?.n) {
    log('loading the bench network (npm run bench’s load: agencies, users, logs, 100,000 devices)')
    await load(ctx)
  }
  await loadRescues(ctx)
  const took = performance.now() - t0
  const [counts] = await many<{ devices: number; placed: number }>(
    ctx.db,
    sql`SELECT (SELECT count(*)::int FROM devices WHERE installation_id IS NOT NULL AND deleted_at IS NULL) AS devices,
               (SELECT count(*)::int FROM installations WHERE removed_at IS NULL AND lat IS NOT NULL) AS placed`,
  )
  await database.close()
  log(
    `database ${name}: ${counts.devices} registered devices, ${counts.placed} placed (load ${(took / 1000).toFixed(1)} s)`,
  )
}

async function startServer(dataDir: string, secrets: Record<string, string>, port: number) {
  const logFile = path.join(dataDir, '..', 'server.log')
  const out = fs.openSync(logFile, 'w')
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], {
    cwd: path.join(ROOT, 'apps/server'),
    env: {
      ...process.env,
      ...secrets,
      DATABASE_URL: DB_URL,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: DIST,
    },
    stdio: ['ignore', out, out],
  })
  children.push(child)
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): see ${logFile}`)
    const ok = await fetch(`${base}/`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return { base, pid: child.pid as number, logFile }
    await sleep(500)
  }
  throw new Error(`server did not answer: see ${logFile}`)
}

function launch(): Promise<Browser> {
  // Playwright gives each launch a fresh --user-data-dir of its own and runs it headless.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      ...(a['gpu-compositing']
        ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader']
        : ['--disable-gpu']),
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

const VIEWPORT = { width: 1920, height: 1080 }

async function newContext(
  browser: Browser,
  base: string,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
) {
  const context = await browser.newContext({
    baseURL: base,
    locale: 'zh-CN',
    viewport: VIEWPORT,
    storageState,
  })
  // Every resource of the first view is kept (the default buffer holds 250).
  // (And tsx's helper for the named functions of the callbacks evaluated in the page.)
  await context.addInitScript({
    content: 'performance.setResourceTimingBufferSize(10000); window.__name = (f) => f',
  })
  if (a.timeline) await context.addInitScript({ content: TIMELINE_SCRIPT })
  return context
}

/**
 * `--timeline`: the map's renders, source data and idle events as they happen (the map is hooked
 * when the page puts it on window.__aedDashboardMap), to count the frames between data and drawn.
 */
const TIMELINE_SCRIPT = `(() => {
  const events = []
  window.__mapEvents = events
  let map
  Object.defineProperty(window, '__aedDashboardMap', {
    configurable: true,
    get: () => map,
    set: (m) => {
      map = m
      if (!m) return
      const at = (what) => events.push([performance.now(), what])
      m.on('render', () => at('render'))
      m.on('idle', () => at('idle'))
      m.on('load', () => at('load'))
      m.on('sourcedata', (e) => { if (e.tile || e.sourceDataType === 'content') at('sourcedata ' + e.sourceId + (e.tile ? ' tile' : ' ' + e.sourceDataType)) })
      m.on('styledata', () => at('styledata'))
      m.on('resize', () => at('resize'))
      m.on('movestart', () => at('movestart'))
    },
  })
})()`

type Res = {
  name: string
  transferSize: number
  encodedBodySize: number
  decodedBodySize: number
  responseEnd: number
  initiatorType: string
}

const resources = (page: Page) =>
  page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
      name: e.name,
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
      decodedBodySize: e.decodedBodySize,
      responseEnd: e.responseEnd,
      initiatorType: e.initiatorType,
    })),
  )

/** 4. The sign-in page's JavaScript, in a fresh context. */
async function signInPage(browser: Browser, base: string) {
  const context = await newContext(browser, base)
  const page = await context.newPage()
  const encodings = new Map<string, string>()
  page.on('response', (r) => encodings.set(r.url(), r.headers()['content-encoding'] ?? 'identity'))
  await page.goto('/user/login', { waitUntil: 'networkidle' })
  await page.getByTestId('login-submit').waitFor()
  await sleep(1000)
  const js = (await resources(page)).filter((r) => new URL(r.name).pathname.endsWith('.js'))
  const rows = js.map((r) => {
    const file = path.join(DIST, new URL(r.name).pathname)
    const raw = fs.existsSync(file) ? fs.readFileSync(file) : null
    return {
      file: new URL(r.name).pathname,
      transfer: r.transferSize,
      raw: raw?.length ?? r.decodedBodySize,
      gzip: raw ? zlib.gzipSync(raw, { level: 9 }).length : Number.NaN,
      encoding: encodings.get(r.name) ?? '?',
    }
  })
  return { context, page, rows }
}

/** Signs in through the page as the system super administrator; answers the signed-in storage. */
async function signIn(page: Page) {
  await page.getByTestId('login-mobile').fill(SYSTEM_PHONE)
  await page.getByTestId('login-password').fill(DEMO_PASSWORD)
  const privacy = page.getByTestId('login-privacy')
  if (!(await privacy.isChecked())) await privacy.check()
  await page.getByTestId('login-submit').click()
  await page.waitForURL((u) => !u.pathname.startsWith('/user/login'), { timeout: 30_000 })
  return page.context().storageState()
}

type FirstView = {
  responseEnd: number
  data: number
  drawn: number
  count: number
  location: Res
  api: Res[]
  all: Res[]
  encodings: Map<string, string>
}

/** 1 and 2: one first view of the dashboard in a fresh context. */
async function firstView(page: Page): Promise<FirstView> {
  const encodings = new Map<string, string>()
  page.on('response', (r) => encodings.set(r.url(), r.headers()['content-encoding'] ?? 'identity'))
  await page.goto('/watchBoard/dashboard')
  // 'dashboard:drawn' is marked, and data-drawn set, when MapLibre is idle after the data.
  await page.waitForFunction(() => performance.getEntriesByName('dashboard:drawn').length > 0, null, {
    timeout: 120_000,
  })
  const count = Number(await page.getByTestId('dashboard-map-canvas').getAttribute('data-drawn'))
  const marks = await page.evaluate(() => ({
    data: performance.getEntriesByName('dashboard:data')[0]?.startTime ?? Number.NaN,
    drawn: performance.getEntriesByName('dashboard:drawn')[0]?.startTime ?? Number.NaN,
  }))
  // The rest of the first view's calls (the statistics column, the bars, the marker layers).
  await page.waitForLoadState('networkidle').catch(() => {})
  await sleep(1500)
  const all = await resources(page)
  // The dashboard's cluster worker fetches the device layer: its resource timing is the worker's,
  // which the page marks on its own clock as 'dashboard:response' (bytes in the mark's detail).
  if (!all.some((r) => r.name.includes(LOCATION))) {
    const worker = await page.evaluate(() => {
      const m = performance.getEntriesByName('dashboard:response')[0] as PerformanceMark | undefined
      return m ? { at: m.startTime, detail: m.detail as Record<string, number> } : null
    })
    if (worker) {
      all.push({
        name: `${new URL(page.url()).origin}${LOCATION}?status_list=%5B0%2C1%2C2%2C3%2C4%5D`,
        transferSize: worker.detail.transferSize,
        encodedBodySize: worker.detail.encodedBodySize,
        decodedBodySize: worker.detail.decodedBodySize,
        responseEnd: worker.at,
        initiatorType: 'worker',
      })
    }
  }
  const location = all.find((r) => r.name.includes(LOCATION))
  if (!location) throw new Error('no device location request')
  const api = all.filter((r) => new URL(r.name).pathname.startsWith('/api/'))
  if (a.timeline) {
    const events = await page.evaluate(
      () => (window as unknown as { __mapEvents?: [number, string][] }).__mapEvents ?? [],
    )
    const userMarks = await page.evaluate(() =>
      performance.getEntriesByType('mark').map((m): [number, string] => [m.startTime, m.name]),
    )
    const requests = all
      .filter((r) => /\/api\/|createMap|DashboardMap|worker|basemap|chinaBasemap|\/china-/.test(r.name))
      .map((r): [number, string] => [r.responseEnd, `response ${new URL(r.name).pathname}`])
    const lines = [...events, ...userMarks, ...requests].sort((x, y) => x[0] - y[0])
    let renders = 0
    let tiles = 0
    console.log('  ms from the device layer response (navigation at its negative)')
    for (const [t, what] of lines) {
      if (what.endsWith(' tile')) {
        tiles++
        continue
      }
      if (tiles) console.log(`         (${tiles} tiles)`)
      tiles = 0
      if (what === 'render' && t >= location.responseEnd) renders++
      console.log(`  ${(t - location.responseEnd).toFixed(0).padStart(6)} ${what}`)
      if (what === 'dashboard:drawn') break
    }
    console.log(`  renders from responseEnd to drawn: ${renders}`)
  }
  return { responseEnd: location.responseEnd, ...marks, count, location, api, all, encodings }
}

/**
 * Where a place is on the screen now, from the map's own projection (the page puts the map on
 * window.__aedDashboardMap). The demo's datum is GCJ-02, which the map draws unshifted.
 */
async function pixelOf(page: Page, p: { lon: number; lat: number }) {
  const box = (await page.locator('[data-testid=dashboard-map-canvas]').boundingBox())!
  const at = await page.evaluate(
    ([lon, lat]) =>
      (
        window as unknown as { __aedDashboardMap: { project(l: [number, number]): { x: number; y: number } } }
      ).__aedDashboardMap.project([lon, lat]),
    [p.lon, p.lat] as [number, number],
  )
  return { x: box.x + at.x, y: box.y + at.y }
}

/** Frame recorder: requestAnimationFrame deltas, long animation frames and long tasks. */
async function startFrames(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>
    const frames: number[] = []
    const loaf: { d: number; b: number; scripts: string[] }[] = []
    const long: number[] = []
    w.__bench = { frames, loaf, long, stop: false }
    let last = performance.now()
    const tick = (t: number) => {
      frames.push(t - last)
      last = t
      if (!(w.__bench as { stop: boolean }).stop) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
    try {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries() as (PerformanceEntry & {
          blockingDuration: number
          renderStart: number
          styleAndLayoutStart: number
          scripts: { sourceURL: string; sourceFunctionName: string; duration: number; invoker: string }[]
        })[])
          loaf.push({
            d: e.duration,
            b: e.blockingDuration,
            scripts: [
              `tasks ${(e.renderStart ? e.renderStart - e.startTime : e.duration).toFixed(0)}ms` +
                ` frame callbacks ${(e.renderStart ? e.styleAndLayoutStart - e.renderStart : 0).toFixed(0)}ms` +
                ` style, layout, paint ${(e.renderStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0).toFixed(0)}ms`,
            ].concat(
              e.scripts
                .filter((s) => s.duration > 10)
                .map(
                  (s) =>
                    `${s.invoker} ${s.sourceFunctionName}@${s.sourceURL.split('/').pop()} ${s.duration.toFixed(0)}ms`,
                ),
            ),
          })
      }).observe({ type: 'long-animation-frame' })
    } catch {}
    try {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) long.push(e.duration)
      }).observe({ type: 'longtask' })
    } catch {}
  })
}

async function stopFrames(page: Page) {
  return page.evaluate(() => {
    const b = (
      window as unknown as {
        __bench: {
          frames: number[]
          loaf: { d: number; b: number; scripts: string[] }[]
          long: number[]
          stop: boolean
        }
      }
    ).__bench
    b.stop = true
    return { frames: b.frames.slice(1), loaf: b.loaf, long: b.long }
  })
}

/** 3. Drives the map with the mouse for about `seconds`: wheel in to street level, drags, wheel out, a cluster click. */
async function drive(page: Page, seconds: number) {
  const box = (await page.locator('[data-testid=dashboard-map-canvas]').boundingBox())!
  const end = Date.now() + seconds * 1000
  type BenchMap = {
    getCenter(): { lng: number; lat: number }
    getZoom(): number
    jumpTo(v: { center: [number, number]; zoom: number }): void
  }
  const opening = await page.evaluate(() => {
    const map = (window as unknown as { __aedDashboardMap: BenchMap }).__aedDashboardMap
    const c = map.getCenter()
    return { center: [c.lng, c.lat] as [number, number], zoom: map.getZoom() }
  })
  // A place's pixel now; off the map (after a wandering loop), the opening view comes back first.
  const at = async (p: { lon: number; lat: number }) => {
    let xy = await pixelOf(page, p)
    const inside = (q: { x: number; y: number }) =>
      q.x > box.x + 40 && q.x < box.x + box.width - 40 && q.y > box.y + 40 && q.y < box.y + box.height - 40
    if (!inside(xy)) {
      // In braces: jumpTo returns the map, which Playwright would serialise as the result, a task
      // of 100-250 ms on the page's main thread that the frames would count.
      await page.evaluate((v) => {
        ;(window as unknown as { __aedDashboardMap: BenchMap }).__aedDashboardMap.jumpTo(v)
      }, opening)
      await sleep(300)
      xy = await pixelOf(page, p)
    }
    return xy
  }
  const drag = async (dx: number, dy: number) => {
    const x = box.x + box.width / 2
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + dx, y + dy, { steps: 20 })
    await page.mouse.up()
    await sleep(150)
  }
  while (Date.now() < end) {
    // Wheel in at Shanghai to street level (each step ~0.6 of a zoom level), pan about, and out.
    const sh = await at(SHANGHAI)
    await page.mouse.move(sh.x, sh.y)
    let wheels = 0
    for (; wheels < 20 && Date.now() < end; wheels++) {
      await page.mouse.wheel(0, -500)
      await sleep(200)
    }
    // The drive must have moved the map: a page that ignores the mouse draws no frames at all.
    const deepest = await page.evaluate(() =>
      (window as unknown as { __aedDashboardMap: BenchMap }).__aedDashboardMap.getZoom(),
    )
    if (wheels === 20 && deepest < opening.zoom + 4) {
      const shot = path.join(os.tmpdir(), 'aed-bench-dashboard-drive-failed.png')
      await page.screenshot({ path: shot })
      throw new Error(
        `the wheel did not zoom the map in (zoom ${deepest.toFixed(1)} after it; the page: ${shot})`,
      )
    }
    await drag(300, 120)
    await drag(-420, -200)
    await page.mouse.move(sh.x, sh.y)
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, 500)
      await sleep(150)
    }
    await sleep(400)
    // A cluster (Beijing's) clicked: the map eases to where it splits. Clicked beside the rescues
    // drawn over it, which would open their popup instead.
    const bj = await at(BEIJING)
    const onCluster = await page.evaluate(
      ([x0, y0]) => {
        const hits = (
          window as unknown as { __aedDashboardHits?: (x: number, y: number) => { kind: string }[] }
        ).__aedDashboardHits
        for (let r = 0; r <= 24 && hits; r += 3)
          for (let a = 0; a < 360; a += 30) {
            const x = x0 + r * Math.cos((a * Math.PI) / 180)
            const y = y0 + r * Math.sin((a * Math.PI) / 180)
            if (hits(x, y)[0]?.kind === 'cluster') return { dx: x - x0, dy: y - y0 }
          }
        return null
      },
      [bj.x - box.x, bj.y - box.y],
    )
    if (!onCluster) throw new Error("no pixel of Beijing's cluster is clear of what is drawn over it")
    await page.mouse.click(bj.x + onCluster.dx, bj.y + onCluster.dy)
    await sleep(1200)
    await drag(-250, 160)
    await drag(250, -160)
    await page.mouse.move(bj.x, bj.y)
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, 500)
      await sleep(120)
    }
    await sleep(500)
  }
}

/** The three longest animation frames of a drive, with the scripts that ran over 10 ms in each. */
function logLongFrames(loaf: { d: number; scripts: string[] }[]) {
  const worst = [...loaf].sort((x, y) => y.d - x.d).slice(0, 3)
  for (const w of worst) log(`  long frame ${ms(w.d)} ms: ${w.scripts.join('; ')}`)
}

type FrameStats = {
  n: number
  max: number
  p99: number
  p95: number
  over50: number
  over100: number
  loaf: number
  loafMax: number
  loaf100: number
  long: number
  longMax: number
}

function frameStats(r: { frames: number[]; loaf: { d: number; b: number }[]; long: number[] }): FrameStats {
  const f = [...r.frames].sort((x, y) => x - y)
  const q = (p: number) => f[Math.min(f.length - 1, Math.floor(p * f.length))] ?? Number.NaN
  return {
    n: f.length,
    max: f.at(-1) ?? Number.NaN,
    p99: q(0.99),
    p95: q(0.95),
    over50: f.filter((x) => x > 50).length,
    over100: f.filter((x) => x > 100).length,
    loaf: r.loaf.length,
    loafMax: Math.max(0, ...r.loaf.map((x) => x.d)),
    loaf100: r.loaf.filter((x) => x.d > 100).length,
    long: r.long.length,
    longMax: Math.max(0, ...r.long),
  }
}

/** Pushes status changes of random placed devices through the outbox (the engine's way to the consoles). */
function startPushes(rate: number) {
  const client = new pg.Client({ connectionString: DB_URL })
  let stop = false
  let sent = 0
  const done = (async () => {
    await client.connect()
    const ids = (
      await client.query<{
        id: number
        sn: string
        agency_id: number
        link: string
        lon: number
        lat: number
      }>(
        `SELECT d.id::int, d.device_sn AS sn, i.agency_id::int, a.index_link AS link, i.lon, i.lat
         FROM devices d JOIN installations i ON i.id = d.installation_id JOIN agencies a ON a.id = i.agency_id
         WHERE d.device_sn LIKE 'B%' ORDER BY random() LIMIT 20000`,
      )
    ).rows
    const run = crypto.randomBytes(3).toString('hex')
    while (!stop) {
      const t = Date.now()
      const rows = Array.from({ length: Math.max(1, Math.round(rate / 4)) }, () => {
        const d = ids[Math.floor(Math.random() * ids.length)]
        const s = [0, 0, 0, 1, 2, 3, 4][Math.floor(Math.random() * 7)]
        sent++
        return [
          'live',
          `bench-dash:${run}:${sent}`,
          d.agency_id,
          d.link,
          JSON.stringify({
            device_id: d.id,
            device_sn: d.sn,
            status: s,
            shown_status: s,
            readiness: 0,
            reasons: [],
            lon: d.lon,
            lat: d.lat,
          }),
        ]
      })
      await client.query(
        `INSERT INTO outbox (topic, dedupe_key, agency_id, index_link, payload)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::jsonb[])`,
        [0, 1, 2, 3, 4].map((k) => rows.map((r) => r[k])),
      )
      await sleep(Math.max(0, 250 - (Date.now() - t)))
    }
    await client.end()
  })()
  return async () => {
    stop = true
    await done
    return sent
  }
}

/** A Chromium trace of one first view: time per thread and per top-level event between the response and drawn. */
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
const TRACE_DRIVE = ['devtools.timeline', 'toplevel', 'gpu', 'cc', 'viz', 'blink', 'v8.execute']

/** The trace's complete slices over 30 ms, by thread and name: count, longest, total (ms). */
function summariseLongSlices(file: string) {
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
  console.log('| thread | slice | count | longest ms | total ms |\n| --- | --- | --- | --- | --- |')
  for (const [key, r] of [...rows].sort((x, y) => y[1].total - x[1].total).slice(0, 25))
    console.log(`| ${key} | ${r.n} | ${ms(r.max)} | ${ms(r.total)} |`)
}

async function traceFirstView(
  browser: Browser,
  base: string,
  storage: Awaited<ReturnType<BrowserContext['storageState']>>,
) {
  const context = await newContext(browser, base, storage)
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
  const v = await firstView(page)
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

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')
const kb = (b: number) => `${(b / 1024).toFixed(1)} KiB`
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

async function main() {
  const t0 = Date.now()
  const work = path.join(os.tmpdir(), `aed-bench-dashboard-${new URL(DB_URL).pathname.slice(1)}`)
  const dataDir = path.join(work, 'data')
  fs.mkdirSync(dataDir, { recursive: true })
  // The same keys for the seeding and the server (kept with the data for --reuse).
  const keyFile = path.join(work, 'keys.json')
  const secrets: Record<string, string> =
    a.reuse && fs.existsSync(keyFile)
      ? JSON.parse(fs.readFileSync(keyFile, 'utf8'))
      : {
          JWT_SECRET: crypto.randomBytes(32).toString('hex'),
          DEVICE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
        }
  fs.writeFileSync(keyFile, JSON.stringify(secrets))
  log(
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  )
  ensureBuilt()
  await prepareDatabase(dataDir, secrets)
  const server = await startServer(dataDir, secrets, await freePort())
  log(`server ${server.base} (pid ${server.pid}, log ${server.logFile})`)
  const browser = await launch()
  try {
    // 4. The sign-in page, then signing in through it.
    const login = await signInPage(browser, server.base)
    const storage = await signIn(login.page)
    await login.context.close()

    // 1 and 2. First views.
    const views: FirstView[] = []
    let last: { context: BrowserContext; page: Page } | null = null
    for (let i = 0; i < RUNS; i++) {
      const context = await newContext(browser, server.base, storage)
      const page = await context.newPage()
      const v = await firstView(page)
      views.push(v)
      log(
        `first view ${i + 1}: response ${ms(v.responseEnd)} ms, data ${ms(v.data)} ms, drawn ${ms(v.drawn)} ms ` +
          `(${v.count} devices), drawn − response ${ms(v.drawn - v.responseEnd)} ms`,
      )
      if (i === 0 && a.shots) {
        fs.mkdirSync(SHOTS, { recursive: true })
        await sleep(1000)
        await page.screenshot({ path: path.join(SHOTS, 'dashboard-100k.png') })
      }
      if (i < RUNS - 1) await context.close()
      else last = { context, page }
    }

    // 3. Interaction on the last first view's page.
    const { page } = last!
    await sleep(2000)
    const driveTrace = path.join(os.tmpdir(), `aed-bench-dashboard-drive-${Date.now()}.json`)
    if (a['trace-drive']) await browser.startTracing(page, { path: driveTrace, categories: TRACE_DRIVE })
    await startFrames(page)
    await drive(page, SECONDS)
    const quietFrames = await stopFrames(page)
    const quiet = frameStats(quietFrames)
    if (a['trace-drive']) {
      await browser.stopTracing()
      summariseLongSlices(driveTrace)
    }
    log(`interaction: ${quiet.n} frames, max ${ms(quiet.max)} ms, p99 ${ms(quiet.p99)} ms`)
    logLongFrames(quietFrames.loaf)
    let live: (FrameStats & { sent: number }) | null = null
    if (LIVE_RATE > 0) {
      const stopPushes = startPushes(LIVE_RATE)
      await sleep(6000) // the outbox drains every few seconds: pushes arrive before the recording
      const liveTrace = driveTrace.replace('.json', '-live.json')
      if (a['trace-drive']) await browser.startTracing(page, { path: liveTrace, categories: TRACE_DRIVE })
      await startFrames(page)
      await drive(page, SECONDS)
      const r = await stopFrames(page)
      if (a['trace-drive']) {
        await browser.stopTracing()
        summariseLongSlices(liveTrace)
      }
      const sent = await stopPushes()
      live = { ...frameStats(r), sent }
      log(`interaction with ${sent} pushes: ${live.n} frames, max ${ms(live.max)} ms, p99 ${ms(live.p99)} ms`)
      logLongFrames(r.loaf)
    }
    if (a.shots) {
      // Street level in Shanghai: wheel in at the city from the opening view.
      const context = await newContext(browser, server.base, storage)
      const p2 = await context.newPage()
      await firstView(p2)
      const sh = await pixelOf(p2, SHANGHAI)
      await p2.mouse.move(sh.x, sh.y)
      for (let i = 0; i < 19; i++) {
        await p2.mouse.wheel(0, -500)
        await sleep(200)
      }
      await sleep(2500)
      await p2.screenshot({ path: path.join(SHOTS, 'dashboard-100k-street.png') })
      // The Yangtze delta at zoom 6.5: province borders, city dots and names under the clusters.
      await p2.evaluate(() => {
        ;(window as unknown as { __aedDashboardMap: { jumpTo(v: object): void } }).__aedDashboardMap.jumpTo({
          center: [119.5, 31],
          zoom: 6.5,
        })
      })
      await sleep(2500)
      await p2.screenshot({ path: path.join(SHOTS, 'dashboard-100k-province.png') })
      await context.close()
    }
    await last!.context.close()
    const traced = a.trace ? await traceFirstView(browser, server.base, storage) : null

    // The report.
    const col = (f: (v: FirstView) => number) => {
      const xs = views.map(f)
      return `${ms(median(xs))} | ${ms(Math.max(...xs))}`
    }
    console.log(`\n### First view (${RUNS} runs, fresh context each; ms from navigation start)\n`)
    console.log('| measure | median | worst |\n| --- | --- | --- |')
    console.log(`| device layer response received (responseEnd) | ${col((v) => v.responseEnd)} |`)
    console.log(`| 'dashboard:data' | ${col((v) => v.data)} |`)
    console.log(`| 'dashboard:drawn' | ${col((v) => v.drawn)} |`)
    console.log(`| **drawn − responseEnd** (target ≤ 1500) | ${col((v) => v.drawn - v.responseEnd)} |`)
    console.log(`| data − responseEnd (JSON, React) | ${col((v) => v.data - v.responseEnd)} |`)
    console.log(`| drawn − data (features, worker, render) | ${col((v) => v.drawn - v.data)} |`)
    console.log(`\ndevices drawn: ${[...new Set(views.map((v) => v.count))].join(', ')}`)

    const v0 = views[0]
    console.log('\n### Bytes of the first view (run 1)\n')
    console.log(
      '| API call | encoding | transferred | body (encoded) | decoded |\n| --- | --- | --- | --- | --- |',
    )
    for (const r of v0.api) {
      const u = new URL(r.name)
      console.log(
        `| ${u.pathname}${u.search.length > 60 ? `${u.search.slice(0, 57)}…` : u.search} | ${v0.encodings.get(r.name) ?? '?'} | ${kb(r.transferSize)} | ${kb(r.encodedBodySize)} | ${kb(r.decodedBodySize)} |`,
      )
    }
    const sum = (xs: Res[], k: keyof Res) => xs.reduce((n, r) => n + (r[k] as number), 0)
    console.log(
      `| **all ${v0.api.length} API calls** | | ${kb(sum(v0.api, 'transferSize'))} | ${kb(sum(v0.api, 'encodedBodySize'))} | ${kb(sum(v0.api, 'decodedBodySize'))} |`,
    )
    const assets = v0.all.filter((r) => !new URL(r.name).pathname.startsWith('/api/'))
    console.log(
      `| (the page's other resources: ${assets.length} files, JS, CSS, basemap) | | ${kb(sum(assets, 'transferSize'))} | ${kb(sum(assets, 'encodedBodySize'))} | ${kb(sum(assets, 'decodedBodySize'))} |`,
    )
    const apiTotals = views.map((v) => sum(v.api, 'transferSize'))
    console.log(`\nAPI transferred per run: ${apiTotals.map(kb).join(', ')}`)

    console.log('\n### Frames while panning and zooming\n')
    console.log(
      '| run | frames | max ms | p99 ms | p95 ms | > 50 ms | > 100 ms | long animation frames (max, > 100 ms) | long tasks (max) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    )
    const frow = (name: string, s: FrameStats) =>
      `| ${name} | ${s.n} | ${ms(s.max)} | ${ms(s.p99)} | ${ms(s.p95)} | ${s.over50} | ${s.over100} | ${s.loaf} (${ms(s.loafMax)}, ${s.loaf100}) | ${s.long} (${ms(s.longMax)}) |`
    console.log(frow(`${SECONDS} s of mouse`, quiet))
    if (live) console.log(frow(`${SECONDS} s of mouse, ${live.sent} status pushes`, live))

    console.log('\n### Sign-in page JavaScript (fresh context)\n')
    console.log('| file | encoding | transferred | raw | gzip -9 (dist) |\n| --- | --- | --- | --- | --- |')
    for (const r of login.rows)
      console.log(`| ${r.file} | ${r.encoding} | ${kb(r.transfer)} | ${kb(r.raw)} | ${kb(r.gzip)} |`)
    const js = login.rows
    console.log(
      `| **${js.length} files** | | ${kb(js.reduce((n, r) => n + r.transfer, 0))} | ${kb(js.reduce((n, r) => n + r.raw, 0))} | ${kb(js.reduce((n, r) => n + r.gzip, 0))} |`,
    )
    const heavy = js.filter((r) => /createMap|echartsSetup|maplibre|echarts/i.test(r.file))
    console.log(
      `\nmap or chart chunks on the sign-in page: ${heavy.length ? heavy.map((r) => r.file).join(', ') : 'none'}`,
    )

    if (traced) {
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
    log(
      `done in ${((Date.now() - t0) / 1000).toFixed(0)} s; load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    )
  } finally {
    await browser.close()
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
    await sleep(1000)
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  }
}

/** The child: the app on the bench database, with the outbox job only (see the top). */
async function serve() {
  const config = loadConfig()
  const database = await openPostgres(config.DATABASE_URL as string)
  const log = pino({ level: config.LOG_LEVEL })
  const ctx = await createContext(config, database, log)
  const app = await buildApp(ctx, { logger: log })
  const jobs = createJobRunner(ctx, [outboxJob], { log })
  process.once('SIGTERM', () => {
    void (async () => {
      await jobs.stop()
      await app.close()
      await database.close()
      process.exit(0)
    })()
  })
  await app.listen({ port: config.PORT, host: config.HOST })
  jobs.start()
}

if (a.serve) void serve()
else
  main().catch((e) => {
    console.error(e)
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    process.exit(1)
  })
