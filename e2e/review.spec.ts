import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { DevSms } from '@aed/contracts/dev-sms'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from './support/browser.ts'
import { png } from './support/png.ts'
import { apiSignIn, callApi, type E2eServer, startServer } from './support/server.ts'
import { signedIn } from './support/session.ts'

// Issue 27's journey on a server of its own (DEV_SMS_OUTBOX=1: the SMS texts are read back through
// GET /api/v1/dev/sms). An integrator of 厦门市思明区体育中心 with the mini_program service submits a
// volunteer in Wuxi (away from the demo network) and an AED at a demo AED's own place on 王府井大街
// with the integrator client (`npm run integrator`), as a new user would; the system's super
// administrator reviews both under 公众审核 (the AED flagged as a duplicate of the demo AED, compared
// side by side), approves them, turns on both switches of 后台配置, and exports both approved lists.
// Then a call near the volunteer alerts them by SMS, and the AED is in the nearby answer as third
// party, readiness unknown.

const execFileP = promisify(execFile)
const root = path.resolve(import.meta.dirname, '..')

let server: E2eServer
const b = useBrowser({ server: () => server.baseURL })
const base = () => server.baseURL

const SUPER = '13800000000'
const INTEGRATOR_ORG = '厦门市思明区体育中心'
/** A ready demo AED of the system organisation on 王府井大街. */
const WFJ_AED = 'M652513469'
/** Wuxi: no demo AED or responder within kilometres. */
const GUARD = { lat: 31.5781, lon: 120.3005 }
const VOLUNTEER = {
  submitter_name: '林志愿',
  submitter_phone: '13912345678',
  guard_area: '无锡市梁溪区崇安寺步行街',
  has_cert: 1,
  ...GUARD,
}
const AED_SUBMITTER = { submitter_name: '陈热心', submitter_phone: '13987654321' }

type Envelope<T> = { code: number; msg: string; data: T }
type Listed<T> = { count: number; resource: T[] }
type Volunteer = { id: number; submitter_name: string; audit_status: number; responder_id: number | null }
type ThirdParty = {
  id: number
  brand: string
  duplicates: { kind: string; sn: string | null; reason: string; distance: number | null }[]
}

let superToken = ''
let creds = { key: '', secret: '' }
let wfj = { id: 0, device_sn: '', location: '', location_desc: '', lat: 0, lon: 0 }
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-review-'))

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const r = await callApi<T>(base(), method, url, { token, body })
  if (r.code !== 0) throw new Error(`${method} ${url}: ${r.code} ${r.msg}`)
  return r.data
}

/** The integrator client as a user runs it (npm run integrator -- ...): its printed answer. */
async function integrator<T>(...args: string[]): Promise<Envelope<T>> {
  // A refusal exits 1 with the answer printed all the same.
  const { stdout } = await execFileP(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/tools/integrator.ts', ...args],
    { cwd: root, env: { ...process.env, AED_URL: base(), AED_KEY: creds.key, AED_SECRET: creds.secret } },
  ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }))
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as Envelope<T>
}

/** A photo the submitter took: a small red-and-white picture. */
function photo(name: string) {
  const file = path.join(tmp, name)
  fs.writeFileSync(
    file,
    png(64, 48, (x, y) => ((x + y) % 16 < 8 ? [220, 40, 40] : [250, 250, 250])),
  )
  return file
}

async function smsTo(phone: string) {
  const sms = await api<{ resource: DevSms[] }>(superToken, 'GET', '/api/v1/dev/sms?after=0&limit=500')
  return sms.resource.filter((s) => s.phone === phone)
}

async function toast(page: Page, text: string) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor()
}

async function sheetOf(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(await download.path())
  const rows: unknown[][] = []
  book.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)))
  return { name: download.suggestedFilename(), rows }
}

describe('public review: volunteers and third-party AEDs from the public join the network', () => {
  beforeAll(async () => {
    server = await startServer({ DEV_SMS_OUTBOX: '1' }, 180_000)
    superToken = await apiSignIn(base(), SUPER, 'Aed@123456')
    const orgs = await api<Listed<{ id: number; name: string }>>(
      superToken,
      'GET',
      '/api/v1/agency/?page=1&page_size=100',
    )
    const org = orgs.resource.find((a) => a.name === INTEGRATOR_ORG)
    if (!org) throw new Error(`no ${INTEGRATOR_ORG}`)
    const config = await api<{ access_token: string; secret: string }>(
      superToken,
      'POST',
      '/api/v1/agency/app-service/config',
      { agency_id: org.id, service: ['open_api', 'mini_program'], state: 1 },
    )
    creds = { key: config.access_token, secret: config.secret }
    const devices = await api<Listed<{ id: number; device_sn: string }>>(
      superToken,
      'GET',
      `/api/v1/device/?page=1&page_size=10&device_sn=${WFJ_AED}`,
    )
    const found = devices.resource.find((d) => d.device_sn === WFJ_AED)
    if (!found) throw new Error(`no demo AED ${WFJ_AED}`)
    wfj = await api(superToken, 'GET', `/api/v1/device/${found.id}`)
  }, 240_000)

  afterAll(async () => {
    await server?.stop()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  let volunteerId = 0
  let aedId = 0

  it('takes a volunteer and an AED from the integrator client, each once', async () => {
    const v = await integrator<{ id: number; created: boolean }>(
      'volunteer',
      JSON.stringify(VOLUNTEER),
      '--image',
      photo('cert.png'),
    )
    expect([v.code, v.msg, v.data.created]).toEqual([0, '提交成功！', true])
    volunteerId = v.data.id
    const a = await integrator<{ id: number; created: boolean }>(
      'third-party-aed',
      JSON.stringify({
        brand: '飞利浦',
        location: wfj.location,
        location_desc: wfj.location_desc,
        lat: wfj.lat,
        lon: wfj.lon,
        ...AED_SUBMITTER,
      }),
      '--image',
      photo('site-1.png'),
      '--image',
      photo('site-2.png'),
    )
    expect([a.code, a.data.created]).toEqual([0, true])
    aedId = a.data.id
    // The mini-program sends the same volunteer again (a retry): the same one, nothing new.
    const listed = await api<Listed<Volunteer & { cert_img: string }>>(
      superToken,
      'GET',
      '/api/v1/backend_mgmt/aid-volunteer?audit_status=1',
    )
    const mine = listed.resource.find((r) => r.id === volunteerId)
    if (!mine) throw new Error('the volunteer is not in review')
    const again = await integrator<{ id: number; created: boolean }>(
      'post',
      '/open-api/v1/volunteer/',
      JSON.stringify({ ...VOLUNTEER, cert_img: mine.cert_img }),
    )
    expect([again.code, again.data.id, again.data.created]).toEqual([0, volunteerId, false])
    // Bad input: a clear message, nothing written.
    const bad = await integrator(
      'post',
      '/open-api/v1/third-party-aed/',
      JSON.stringify({
        brand: '某牌',
        location: '巴黎',
        lat: 48.85,
        lon: 2.35,
        install_imgs: [],
        ...AED_SUBMITTER,
      }),
    )
    expect([bad.code, bad.msg]).toEqual([1, '请选择型号'])
  }, 120_000)

  it('is reviewed by the system organisation: the duplicate compared side by side, both approved', async () => {
    const page = await signedIn(b, SUPER, '/backendManagement/volunteer')
    // The menu group the system organisation's members have.
    await page.getByText('公众审核', { exact: true }).first().waitFor()
    await page.getByTestId('volunteers-page').waitFor()
    await page.getByText(VOLUNTEER.submitter_name).first().waitFor()
    await screenshot(page, 'review-01-volunteers-in-review')
    await page.getByTestId(`review-pass-${volunteerId}`).click()
    await page.locator('.ant-modal-confirm .ant-btn-primary').click()
    await toast(page, '审核通过！')

    await page.goto('/backendManagement/thirdPartyAed')
    await page.getByTestId('third-party-aeds-page').waitFor()
    const flag = page.getByTestId(`review-duplicates-${aedId}`)
    await flag.waitFor()
    await screenshot(page, 'review-02-third-party-flagged')
    const listed = await api<Listed<ThirdParty>>(
      superToken,
      'GET',
      '/api/v1/backend_mgmt/third-party/aed?audit_status=1',
    )
    const row = listed.resource.find((r) => r.id === aedId)
    expect(row?.duplicates).toEqual([
      expect.objectContaining({ kind: 'device', sn: WFJ_AED, reason: 'place' }),
    ])
    // 通过 on a flagged row opens the comparison; the reviewer passes from there.
    await page.getByTestId(`review-pass-${aedId}`).click()
    const compare = page.getByTestId('review-compare-modal')
    await compare.waitFor()
    await compare.getByTestId(`review-match-device-${wfj.id}`).waitFor()
    await compare.getByText(WFJ_AED).first().waitFor()
    await page.waitForTimeout(1500)
    await screenshot(page, 'review-03-duplicate-side-by-side')
    await compare.getByTestId('review-compare-pass').click()
    await toast(page, '审核通过！')
  }, 120_000)

  it('turns both switches on in 后台配置 and exports both approved lists', async () => {
    const page = await signedIn(b, SUPER, '/backendManagement/sysConfig')
    const form = page.getByTestId('sys-config-page')
    await form.waitFor()
    for (const name of ['call_event_notify_aid_volunteer', 'xcx_display_third_party_aed'])
      await page.getByTestId(`sys-config-${name}`).getByText('是').click()
    await page.getByTestId('sys-config-save').click()
    await toast(page, '保存成功')
    await screenshot(page, 'review-04-sys-config')

    await page.goto('/backendManagement/volunteer?audit_status=2')
    await page.getByTestId('volunteers-page').waitFor()
    await page.getByText(VOLUNTEER.submitter_name).first().waitFor()
    const volunteers = await sheetOf(page, () => page.getByTestId('review-export').click())
    expect(volunteers.name).toBe('公共志愿者.xlsx')
    expect(
      volunteers.rows.some((r) => r[0] === VOLUNTEER.submitter_name && String(r[2]).includes('****')),
    ).toBe(true)

    await page.goto('/backendManagement/thirdPartyAed?audit_status=2')
    await page.getByTestId('third-party-aeds-page').waitFor()
    await page.getByText(wfj.location).first().waitFor()
    await screenshot(page, 'review-05-third-party-approved')
    const aeds = await sheetOf(page, () => page.getByTestId('review-export').click())
    expect(aeds.name).toBe('公共AED列表.xlsx')
    expect(aeds.rows.some((r) => r[0] === '飞利浦' && r[1] === wfj.location)).toBe(true)
  }, 120_000)

  it('alerts the volunteer on a call near them and lists the AED in the nearby answer', async () => {
    // The submitters heard the outcome.
    expect((await smsTo(VOLUNTEER.submitter_phone)).map((s) => s.content).join()).toContain('已通过审核')
    expect((await smsTo(AED_SUBMITTER.submitter_phone)).map((s) => s.content).join()).toContain('已通过审核')

    const call = await api<{ id: number }>(superToken, 'POST', '/api/v1/aid-event/call-event/', {
      phone: '13661230027',
      lat: GUARD.lat + 0.0004,
      lon: GUARD.lon,
      location: '无锡市梁溪区崇安寺步行街 北口',
    })
    let link = ''
    for (let i = 0; i < 60 && !link; i++) {
      const sms = await smsTo(VOLUNTEER.submitter_phone)
      link = /\/rescue\/[A-Za-z0-9_-]{43}/.exec(sms.map((s) => s.content).join('\n'))?.[0] ?? ''
      if (!link) await new Promise((r) => setTimeout(r, 500))
    }
    expect(link).not.toBe('')
    const phone = await b.open(link)
    await phone.setViewportSize({ width: 390, height: 844 })
    await phone.getByText('直接去现场').first().waitFor()
    await screenshot(phone, 'review-06-volunteer-alerted')
    await callApi(base(), 'PUT', `/api/v1/aid-event/call-event/${call.id}`, {
      token: superToken,
      body: { outcome: 'cancelled', remark: 'e2e' },
    })

    const nearby = await integrator<{
      resource: { third_party: boolean; id?: number; readiness: string; sn?: string }[]
    }>('nearby', String(wfj.lat), String(wfj.lon), '--radius', '300')
    expect(nearby.code).toBe(0)
    // The public AED, whoever's integrator asks; the demo AED beside it is the system
    // organisation's, outside this integrator's scope.
    expect(nearby.data.resource).toEqual([
      expect.objectContaining({ third_party: true, id: aedId, readiness: 'unknown', brand: '飞利浦' }),
    ])
  }, 120_000)
})
