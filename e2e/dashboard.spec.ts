import type { Page, Response } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { pickSearchedOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { consoleApi, consoleToken, deviceLink, healthyPass, inDays } from './support/device.ts'
import { decodePng, near, pixelAt, rgbOf } from './support/png-read.ts'
import { DEMO_PASSWORD, openSignedIn, signIn } from './support/session.ts'

const b = useBrowser()

const STATUSES = [0, 1, 2, 3, 4] as const
/** The status colours the map paints (normal green, fault purple). */
const GREEN = rgbOf('#52c41a')
const PURPLE = rgbOf('#722ed1')
const LOCATION_PATH = '/api/v1/analysis-board/device/location/'

type Point = [id: number, lon: number, lat: number]
type Locations = Record<'0' | '1' | '2' | '3' | '4', Point[]> & { unplaced: number }
type StateDistribution = {
  all_count: number
  normal_count: number
  warn_event_count: number
  error_report_count: number
  offset_event_count: number
  disconnect_count: number
}
type Region = { address_code: string; name: string; device_count: number }
type ListedDevice = {
  id: number
  device_sn: string
  status: number
  disable_abnormal_display: number
  host_expire: string
}

/** The part of the page's MapLibre map (window.__aedDashboardMap) the journey reads and moves. */
type MapHook = {
  project(p: [number, number]): { x: number; y: number }
  getZoom(): number
  getCenter(): { lng: number; lat: number }
  isMoving(): boolean
  jumpTo(o: { center: [number, number]; zoom: number }): void
  once(type: string, f: () => void): void
  triggerRepaint(): void
}
declare global {
  interface Window {
    __aedDashboardMap?: MapHook
    /** What the dashboard drew under a pixel of the map, the topmost first. */
    __aedDashboardHits?: (x: number, y: number) => { kind: string; id: number; s?: number }[]
  }
}

/** A date `days` from now, YYYY-MM-DD. */

/** Counts per status of a distribution, in legend order. */
const countsOf = (s: StateDistribution) => [
  s.normal_count,
  s.warn_event_count,
  s.error_report_count,
  s.offset_event_count,
  s.disconnect_count,
]
const pointsOf = (l: Locations) => STATUSES.flatMap((s) => l[String(s) as '0'])

const api = <T>(token: string, path: string) => consoleApi<T>(b.baseURL(), token, path)
const stateOf = (token: string, code?: string) =>
  api<StateDistribution>(
    token,
    `/api/v1/device/statistic/state-distribution/${code ? `?address_code=${code}` : ''}`,
  )
const locationsOf = (token: string, code?: string) =>
  api<Locations>(token, `${LOCATION_PATH}${code ? `?address_code=${code}` : ''}`)

/** The map's screen position (pixels from the map's top left corner) of a GCJ-02 point. */
function mapProject(page: Page, lon: number, lat: number) {
  return page.evaluate(
    ([x, y]) => {
      const map = window.__aedDashboardMap
      if (!map) throw new Error('the dashboard map is not exposed (window.__aedDashboardMap)')
      return map.project([x, y])
    },
    [lon, lat] as const,
  )
}

/** Zoom and centre of the map once it has stopped moving and drawn (its next idle). */
function mapSettled(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ zoom: number; lon: number; lat: number }>((resolve, reject) => {
        const map = window.__aedDashboardMap
        if (!map) return reject(new Error('the dashboard map is not exposed (window.__aedDashboardMap)'))
        map.once('idle', () => {
          const c = map.getCenter()
          resolve({ zoom: map.getZoom(), lon: c.lng, lat: c.lat })
        })
        map.triggerRepaint()
      }),
  )
}

/** The devices the map says it drew for its latest data (data-drawn), or null while drawing. */
async function drawn(page: Page): Promise<number | null> {
  const v = await page.getByTestId('dashboard-map-canvas').getAttribute('data-drawn')
  return v === null ? null : Number(v)
}

/** The legend's count per status, in order. */
function legendCounts(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    [0, 1, 2, 3, 4].map((s) => {
      const label = document.querySelector(`[data-testid="legend-${s}"]`)?.closest('label')
      return Number(label?.querySelector('.dashboard-legend-count')?.textContent ?? Number.NaN)
    }),
  )
}

/** The total devices figure (antd prints 1,200). */
async function total(page: Page): Promise<number> {
  const text = await page.getByTestId('dashboard-total').locator('.ant-statistic-content-value').innerText()
  return Number(text.replace(/,/g, ''))
}

/** The figures the page shows (total and legend), once they match `state` (an API answer of the same region). */
async function showsCounts(page: Page, state: () => Promise<StateDistribution>) {
  await expect
    .poll(
      async () => {
        const s = await state()
        return {
          shown: [await total(page), ...(await legendCounts(page))],
          api: [s.all_count, ...countsOf(s)],
        }
      },
      { timeout: 10_000 },
    )
    .toSatisfy(({ shown, api }) => JSON.stringify(shown) === JSON.stringify(api))
  return state()
}

/** The next device location answer the page receives (and what it asked). */
function nextLocations(page: Page, match: (url: URL) => boolean = () => true) {
  const answer = page
    .waitForResponse((r: Response) => {
      const url = new URL(r.url())
      return url.pathname === LOCATION_PATH && match(url)
    })
    .then(async (r) => {
      const body = (await r.json()) as { code: number; msg: string; data: Locations }
      if (body.code !== 0) throw new Error(`${r.url()}: ${body.code} ${body.msg}`)
      return { url: new URL(r.url()), data: body.data }
    })
  // Awaited later, or never when the journey fails first: no unhandled rejection then.
  answer.catch(() => undefined)
  return answer
}

/** The colour the screen shows at a point of the map (a screenshot's pixel: WebGL is not readable otherwise). */
async function pixelOf(page: Page, lon: number, lat: number): Promise<[number, number, number]> {
  const at = await mapProject(page, lon, lat)
  const box = await page.getByTestId('dashboard-map-canvas').boundingBox()
  if (!box) throw new Error('the map is not on screen')
  const x = Math.round(box.x + at.x)
  const y = Math.round(box.y + at.y)
  const shot = await page.screenshot({ clip: { x: x - 2, y: y - 2, width: 5, height: 5 } })
  return pixelAt(decodePng(shot), 2, 2)
}

/** The devices and clusters the map drew at a point of the map (what a click there finds). */
function featuresAt(page: Page, lon: number, lat: number) {
  return page.evaluate(
    ([x, y]) => {
      const map = window.__aedDashboardMap
      const hits = window.__aedDashboardHits
      if (!map || !hits) throw new Error('the dashboard map is not exposed (window.__aedDashboardMap)')
      const p = map.project([x, y])
      return hits(p.x, p.y)
        .filter((h) => h.kind !== 'marker')
        .map((h) => ({ id: h.id, s: h.s, cluster: h.kind === 'cluster' }))
    },
    [lon, lat] as const,
  )
}

/** Pixels of a chart's canvas close to a colour (the ECharts canvases are 2D, so readable). */
function chartPixels(page: Page, testId: string, hex: string) {
  return page.evaluate(
    ([id, [r, g, b]]) => {
      const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid="${id}"] canvas`)
      const ctx = canvas?.getContext('2d')
      if (!canvas || !ctx) return -1
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
      let n = 0
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i] - r) < 16 && Math.abs(data[i + 1] - g) < 16 && Math.abs(data[i + 2] - b) < 16)
          n++
      return n
    },
    [testId, rgbOf(hex)] as const,
  )
}

/** Metres between two GCJ-02 points (equirectangular: plenty at city scale). */
function metres(a: [number, number], c: [number, number]) {
  const rad = Math.PI / 180
  const x = (c[0] - a[0]) * rad * Math.cos(((a[1] + c[1]) / 2) * rad)
  const y = (c[1] - a[1]) * rad
  return Math.hypot(x, y) * 6_371_000
}

/**
 * A normal device of the region standing alone on the map (no device or rescue within 150 m, so
 * its point is its own at zoom 16), whose site shows abnormal states and whose host is far from
 * expiring (a pass brings it back to normal). From the end of the list: other journeys pick from
 * the start of the national list.
 */
async function loneNormalDevice(token: string, code: string) {
  const [listed, placed, rescues] = await Promise.all([
    api<{ resource: ListedDevice[] }>(
      token,
      `/api/v1/device/?status=0&address_code=${code}&page=1&page_size=100`,
    ),
    locationsOf(token, code),
    api<{ resource: { lon: number; lat: number }[] }>(
      token,
      `/api/v1/analysis-board/rescue-event/location/?address_code=${code}`,
    ),
  ])
  const everyone = pointsOf(placed)
  const others: [number, number][] = rescues.resource.map((r) => [r.lon, r.lat])
  for (const d of listed.resource.toReversed()) {
    if (d.status !== 0 || d.disable_abnormal_display !== 0 || d.host_expire <= inDays(400)) continue
    const at = placed['0'].find((p) => p[0] === d.id)
    if (!at) continue
    const here: [number, number] = [at[1], at[2]]
    const crowded = [
      ...everyone.filter((p) => p[0] !== d.id).map((p): [number, number] => [p[1], p[2]]),
      ...others,
    ]
    if (crowded.every((p) => metres(here, p) > 150)) return { ...d, lon: at[1], lat: at[2] }
  }
  throw new Error(`no lone normal device in ${code}`)
}

/** A province with devices (浙江省 when it has some) and its city with the most. */
async function regionsWithDevices(token: string) {
  const provinces = await api<{ items: Region[] }>(token, '/api/v1/device/statistic/regional-distribution/')
  const province = provinces.items.find((r) => r.name === '浙江省') ?? provinces.items[0]
  const cities = await api<{ items: Region[] }>(
    token,
    `/api/v1/device/statistic/regional-distribution/?address_code=${province.address_code}`,
  )
  return { province, city: cities.items[0] }
}

/** A member's console token, signed in through the API. */
async function apiToken(mobile: string): Promise<string> {
  const res = await fetch(`${b.baseURL()}/api/v1/member/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mobile, password: DEMO_PASSWORD, login_way: 1, member_type: 3 }),
  })
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } }
  if (body.code !== 0) throw new Error(`login ${mobile}: ${body.code} ${body.msg}`)
  return body.data.token
}

async function signedIn(phone: string): Promise<Page> {
  const page = await openSignedIn(b, phone)
  await page.getByTestId('dashboard-page').waitFor()
  return page
}

describe('dashboard journey', () => {
  it('shows the counts and the map, follows the region and the legend, links a pie, and recolours a failing device live', async () => {
    const page = await b.open('/user/login')
    const firstLocations = nextLocations(page)
    await signIn(page, '13800000000')
    await page.waitForURL(/\/watchBoard\/dashboard/)
    await page.getByTestId('dashboard-page').waitFor()
    const token = await consoleToken(page)

    // 1. The whole country: every placed device drawn, the legend and the total as the API counts them.
    const country = (await firstLocations).data
    const countryState = await showsCounts(page, () => stateOf(token))
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe(pointsOf(country).length)
    expect(pointsOf(country).length).toBe(countryState.all_count - country.unplaced)
    expect((await mapSettled(page)).zoom).toBeCloseTo(4, 1)
    // The pies are drawn (each ECharts canvas holds its status colour), the region pie too.
    // A status with devices shows its colour in its pie, one without does not; the country has
    // devices, so one pie at least is coloured.
    const pieColours = ['#52c41a', '#fa8c16', '#722ed1', '#f5222d', '#bfbfbf']
    const counts = countsOf(countryState)
    const coloured = [...pieColours.entries()].filter(([s]) => counts[s] > 0)
    const empty = [...pieColours.entries()].filter(([s]) => counts[s] === 0)
    expect(coloured.length).toBeGreaterThan(0)
    for (const [s, hex] of coloured)
      await expect.poll(() => chartPixels(page, `dashboard-pie-${s}`, hex)).toBeGreaterThan(5)
    for (const [s, hex] of empty) {
      const pixels = await chartPixels(page, `dashboard-pie-${s}`, hex)
      expect(pixels).toBeGreaterThanOrEqual(0) // the pie is there (-1: no canvas)
      expect(pixels).toBeLessThanOrEqual(5)
    }
    await expect.poll(() => chartPixels(page, 'dashboard-region-pie', '#5b8ff9')).toBeGreaterThan(5)
    await screenshot(page, 'dashboard-1-country')

    // 2. A province, then a city with devices (from the regional distribution): figures and map follow.
    const { province, city } = await regionsWithDevices(token)
    expect(city.device_count).toBeGreaterThan(0)

    const provinceLocations = nextLocations(
      page,
      (u) => u.searchParams.get('address_code') === province.address_code,
    )
    await pickSearchedOption(page, 'dashboard-province', province.name)
    const provinceState = await showsCounts(page, () => stateOf(token, province.address_code))
    expect(provinceState.all_count).toBe(province.device_count)
    expect(provinceState.all_count).toBeLessThan(countryState.all_count)
    await expect.poll(() => drawn(page)).toBe(pointsOf((await provinceLocations).data).length)
    // The spec's province zoom 8 is MapLibre's 7 (512-pixel tiles).
    await expect.poll(async () => (await mapSettled(page)).zoom).toBeCloseTo(7, 1)
    await screenshot(page, 'dashboard-2a-province')

    const cityLocations = nextLocations(page, (u) => u.searchParams.get('address_code') === city.address_code)
    await pickSearchedOption(page, 'dashboard-city', city.name)
    const cityState = await showsCounts(page, () => stateOf(token, city.address_code))
    expect(cityState.all_count).toBe(city.device_count)
    const cityPoints = (await cityLocations).data
    await expect.poll(() => drawn(page)).toBe(pointsOf(cityPoints).length)
    await expect.poll(async () => (await mapSettled(page)).zoom).toBeCloseTo(10, 1)
    // Moved there: most of the city's devices are on screen.
    const mapBox = await page.getByTestId('dashboard-map-canvas').boundingBox()
    if (!mapBox) throw new Error('the map is not on screen')
    const onScreen = []
    for (const [, lon, lat] of pointsOf(cityPoints)) {
      const p = await mapProject(page, lon, lat)
      if (p.x >= 0 && p.y >= 0 && p.x <= mapBox.width && p.y <= mapBox.height) onScreen.push(p)
    }
    expect(onScreen.length).toBeGreaterThan(pointsOf(cityPoints).length / 2)
    await screenshot(page, 'dashboard-2b-city')

    // 3. Unticking fault asks again without status 2 and draws the faults fewer.
    const before = await drawn(page)
    const faults = cityPoints['2'].length
    expect(faults, 'the city has faulty devices to hide').toBeGreaterThan(0)
    const refetched = nextLocations(page, (u) => u.searchParams.get('address_code') === city.address_code)
    await page.getByTestId('legend-2').uncheck()
    const unticked = await refetched
    expect(JSON.parse(unticked.url.searchParams.get('status_list') ?? 'null')).toEqual([0, 1, 3, 4])
    expect(unticked.data['2']).toEqual([])
    await expect.poll(() => drawn(page)).toBe(pointsOf(unticked.data).length)
    // Nothing else changed meanwhile (the answer for the other statuses is the same size).
    expect(pointsOf(unticked.data).length).toBe((before ?? 0) - faults)
    await screenshot(page, 'dashboard-3-fault-unticked')

    // 4. The fault pie opens the fault events; back on the dashboard everything is ticked again.
    await page.getByTestId('dashboard-pie-2').click()
    await page.waitForURL(/\/eventManagement\/fault/)
    await page.getByTestId('events-page-fault').waitFor()
    await screenshot(page, 'dashboard-4-fault-events')
    await page.goBack()
    await page.getByTestId('dashboard-page').waitFor()
    expect(await page.getByTestId('legend-2').isChecked()).toBe(true)

    // 5. A lone normal device of the city fails; its point turns purple with no reload.
    const device = await loneNormalDevice(token, city.address_code)
    const { secret } = await api<{ secret: string }>(token, `/api/v1/device/${device.id}/credential`)
    // The same signed HTTPS protocol the simulator speaks (tools/simulate.ts), whose failures are
    // random over a fleet: a link of this one device makes it fail once, now.
    const link = deviceLink(b.baseURL(), device.device_sn, secret)
    await pickSearchedOption(page, 'dashboard-province', province.name)
    await pickSearchedOption(page, 'dashboard-city', city.name)
    // (The answers come from the page's cache now: the map is there once it has flown and drawn.)
    await expect.poll(async () => (await mapSettled(page)).zoom).toBeCloseTo(10, 1)
    await expect.poll(() => drawn(page)).toBe(cityState.all_count - cityPoints.unplaced)
    // In braces: jumpTo returns the map, which Playwright would serialise whole.
    await page.evaluate(
      ([lon, lat]) => {
        window.__aedDashboardMap?.jumpTo({ center: [lon, lat], zoom: 16 })
      },
      [device.lon, device.lat] as const,
    )
    expect((await mapSettled(page)).zoom).toBe(16)
    // The view's clusters come from the worker after the move: asked until they are drawn.
    await expect
      .poll(() => featuresAt(page, device.lon, device.lat))
      .toEqual([{ id: device.id, s: 0, cluster: false }])
    const green = await pixelOf(page, device.lon, device.lat)
    expect(near(green, GREEN), `the point is ${green}, not green`).toBe(true)
    await page.locator('[data-testid="message-bell"][data-live="1"]').waitFor()
    // Its popup, opened by a click on the point, says normal.
    const point = await mapProject(page, device.lon, device.lat)
    await page.mouse.click(mapBox.x + point.x, mapBox.y + point.y)
    const popup = page.getByTestId('dashboard-device-popup')
    await expect.poll(() => popup.innerText()).toContain(device.device_sn)
    expect(await popup.innerText()).toContain('正常')
    await screenshot(page, 'dashboard-5a-device-normal')

    const reloads: string[] = []
    page.on('request', (r) => {
      if (r.url().includes(LOCATION_PATH) || r.resourceType() === 'document') reloads.push(r.url())
    })
    await link.send('heartbeat', { battery: 92, rssi: -67 })
    await link.send('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] })
    await expect
      .poll(() => pixelOf(page, device.lon, device.lat), { timeout: 10_000, interval: 250 })
      .toSatisfy((c: number[]) => near(c, PURPLE))
    await expect
      .poll(() => featuresAt(page, device.lon, device.lat))
      .toEqual([{ id: device.id, s: 2, cluster: false }])
    expect(reloads).toEqual([])
    // The open popup follows: it asks again and says fault.
    await expect.poll(() => popup.innerText()).toContain('故障')
    // The statistics follow too (refetched at most every 5 s after pushes): one fault more.
    const failed = await showsCounts(page, () => stateOf(token, city.address_code))
    expect(failed.error_report_count).toBe(cityState.error_report_count + 1)
    await screenshot(page, 'dashboard-5b-device-fault')

    // The device is left as found: a pass with fresh consumables makes it normal (and green) again.
    await link.send('selftest', healthyPass())
    await expect
      .poll(() => pixelOf(page, device.lon, device.lat), { timeout: 10_000, interval: 250 })
      .toSatisfy((c: number[]) => near(c, GREEN))
  }, 90_000)

  it('arriving from a rescue message shows its card and the highlighted place', async () => {
    // The e2e server has no demo history (no past rescues): a device of the city starts one now,
    // before the member signs in, so no alarm pops up over the page (the popup opens on live alarms).
    const token = await apiToken('13800000000')
    const { city } = await regionsWithDevices(token)
    const listed = await api<{ resource: ListedDevice[] }>(
      token,
      `/api/v1/device/?address_code=${city.address_code}&page=1&page_size=10`,
    )
    const device = listed.resource[1] ?? listed.resource[0]
    const { secret } = await api<{ secret: string }>(token, `/api/v1/device/${device.id}/credential`)
    await deviceLink(b.baseURL(), device.device_sn, secret).send('usage', {
      rescue_event_id: `e2e-dashboard-${Date.now()}`,
      event_time: Date.now(),
      event_desc: '开机',
    })
    type Message = { msg_type: number; event_type: number; event_id: number; device_sn: string | null }
    let rescue: Message | undefined
    await expect
      .poll(async () => {
        const messages = await api<{ resource: Message[] }>(
          token,
          '/api/v1/system/msg-center?page=1&page_size=20',
        )
        rescue = messages.resource.find((m) => m.msg_type === 2 && m.device_sn === device.device_sn)
        return rescue !== undefined
      })
      .toBe(true)
    if (!rescue) throw new Error('no rescue message')
    const focus = await api<{
      title: string
      device_sn: string
      agency_name: string
      lon: number
      lat: number
    }>(token, `/api/v1/analysis-board/event-focus/?event_type=2&event_id=${rescue.event_id}`)
    expect(focus.device_sn).toBe(device.device_sn)

    const page = await signedIn('13800000000')
    await page.goto(`/watchBoard/dashboard?formMsg=1&event_type=2&event_id=${rescue.event_id}`)
    const card = page.getByTestId('dashboard-focus')
    await card.getByText(focus.device_sn, { exact: true }).waitFor()
    const text = await card.innerText()
    expect(text).toContain(focus.title)
    expect(text).toContain(focus.agency_name)
    const marker = page.getByTestId('dashboard-focus-marker')
    await marker.waitFor()
    expect(await marker.count()).toBe(1)
    // The map flew there (the spec's zoom 16, MapLibre's 15) and the pin stands on the place.
    await expect.poll(async () => (await mapSettled(page)).zoom).toBeCloseTo(15, 1)
    const at = await mapProject(page, focus.lon, focus.lat)
    const map = await page.getByTestId('dashboard-map-canvas').boundingBox()
    const pin = await marker.boundingBox()
    if (!map || !pin) throw new Error('the map or the pin is not on screen')
    await screenshot(page, 'dashboard-6-from-rescue-message')
    // Anchored at its bottom centre (the pulse scales it by up to 1.25).
    const off = { x: pin.x + pin.width / 2 - (map.x + at.x), y: pin.y + pin.height - (map.y + at.y) }
    expect(Math.abs(off.x), `the pin is ${JSON.stringify(off)} px from the place`).toBeLessThan(6)
    expect(Math.abs(off.y), `the pin is ${JSON.stringify(off)} px from the place`).toBeLessThan(
      pin.height * 0.3,
    )
  })

  it('a leaf organisation sees only its own devices', async () => {
    const all = await stateOf(await apiToken('13800000000'))

    const page = await b.open('/user/login')
    const located = nextLocations(page)
    await signIn(page, '13800000021')
    await page.waitForURL(/\/watchBoard\/dashboard/)
    const token = await consoleToken(page)
    const own = await showsCounts(page, () => stateOf(token))
    expect(own.all_count).toBeGreaterThan(0)
    expect(own.all_count).toBeLessThan(all.all_count)

    const answered = (await located).data
    const listed = await api<{ count: number; resource: { id: number }[] }>(
      token,
      `/api/v1/device/?page=1&page_size=${own.all_count}`,
    )
    expect(listed.count).toBe(own.all_count)
    const ids = (xs: number[]) => [...xs].sort((x, y) => x - y)
    expect(ids(pointsOf(answered).map((p) => p[0]))).toEqual(ids(listed.resource.map((d) => d.id)))
    await expect.poll(() => drawn(page), { timeout: 20_000 }).toBe(pointsOf(answered).length)
    await screenshot(page, 'dashboard-7-leaf-organisation')
  })
})
