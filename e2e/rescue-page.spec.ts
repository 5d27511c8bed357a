import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { ResponderAlert } from '@aed/contracts/dispatch'
import type { Browser, BrowserContext, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, screenshot } from './support/browser.ts'

// The responder's alert page (/rescue/{token}): the built entry's weight, the page on a phone
// (390x844) through its states, and the time to the place shown on a slow 4G network. The alerts
// are answered here (the page's API routed in the browser), so each state is shown on purpose; a
// made-up link goes to the real server. The dispatch itself is its own journey's.

const dist = path.resolve(import.meta.dirname, '../apps/web/dist')
const TOKEN = 'e2eRescuePageToken0123456789abcdefghijklmno'
/** The requirement: at most 200 KB of JavaScript (gzip) for the page. */
const MAX_JS_GZIP = 200_000
/** The requirement: the place shown within 3 s on slow 4G. */
const MAX_PLACE_MS = 3000

/** The JavaScript files a page of the build loads: its module script, its preloads and their imports. */
function scriptsOf(page: string): string[] {
  const html = fs.readFileSync(path.join(dist, page), 'utf8')
  const seen = new Set<string>()
  const queue = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1])
  while (queue.length) {
    const file = queue.shift()!
    if (seen.has(file)) continue
    seen.add(file)
    const code = fs.readFileSync(path.join(dist, 'assets', file), 'utf8')
    // Static imports only (`from"./x.js"`, `import"./x.js"`): lazy chunks are not loaded with the page.
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) queue.push(m[1])
  }
  return [...seen]
}

const gzipBytes = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, 'assets', file))).length

describe('the built rescue page', () => {
  it('loads at most 200 KB of JavaScript (gzip), none of the console’s', () => {
    const files = scriptsOf('rescue.html')
    const sizes = files.map((f) => [f, gzipBytes(f)] as const)
    const total = sizes.reduce((sum, [, n]) => sum + n, 0)
    console.log(
      `rescue.html JavaScript: ${(total / 1024).toFixed(1)} KiB gzip in ${files.length} files\n` +
        sizes.map(([f, n]) => `  ${f} ${(n / 1024).toFixed(1)} KiB`).join('\n'),
    )
    expect(total).toBeLessThanOrEqual(MAX_JS_GZIP)
    // The console's entry chunk and its libraries are not among them.
    const consoleEntry = /src="\/assets\/([^"]+\.js)"/.exec(
      fs.readFileSync(path.join(dist, 'index.html'), 'utf8'),
    )
    expect(consoleEntry).not.toBeNull()
    expect(files).not.toContain(consoleEntry![1])
    for (const f of files) expect(f).not.toMatch(/antd|maplibre|echarts|createMap|i18n|table|select/i)
  })
})

/** An alert as the server answers it: fetch the AED in the Tianhe stadium's cabinet, just alerted. */
function alertOf(patch: Partial<ResponderAlert> = {}): ResponderAlert {
  return {
    state: 'alerted',
    role: 'aed',
    open: true,
    responder_name: '张娟',
    call: {
      location: '广东省广州市天河区天河路299号 天河体育中心 东门',
      lat: 23.1372,
      lon: 113.3242,
      // Four minutes ago, China time (the spec's format).
      call_time: new Date(Date.now() + 8 * 3600_000 - 4 * 60_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' '),
      description: '男性，约60岁，在看台突然倒地，无呼吸',
    },
    aed: {
      device_sn: 'M642411323',
      lat: 23.138733,
      lon: 113.322459,
      location: '天河体育中心 北门',
      location_desc: '北门安检口左侧，服务台旁的白色AED救护箱',
      photo: null,
      cabinet_sn: 'CB26102650',
      unlocked: false,
    },
    distance: 487,
    eta_s: 212,
    answer_left_s: 42,
    accepted: 1,
    ...patch,
  }
}

/** The page's API answered in the browser: each action moves the alert on, as the server would. */
async function answerAlerts(page: Page, first: ResponderAlert, delayMs = 0) {
  let alert = first
  const actions: { action: string; body: unknown }[] = []
  await page.route('**/responder-api/v1/alert/**', async (route: Route) => {
    const request = route.request()
    const action = new URL(request.url()).pathname.split('/')[5]
    if (request.method() === 'POST') {
      actions.push({ action, body: request.postDataJSON() })
      if (action === 'accept')
        alert = {
          ...alert,
          state: 'accepted',
          answer_left_s: null,
          accepted: alert.accepted + 1,
          aed: alert.aed && { ...alert.aed, unlocked: true },
        }
      if (action === 'decline') alert = { ...alert, state: 'declined', answer_left_s: null }
      if (action === 'arrived') alert = { ...alert, state: 'arrived' }
    }
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
    await route.fulfill({ json: { code: 0, msg: '成功', data: alert } })
  })
  return {
    actions,
    /** What the next answers say (the dispatcher stood the responder down, the call closed). */
    become(patch: Partial<ResponderAlert>) {
      alert = { ...alert, ...patch }
    },
  }
}

let browser: Browser
const contexts: BrowserContext[] = []
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  for (const c of contexts) await c.close()
  await browser?.close()
})

/** A phone: 390x844 at 3x, touch, the position allowed (WGS-84, north-west of the stadium). */
async function phone(locale = 'zh-CN'): Promise<Page> {
  const context = await browser.newContext({
    baseURL: inject('baseURL'),
    locale,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: 23.1425, longitude: 113.3158, accuracy: 15 },
    permissions: ['geolocation'],
  })
  contexts.push(context)
  return context.newPage()
}

describe('the responder’s alert page on a phone', () => {
  it('takes an alert from the SMS to the patient: accept, fetch the AED, arrive', async () => {
    const page = await phone()
    const api = await answerAlerts(page, alertOf())
    await page.goto(`/rescue/${TOKEN}`)
    await page.getByText('先取AED再去现场').waitFor()
    await page.locator('.marker-me').waitFor()
    await expect(page.getByRole('timer').textContent()).resolves.toMatch(/^请在 \d+ 秒内答复$/)
    await expect(page.locator('.map .marker-aed').count()).resolves.toBe(1)
    await screenshot(page, 'rescue-01-alerted')

    await page.getByRole('button', { name: '接受', exact: true }).tap()
    await page.getByText('已接受，请立即出发').waitFor()
    await page.getByText('已开锁').waitFor()
    expect(api.actions[0]).toMatchObject({ action: 'accept', body: { coord: 'wgs84', lat: 23.1425 } })
    // The position goes to the dispatcher once accepted.
    await expect.poll(() => api.actions.filter((a) => a.action === 'location').length).toBeGreaterThan(0)
    await screenshot(page, 'rescue-02-accepted')

    await page.getByRole('button', { name: '导航到AED' }).tap()
    const amap = await page.getByRole('link', { name: '高德地图' }).getAttribute('href')
    expect(new URL(amap!).searchParams.get('to')).toBe('113.322459,23.138733,AED 天河体育中心 北门')
    await screenshot(page, 'rescue-03-navigate')

    await page.getByRole('button', { name: '已取到AED' }).tap()
    await page.getByRole('button', { name: '导航到现场' }).waitFor()
    await screenshot(page, 'rescue-04-has-aed')

    await page.getByRole('button', { name: '已到达', exact: true }).tap()
    await page.getByText('您已到达现场').waitFor()
    await screenshot(page, 'rescue-05-arrived')
  })

  it('tells a responder they are not needed, and when the call has closed', async () => {
    const page = await phone()
    const api = await answerAlerts(
      page,
      alertOf({ role: 'patient', aed: null, state: 'accepted', answer_left_s: null }),
    )
    await page.goto(`/rescue/${TOKEN}`)
    await page.getByText('直接去现场').waitFor()
    api.become({ state: 'stood_down', accepted: 3 })
    // The page asks again every 10 s.
    await page.getByText('已有足够的急救员赶往现场，您无需再去。感谢您的响应！').waitFor({ timeout: 15_000 })
    await screenshot(page, 'rescue-06-stood-down')

    const closed = await phone()
    await answerAlerts(closed, alertOf({ state: 'arrived', open: false, answer_left_s: null }))
    await closed.goto(`/rescue/${TOKEN}`)
    await closed.getByText('本次呼救已结束，感谢您的帮助').waitFor()
    await screenshot(closed, 'rescue-07-closed')
  })

  it('shows the server’s refusal of a made-up link', async () => {
    const page = await phone()
    const answer = (await (await fetch(`${inject('baseURL')}/responder-api/v1/alert/${TOKEN}`)).json()) as {
      code: number
      msg: string
    }
    expect(answer.code).not.toBe(0)
    await page.goto(`/rescue/${TOKEN}`)
    await page.getByRole('heading', { name: answer.msg }).waitFor()
    await page.getByText('请以短信中最新的链接为准').waitFor()
    await screenshot(page, 'rescue-08-bad-link')
  })

  it('speaks English on a phone set to English', async () => {
    const page = await phone('en-US')
    await answerAlerts(page, alertOf())
    await page.goto(`/rescue/${TOKEN}`)
    await page.getByText('Fetch the AED, then go to the patient').waitFor()
    await page.getByRole('button', { name: 'Accept', exact: true }).waitFor()
    await screenshot(page, 'rescue-09-english')
  })

  it('shows the place within 3 s on slow 4G (400 kbps, 400 ms round trips), cache cold', async () => {
    const times: number[] = []
    for (let run = 0; run < 3; run++) {
      const page = await phone()
      // The API's answer is routed here, past the emulated network: one round trip added by hand.
      await answerAlerts(page, alertOf(), 400)
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (document.querySelector('.map svg')) {
            ;(window as unknown as { placeShown: number }).placeShown = performance.now()
            observer.disconnect()
          }
        }).observe(document, { childList: true, subtree: true })
      })
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 400,
        downloadThroughput: 400_000 / 8,
        uploadThroughput: 400_000 / 8,
      })
      await page.goto(`/rescue/${TOKEN}`, { timeout: 30_000 })
      await page.waitForFunction(() => 'placeShown' in window, null, { timeout: 30_000 })
      times.push(
        await page.evaluate(() => Math.round((window as unknown as { placeShown: number }).placeShown)),
      )
    }
    times.sort((a, b) => a - b)
    console.log(`rescue page, slow 4G: place shown at ${times.join(', ')} ms after navigation`)
    expect(times[1]).toBeLessThanOrEqual(MAX_PLACE_MS)
  })
})
