import { DEFAULT_COORDINATE } from '@aed/contracts/constants'
import type { DevSms } from '@aed/contracts/dev-sms'
import type { Dispatch } from '@aed/contracts/dispatch'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inputOf } from './support/antd.ts'
import { launchChromium, screenshot, useBrowser } from './support/browser.ts'
import { cabinetLink, findCabinet } from './support/cabinet.ts'
import { credentialLink } from './support/device.ts'
import { apiSignIn, callApi, type E2eServer, startServer } from './support/server.ts'
import { DEMO_PASSWORD, signIn } from './support/session.ts'

// Issue 26's journey on a server of its own (DEV_SMS_OUTBOX=1, so the SMS texts with their alert
// links are read back through GET /api/v1/dev/sms): the system's super administrator records a
// call by 登记呼救 at a ready AED on 王府井大街 (Beijing: the 登记呼救 map opens there, and the
// offline map service finds no coordinates for an address, so the place is a click on that map),
// the dispatch shows in the call's panel; two responders open their SMS links on phones and
// accept, the panel follows live; a fault on an AED at 国贸 keeps it out of a second call's
// choice there, and that call's AED in a cabinet unlocks on accept; closing the call ends the
// responder's page. The demo's responders sit within 1.5 km of its AEDs: the system
// organisation's first ring is widened to 1.5 km here so the first wave goes out at once.

let server: E2eServer
const b = useBrowser({ server: () => server.baseURL })
const base = () => server.baseURL

const SUPER = '13800000000'
const ORG = 'AED云平台运营中心'
/** Ready demo AEDs (Beijing, the system organisation's): the first call's place, and the second's. */
const WFJ_AED = 'M652513469'
const GUOMAO_FAULTY = 'M672413321'
const GUOMAO_CABINET_AED = 'M652613062'
const GUOMAO_CABINET = 'CB26102968'
const CALL = {
  phone: '13661230026',
  location: '北京市东城区王府井大街 百货大楼南门',
  description: '女性约50岁，倒地无反应',
}
const PICKER_ZOOM = 13
const LINK = /\/rescue\/([A-Za-z0-9_-]{43})/

type Point = { lat: number; lon: number }
type ListedDevice = { id: number; device_sn: string; readiness: string; lat: number; lon: number }
type CallDetail = { id: number; status: number; dispatch: Dispatch | null }

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const r = await callApi<T>(base(), method, url, { token, body })
  if (r.code !== 0) throw new Error(`${method} ${url}: ${r.code} ${r.msg}`)
  return r.data
}

/** Pixels from `from` to `to` on a Web Mercator map of 512-pixel tiles (MapLibre's) at `zoom`. */
function mercatorOffset(from: Point, to: Point, zoom: number) {
  const world = 512 * 2 ** zoom
  const x = (p: Point) => ((p.lon + 180) / 360) * world
  const y = (p: Point) =>
    ((180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (p.lat * Math.PI) / 360))) / 360) * world
  return { dx: x(to) - x(from), dy: y(to) - y(from) }
}

/** Closes every open alarm card (without confirming), so the popup's mask leaves the page. */
async function closeAlarms(page: Page) {
  const popup = page.getByTestId('alarm-popup')
  await popup.waitFor({ timeout: 15_000 })
  for (let i = 0; i < 10 && (await popup.count()) > 0; i++) {
    await page
      .locator('[data-testid^="alarm-close-m"]')
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined)
    await page.waitForTimeout(300)
  }
  await popup.waitFor({ state: 'detached' })
}

/** Ready by the engine (the demo's readiness varies): a hello and a passing self-test with fresh consumables. */
async function makeReady(token: string, listed: ListedDevice) {
  const { device } = await credentialLink(base(), token, listed)
  const expire = new Date(Date.now() + 700 * 86_400_000).toISOString().slice(0, 10)
  await device.send('hello', { model: 'D10', fw_version: 'V1.2.1', report_interval_s: 3600 })
  await device.send('selftest', {
    report_type: 2,
    result: 'pass',
    fault_codes: [],
    battery: 91,
    electrode_sheet_expire: expire,
    battery_expire: expire,
  })
  return device
}

let phones: Browser
const phoneContexts: BrowserContext[] = []

/** A responder's phone: 390x844 at 3x, touch, its position allowed near `at`. */
async function phone(at: Point): Promise<Page> {
  const context = await phones.newContext({
    baseURL: base(),
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: at.lat + 0.002, longitude: at.lon - 0.002, accuracy: 15 },
    permissions: ['geolocation'],
  })
  phoneContexts.push(context)
  return context.newPage()
}

describe('dispatch journey', () => {
  let superToken = ''
  let page: Page
  let devices: ListedDevice[] = []
  let wfj: ListedDevice
  let callId = 0
  let secondCallId = 0
  /** Alert id → the token of its SMS link. */
  const links = new Map<number, string>()
  const accepted: { page: Page; alertId: number }[] = []
  const started = Date.now()

  const detail = (id: number) => api<CallDetail>(superToken, 'GET', `/api/v1/aid-event/call-event/${id}`)
  const dispatchOf = async (id: number) => {
    const d = (await detail(id)).dispatch
    if (!d) throw new Error(`call ${id} has no dispatch`)
    return d
  }
  /** The dispatch SMS of these alerts, read back from the development outbox. */
  const readLinks = async (alertIds: number[]) => {
    const sms = await api<{ resource: DevSms[] }>(superToken, 'GET', '/api/v1/dev/sms?after=0&limit=500')
    for (const s of sms.resource) {
      const id = Number(s.key?.replace('dispatch:', ''))
      const m = LINK.exec(s.content)
      if (s.kind === 'dispatch' && alertIds.includes(id) && m) links.set(id, m[1])
    }
    return alertIds.filter((id) => links.has(id))
  }

  beforeAll(async () => {
    server = await startServer({ DEV_SMS_OUTBOX: '1' }, 180_000)
    phones = await launchChromium()
    superToken = await apiSignIn(base(), SUPER, DEMO_PASSWORD)
    const orgs = await api<{ resource: { id: number; name: string }[] }>(
      superToken,
      'GET',
      '/api/v1/agency/?page=1&page_size=100',
    )
    const org = orgs.resource.find((a) => a.name === ORG)
    if (!org) throw new Error(`no ${ORG}`)
    const settings = await api<Record<string, unknown>>(
      superToken,
      'GET',
      `/api/v1/agency/config/?agency_id=${org.id}`,
    )
    await api(superToken, 'POST', '/api/v1/agency/config/', {
      ...settings,
      agency_id: org.id,
      dispatch_radii_m: [1500, 3000],
      alarm_escalate_minutes: 60,
    })
    devices = (
      await api<{ resource: ListedDevice[] }>(superToken, 'GET', '/api/v1/device/?page=1&page_size=500')
    ).resource
    const found = devices.find((d) => d.device_sn === WFJ_AED)
    if (!found) throw new Error(`no demo AED ${WFJ_AED}`)
    wfj = found
    await makeReady(superToken, wfj)
  }, 240_000)

  afterAll(async () => {
    for (const id of [callId, secondCallId].filter((x) => x > 0))
      await callApi(base(), 'PUT', `/api/v1/aid-event/call-event/${id}`, {
        token: superToken,
        body: { outcome: 'cancelled', remark: 'e2e clean-up' },
      }).catch(() => undefined)
    for (const c of phoneContexts) await c.close().catch(() => undefined)
    await phones?.close()
    await server?.stop()
    console.log(`dispatch journey: ${((Date.now() - started) / 1000).toFixed(0)} s in all`)
  })

  it('登记呼救 at a ready AED dispatches at once: the panel shows 派单中 and the alerts', async () => {
    const ready = devices.find((d) => d.device_sn === WFJ_AED)
    expect(ready).toBeDefined()
    page = await b.open('/user/login')
    await signIn(page, SUPER)
    await page.waitForURL(/\/watchBoard\/dashboard/)
    await page.goto('/emergency/call')
    await page.getByTestId('emergency-page').waitFor()

    await page.getByTestId('call-create').click()
    const modal = page.getByTestId('call-modal')
    await inputOf(page, 'call-phone').waitFor()
    await inputOf(page, 'call-phone').fill(CALL.phone)
    await inputOf(page, 'call-location').fill(CALL.location)
    await modal.locator('.ant-modal-title').click()
    await page
      .locator('textarea[data-testid="call-description"], [data-testid="call-description"] textarea')
      .fill(CALL.description)
    const canvas = modal.locator('[data-testid="map-picker"] canvas.maplibregl-canvas')
    await canvas.waitFor()
    await page.waitForTimeout(600)
    const box = await canvas.boundingBox()
    if (!box) throw new Error('the map picker is not on screen')
    const { dx, dy } = mercatorOffset(DEFAULT_COORDINATE, wfj, PICKER_ZOOM)
    await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy)
    await modal.locator('[data-testid="map-picker"] .maplibregl-marker').waitFor()
    const t0 = Date.now()
    await modal.locator('.ant-modal-footer .ant-btn-primary').click()
    await closeAlarms(page)

    const calls = await api<{ resource: { id: number; phone: string }[] }>(
      superToken,
      'GET',
      `/api/v1/aid-event/call-event/?page=1&page_size=10`,
    )
    callId = calls.resource.find((c) => c.phone.replace(/\D/g, '').endsWith(CALL.phone.slice(-4)))?.id ?? 0
    expect(callId).toBeGreaterThan(0)

    // Selected: its panel with the dispatch, alerts listed as they go out.
    const panel = page.getByTestId('call-panel')
    await expect.poll(() => panel.innerText()).toContain(`#${callId}`)
    const state = panel.getByTestId('call-dispatch-state')
    await expect.poll(() => state.innerText(), { timeout: 15_000 }).toBe('派单中')
    const items = panel.getByTestId('call-dispatch-alerts').locator('li')
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
    console.log(`登记呼救 to ${await items.count()} alerts in the panel: ${Date.now() - t0} ms`)
    expect(await panel.getByTestId('call-dispatch-phase').innerText()).toBe('第1阶段 · 范围1500米')

    const d = await dispatchOf(callId)
    expect(d.state).toBe('running')
    expect(d.aeds.map((a) => a.device_sn)).toContain(WFJ_AED)
    for (const a of d.alerts) {
      expect(a.distance).toBeLessThanOrEqual(1500)
      expect(await panel.getByTestId(`call-alert-${a.id}`).getByTestId('call-alert-state').innerText()).toBe(
        '已通知',
      )
    }
    expect(d.alerts.map((a) => a.role)).toContain('patient')
    await panel.getByTestId('call-dispatch').scrollIntoViewIfNeeded()
    await screenshot(page, 'dispatch-01-panel-alerted')
  }, 90_000)

  it('a responder opens the SMS link on a phone and accepts: the panel shows it live', async () => {
    const d = await dispatchOf(callId)
    await expect
      .poll(() => readLinks(d.alerts.map((a) => a.id)), { timeout: 10_000 })
      .toHaveLength(d.alerts.length)
    const first = d.alerts.find((a) => a.role === 'patient')!
    const phoneA = await phone(wfj)
    await phoneA.goto(`/rescue/${links.get(first.id)}`)
    await phoneA.getByText('直接去现场').first().waitFor()
    await expect(phoneA.getByRole('timer').textContent()).resolves.toMatch(/^请在 \d+ 秒内答复$/)
    await screenshot(phoneA, 'dispatch-02-phone-alerted')

    await phoneA.getByRole('button', { name: '接受', exact: true }).tap()
    await phoneA.getByText('已接受，请立即出发').waitFor()
    accepted.push({ page: phoneA, alertId: first.id })
    await screenshot(phoneA, 'dispatch-03-phone-accepted')

    // The dispatcher's page, not reloaded: the alert's state and the counts (frame 14).
    const panel = page.getByTestId('call-panel')
    await expect
      .poll(() => panel.getByTestId(`call-alert-${first.id}`).getByTestId('call-alert-state').innerText(), {
        timeout: 10_000,
      })
      .toBe('已接受')
    await expect.poll(() => panel.getByTestId('call-dispatch-counts').innerText()).toContain('已接受1人')
    // The shared position reaches the dispatch.
    await expect
      .poll(
        async () => (await dispatchOf(callId)).alerts.find((a) => a.id === first.id)?.located_at ?? null,
        {
          timeout: 20_000,
        },
      )
      .not.toBeNull()
    await panel.getByTestId('call-dispatch').scrollIntoViewIfNeeded()
    await screenshot(page, 'dispatch-04-panel-accepted')

    // A second responder, sent by an AED when one was given, accepts too.
    const second = d.alerts.find((a) => a.role === 'aed') ?? d.alerts.find((a) => a.id !== first.id)!
    const phoneB = await phone(wfj)
    await phoneB.goto(`/rescue/${links.get(second.id)}`)
    await phoneB
      .getByText(second.role === 'aed' ? '先取AED再去现场' : '直接去现场')
      .first()
      .waitFor()
    await phoneB.getByRole('button', { name: '接受', exact: true }).tap()
    await phoneB.getByText('已接受，请立即出发').waitFor()
    accepted.push({ page: phoneB, alertId: second.id })
    await expect
      .poll(() => panel.getByTestId('call-dispatch-counts').innerText(), { timeout: 10_000 })
      .toContain('已接受2人')
  }, 90_000)

  it('a faulty AED is not chosen; an AED in a cabinet unlocks on accept', async () => {
    const faulty = devices.find((d) => d.device_sn === GUOMAO_FAULTY)!
    const inCabinet = devices.find((d) => d.device_sn === GUOMAO_CABINET_AED)!
    const cabinet = await findCabinet(base(), superToken, GUOMAO_CABINET)
    await (await cabinetLink(base(), superToken, cabinet.id, GUOMAO_CABINET)).hello()
    await makeReady(superToken, inCabinet)
    const device = await makeReady(superToken, faulty)
    const readiness = async (id: number) =>
      (
        await api<{ resource: ListedDevice[] }>(superToken, 'GET', '/api/v1/device/?page=1&page_size=500')
      ).resource.find((x) => x.id === id)?.readiness
    await expect.poll(() => readiness(inCabinet.id)).toBe('ready')
    await expect.poll(() => readiness(faulty.id)).toBe('ready')
    await device.send('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] })
    await expect.poll(() => readiness(faulty.id)).not.toBe('ready')

    const created = await api<{ id: number }>(superToken, 'POST', '/api/v1/aid-event/call-event/', {
      phone: '13661230027',
      lat: faulty.lat - 0.0004,
      lon: faulty.lon + 0.0004,
      location: '北京市朝阳区建国门外大街1号 国贸地铁站C口',
      description: '地铁口有人晕倒',
    })
    secondCallId = created.id
    await expect
      .poll(async () => (await dispatchOf(secondCallId)).alerts.length, { timeout: 15_000 })
      .toBeGreaterThan(0)
    const d = await dispatchOf(secondCallId)
    const chosen = d.aeds.map((a) => a.device_sn)
    console.log(
      `second call's AEDs: ${chosen.join(', ')}; alerts: ${d.alerts.map((a) => `${a.role}:${a.device_sn ?? '-'}:${a.cabinet_sn ?? '-'}`).join(', ')}`,
    )
    expect(chosen).not.toContain(GUOMAO_FAULTY)
    expect(chosen).toContain(inCabinet.device_sn)
    // Nobody who already accepted the first call is alerted again.
    const busy = (await dispatchOf(callId)).alerts
      .filter((a) => a.state === 'accepted')
      .map((a) => a.responder_id)
    for (const a of d.alerts) expect(busy).not.toContain(a.responder_id)

    const byCabinet = d.alerts.find((a) => a.role === 'aed' && a.cabinet_sn === GUOMAO_CABINET)
    expect(byCabinet, 'an alert fetches the AED in the cabinet').toBeDefined()
    await expect.poll(() => readLinks([byCabinet!.id]), { timeout: 10_000 }).toHaveLength(1)
    const phoneC = await phone(inCabinet)
    await phoneC.goto(`/rescue/${links.get(byCabinet!.id)}`)
    await phoneC.getByText('先取AED再去现场').first().waitFor()
    await phoneC.getByRole('button', { name: '接受', exact: true }).tap()
    await phoneC.getByText('已接受，请立即出发').waitFor()
    await phoneC.getByText('已开锁').waitFor({ timeout: 15_000 })
    await screenshot(phoneC, 'dispatch-05-phone-cabinet-unlocked')
    const commands = await api<{ name: string; creator_name: string | null }[]>(
      superToken,
      'GET',
      `/api/v1/cabinet/${cabinet.id}/command`,
    )
    expect(commands.filter((c) => c.name === 'unlock')).toHaveLength(1)
    console.log(
      `cabinet ${GUOMAO_CABINET} commands: ${commands.map((c) => `${c.name} by ${c.creator_name}`).join(', ')}`,
    )
  }, 90_000)

  it('closing the call ends the dispatch: the panel says so, the responder’s page too', async () => {
    await api(superToken, 'PUT', `/api/v1/aid-event/call-event/${callId}`, {
      outcome: 'no_aed_needed',
      remark: 'e2e: 患者已恢复意识',
    })
    const panel = page.getByTestId('call-panel')
    await expect
      .poll(() => panel.getByTestId('call-dispatch-state').innerText(), { timeout: 15_000 })
      .toBe('已结束')
    await panel.getByTestId('call-dispatch').scrollIntoViewIfNeeded()
    await screenshot(page, 'dispatch-06-panel-closed')
    // The page asks again every 10 s.
    const { page: phoneA } = accepted[0]
    await phoneA.getByText('本次呼救已结束，感谢您的帮助').waitFor({ timeout: 20_000 })
    await screenshot(phoneA, 'dispatch-07-phone-closed')
    const answer = await (
      await fetch(`${base()}/responder-api/v1/alert/${links.get(accepted[0].alertId)}/arrived`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()
    expect(answer).toMatchObject({ msg: '该呼救已结束，无需再前往' })
    callId = 0
  }, 60_000)
})
