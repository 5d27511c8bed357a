import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD } from '../../../seed/seed.ts'
import { log, ms } from '../harness/report.ts'
import { sleep } from '../harness/servers.ts'
import { newContext, type Res, resources, type Storage } from './browser.ts'
import { type DashboardOptions, DIST, LOCATION, SHOTS, SYSTEM_PHONE } from './options.ts'

// The pages measured before the map is driven: the sign-in page's JavaScript, and the
// dashboard's first views.

/** 4. The sign-in page's JavaScript, in a fresh context. */
export async function signInPage(browser: Browser, base: string, timeline: boolean) {
  const context = await newContext(browser, base, timeline)
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
export async function signIn(page: Page): Promise<Storage> {
  await page.getByTestId('login-mobile').fill(SYSTEM_PHONE)
  await page.getByTestId('login-password').fill(DEMO_PASSWORD)
  const privacy = page.getByTestId('login-privacy')
  if (!(await privacy.isChecked())) await privacy.check()
  await page.getByTestId('login-submit').click()
  await page.waitForURL((u) => !u.pathname.startsWith('/user/login'), { timeout: 30_000 })
  return page.context().storageState()
}

export type FirstView = {
  responseEnd: number
  data: number
  drawn: number
  count: number
  location: Res
  api: Res[]
  all: Res[]
  encodings: Map<string, string>
}

/** 1 and 2: one first view of the dashboard in a fresh context; with `timeline`, its map events printed. */
export async function firstView(page: Page, timeline: boolean): Promise<FirstView> {
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
  if (timeline) await printTimeline(page, all, location)
  return { responseEnd: location.responseEnd, ...marks, count, location, api, all, encodings }
}

/** `--timeline`: the first view's map events, marks and responses, in ms from the device layer's response. */
async function printTimeline(page: Page, all: Res[], location: Res) {
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

/**
 * `runs` first views, each in a fresh context signed in with `storage` (with `shots`, the first
 * one's screenshot). Answers them, and the last one's page, left open for the interaction.
 */
export async function firstViews(browser: Browser, base: string, storage: Storage, o: DashboardOptions) {
  const views: FirstView[] = []
  let last: { context: BrowserContext; page: Page } | null = null
  for (let i = 0; i < o.runs; i++) {
    const context = await newContext(browser, base, o.timeline, storage)
    const page = await context.newPage()
    const v = await firstView(page, o.timeline)
    views.push(v)
    log(
      `first view ${i + 1}: response ${ms(v.responseEnd)} ms, data ${ms(v.data)} ms, drawn ${ms(v.drawn)} ms ` +
        `(${v.count} devices), drawn − response ${ms(v.drawn - v.responseEnd)} ms`,
    )
    if (i === 0 && o.shots) {
      fs.mkdirSync(SHOTS, { recursive: true })
      await sleep(1000)
      await page.screenshot({ path: path.join(SHOTS, 'dashboard-100k.png') })
    }
    if (i < o.runs - 1) await context.close()
    else last = { context, page }
  }
  return { views, last: last! }
}
