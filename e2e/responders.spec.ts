import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialogOk, filterTable, inputOf } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { png } from './support/png.ts'
import { decodePng, near, pixelAt, rgbOf } from './support/png-read.ts'
import { apiSignIn, callApi, type E2eServer, escalateLate, startServer } from './support/server.ts'
import { DEMO_PASSWORD, signedIn, signIn } from './support/session.ts'

// Issue 24's journey on a server of its own: it moves that server's clock (DEV_CLOCK) to see a
// certificate expire, which the shared server (other journeys, the real clock) must never see.
let server: E2eServer | undefined
beforeAll(async () => {
  server = await startServer({ DEV_CLOCK: '1' })
  await escalateLate(server.baseURL)
}, 150_000)
afterAll(async () => {
  await server?.stop()
})
const base = () => {
  if (!server) throw new Error('the journey’s server is not running')
  return server.baseURL
}
const b = useBrowser({ server: base })

const ORG = '杭州市西湖区急救中心'
/** The new user, an administrator of the organisation with the whole responder area. */
const USER = { phone: '13966660024', name: '林晓', password: 'Xihu2026ok' }
/** A console user of the same organisation, registered as a responder from the dialog. */
const CONSOLE_USER = { phone: '13800000021', name: '西湖急救中心管理员' }
const READ_ONLY = '13800000002'
const CERT = 'ZJ-HZ-2026-0021'
/** Where the responder lives (GCJ-02): by the West Lake, in Xihu district. */
const HOME = { lat: 30.2595, lon: 120.1418 }
const TEMPLATE = [
  '姓名',
  '电话',
  '性别',
  '出生日期',
  '邮箱',
  '常驻地址',
  '具体位置',
  '经度',
  '纬度',
  '区域编码',
  '急救资质',
  '证书编号',
  '证书有效期',
  '绑定机构设备',
] as const
/** A sheet row from the cells it fills, in the template's column order. */
const line = (cells: Partial<Record<(typeof TEMPLATE)[number], string>>) =>
  TEMPLATE.map((h) => cells[h] ?? '')
const IMPORTED = [
  line({
    姓名: '孙晓岚',
    电话: '13957100001',
    性别: '女',
    出生日期: '1991-07-15',
    常驻地址: '浙江省杭州市西湖区文二路88号',
    具体位置: '3幢',
    经度: '120.1400',
    纬度: '30.2790',
    区域编码: '330106',
    急救资质: '专业',
    证书编号: 'ZJ-IMP-0001',
    证书有效期: '2028-12-31',
    绑定机构设备: '是',
  }),
  line({
    姓名: '周启航',
    电话: '13957100002',
    性别: '男',
    出生日期: '1988-02-03',
    常驻地址: '浙江省杭州市西湖区古墩路20号',
    经度: '120.1020',
    纬度: '30.2900',
    区域编码: '330106',
    急救资质: '非专业',
    绑定机构设备: '否',
  }),
]
const BAD_NAME = '吴未知'
/** Refused: 性别 must be 男 or 女. */
const BAD_ROW = line({
  姓名: BAD_NAME,
  电话: '13957100003',
  性别: '未知',
  出生日期: '1990-01-01',
  常驻地址: '浙江省杭州市西湖区天目山路5号',
  经度: '120.1300',
  纬度: '30.2750',
  区域编码: '330106',
  急救资质: '非专业',
})
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const DAY = 86_400_000
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-responders-'))

/** YYYY-MM-DD in China, `days` from now on the real clock (the browser's; the server's until it is moved). */
const chinaDate = (days: number) =>
  new Date(Date.now() + 8 * 3600_000 + days * DAY).toISOString().slice(0, 10)

/** A certificate photo as a real PNG (the upload checks the content). */
const certificate = () => ({
  name: 'certificate.png',
  mimeType: 'image/png',
  buffer: png(64, 40, (x, y) => (x < 4 || y < 4 || x > 59 || y > 35 ? [180, 30, 40] : [250, 245, 235])),
})

async function sheet(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const s = book.addWorksheet('急救人员导入')
  s.addRow(TEMPLATE)
  for (const r of rows) s.addRow(r)
  return Buffer.from(await book.xlsx.writeBuffer())
}

async function readBook(file: string) {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(file)
  const s = book.worksheets[0]
  const rows: string[][] = []
  s.eachRow((row) => {
    // Array.from: an empty cell is a hole in ExcelJS's values, which map() would skip.
    rows.push(
      Array.from(row.values as unknown[], (v) => (v === null || v === undefined ? '' : String(v))).slice(1),
    )
  })
  return rows
}

type Listed = {
  id: number
  name: string
  certificate_status: number | null
  dispatch_state: string
  lat: number | null
  lon: number | null
}

/** The register as a member sees it through the API (a name filter, or everything). */
async function listed(token: string, name?: string) {
  const query = `page=1&page_size=500${name ? `&name=${encodeURIComponent(name)}` : ''}`
  const r = await callApi<{ count: number; resource: Listed[] }>(base(), 'GET', `/api/v1/aid-man/?${query}`, {
    token,
  })
  if (r.code !== 0) throw new Error(`list: ${r.code} ${r.msg}`)
  return r.data
}

/** Types a date into an antd DatePicker and confirms it. */
async function typeDate(page: Page, testId: string, date: string) {
  const input = inputOf(page, testId)
  await input.click()
  await input.fill(date)
  await input.press('Enter')
  await expect.poll(() => input.inputValue()).toBe(date)
}

/** Picks the option whose text is exactly `text` (专业 is also inside 非专业). */
async function pickExact(page: Page, testId: string, text: string) {
  const select = page.getByTestId(testId)
  for (let attempt = 0; attempt < 3; attempt++) {
    await select.click()
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${text}$`) })
    await option.waitFor()
    await page.waitForTimeout(200)
    await option.click()
    try {
      await page.waitForFunction(
        ([id, t]) =>
          document.querySelector(`[data-testid="${id}"]`)?.closest('.ant-select')?.textContent?.trim() === t,
        [testId, text] as const,
        { timeout: 2000 },
      )
      return
    } catch {
      await page.keyboard.press('Escape')
    }
  }
  throw new Error(`could not pick ${text} in ${testId}`)
}

/** The toasts as they are, so a refusal names itself. */
const toasts = (page: Page) => page.locator('.ant-message-notice').allInnerTexts()
async function toast(page: Page, text: string) {
  await expect.poll(() => toasts(page), { timeout: 15_000 }).toContainEqual(expect.stringContaining(text))
}

/** The list's row of a responder. */
const rowOf = (page: Page, id: number): Locator => page.locator(`.ant-table-row[data-row-key="${id}"]`)

/** What a console built with VITE_TEST_HOOKS=1 puts on window: the dashboard's map and what it drew. */
type DashboardHooks = {
  __aedDashboardMap?: {
    project(p: [number, number]): { x: number; y: number }
    jumpTo(o: { center: [number, number]; zoom: number }): void
    once(type: string, f: () => void): void
    triggerRepaint(): void
  }
  /** What is drawn under a pixel of the map, the topmost first. */
  __aedDashboardHits?: (x: number, y: number) => { kind: string; id: number }[]
}
const NO_HOOKS = 'the dashboard map is not exposed (a build with VITE_TEST_HOOKS=1)'

/** The map's screen position (pixels from its top left corner) of a GCJ-02 point. */
function mapProject(page: Page, lon: number, lat: number) {
  return page.evaluate(
    ([x, y, missing]) => {
      const map = (window as DashboardHooks).__aedDashboardMap
      if (!map) throw new Error(missing)
      return map.project([x, y])
    },
    [lon, lat, NO_HOOKS] as const,
  )
}

/**
 * 急救人员管理 → 急救人员列表 in the top menu, whose submenu opens in a popup of its own outside
 * the menu bar; a click during the popup's opening animation can miss, so it is tried again.
 */
async function openFromMenu(page: Page) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByTestId('nav-menu').getByText('急救人员管理').hover()
    const entry = page.getByTestId('menu-aidManManagement-aidMan')
    await entry.waitFor()
    await page.waitForTimeout(300)
    await entry.click()
    try {
      await page.waitForURL(/\/aidManManagement\/aidMan/, { timeout: 3000 })
      return
    } catch {
      await page.mouse.move(0, 500)
    }
  }
  throw new Error('急救人员列表 could not be opened from the menu')
}

/** Resolves once the dashboard's map has stopped moving and drawn (its next idle). */
function mapIdle(page: Page) {
  return page.evaluate(
    (missing) =>
      new Promise<void>((resolve, reject) => {
        const map = (window as DashboardHooks).__aedDashboardMap
        if (!map) return reject(new Error(missing))
        map.once('idle', () => resolve())
        map.triggerRepaint()
      }),
    NO_HOOKS,
  )
}

describe('first-aid responders journey', () => {
  let user: Page
  let token = ''
  let superToken = ''
  let id = 0
  const expiry = chinaDate(1)

  it('a new user signs in and opens 急救人员列表', async () => {
    superToken = await apiSignIn(base(), '13800000000', DEMO_PASSWORD)
    const orgs = await callApi<{ resource: { id: number; name: string }[] }>(
      base(),
      'GET',
      '/api/v1/agency/?page=1&page_size=100',
      { token: superToken },
    )
    const org = orgs.data.resource.find((a) => a.name === ORG)
    if (!org) throw new Error(`no ${ORG}`)
    const made = await callApi(base(), 'POST', '/api/v1/member', {
      token: superToken,
      body: {
        account: {
          name: USER.name,
          phone: USER.phone,
          email: 'linxiao@aed.example.cn',
          nationality: 'CN',
          location: '浙江省杭州市西湖区文三路90号',
          lat: 30.2795,
          lon: 120.1352,
          password: USER.password,
        },
        agency_id: org.id,
        role_type: 1,
        permissions: { aid_man: 'ALL', analysis_board: 'READ_ONLY', device: 'READ_ONLY' },
      },
    })
    expect(made.code, made.msg).toBe(0)

    user = await b.open('/user/login')
    await signIn(user, USER.phone, USER.password)
    // An administrator-set password is due for change at the first sign-in: the prompt is ignored.
    const ignore = user.getByTestId('expiry-ignore')
    await ignore.click({ timeout: 15_000 })
    await ignore.waitFor({ state: 'hidden' })
    await user.waitForURL(/\/watchBoard\/dashboard/)
    token = await user.evaluate(() => JSON.parse(localStorage.getItem('aed__token') ?? '{}').value as string)

    await openFromMenu(user)
    await user.getByTestId('responders-page').waitFor()
    await user.locator('.ant-table-row').first().waitFor()
    // Only the organisation's people, and every tool of the area (ALL: delete too).
    const rows = await user.locator('.ant-table-row').allInnerTexts()
    expect(rows.every((r) => r.includes(ORG))).toBe(true)
    for (const tool of ['responder-add', 'responder-import-button', 'responder-export'])
      expect(await user.getByTestId(tool).count(), tool).toBe(1)
    expect(await user.locator('[data-testid^="responder-delete-"]').count()).toBeGreaterThan(0)
    await screenshot(user, 'responders-01-list')
  })

  it('registers a professional from a console user’s phone: the lookup prefills, the detail and the map show', async () => {
    expect((await listed(token, CONSOLE_USER.name)).count).toBe(0)
    await user.getByTestId('responder-add').click()
    const modal = user.getByTestId('responder-modal')
    await inputOf(user, 'responder-phone').waitFor()
    expect(await inputOf(user, 'responder-agency').inputValue()).toBe(ORG)
    expect(await inputOf(user, 'responder-by').inputValue()).toBe(USER.name)
    await inputOf(user, 'responder-phone').fill(CONSOLE_USER.phone)
    await user.getByText('该手机号已注册，已自动填入个人信息').waitFor()
    await expect.poll(() => inputOf(user, 'responder-name').inputValue()).toBe(CONSOLE_USER.name)
    expect(await inputOf(user, 'responder-email').inputValue()).toBe('hz@aed.example.cn')

    await user.getByTestId('responder-gender').getByText('男').click()
    await typeDate(user, 'responder-birth', '1986-04-12')
    const location = inputOf(user, 'responder-location')
    await location.fill('浙江省杭州市西湖区北山街道断桥')
    await location.press('Escape')
    await inputOf(user, 'responder-location-desc').fill('白堤值班点')
    await inputOf(user, 'responder-lat').fill(String(HOME.lat))
    await inputOf(user, 'responder-lon').fill(String(HOME.lon))
    await inputOf(user, 'responder-lon').press('Tab')
    await pickExact(user, 'responder-aptitude', '专业')
    await inputOf(user, 'responder-certificate-num').fill(CERT)
    await typeDate(user, 'responder-certificate-expire', expiry)
    await modal.locator('input[type=file]').setInputFiles(certificate())
    await modal.locator('.image-upload-preview img').waitFor()
    await user.getByTestId('responder-status').getByText('是').click()
    await screenshot(user, 'responders-02-register')
    await dialogOk(user).click()
    await toast(user, '添加成功！')
    await modal.waitFor({ state: 'hidden' })

    const found = (await listed(token, CONSOLE_USER.name)).resource
    expect(found).toHaveLength(1)
    id = found[0].id
    expect(found[0]).toMatchObject({
      certificate_status: 1,
      dispatch_state: 'ready',
      lat: HOME.lat,
      lon: HOME.lon,
    })

    await filterTable(user, 'filter-name', CONSOLE_USER.name)
    const row = rowOf(user, id)
    const text = await row.innerText()
    expect(text).toContain('138****0021')
    expect(text).toContain(CERT)
    expect(text).toContain('有效')
    expect(text).toContain('可派单')
    await row.click()
    const detail = user.getByTestId('responder-detail')
    await expect.poll(() => detail.innerText()).toContain(CONSOLE_USER.phone)
    expect(await detail.innerText()).toContain(CERT)
    const history = user.getByTestId('responder-history')
    await expect.poll(() => history.innerText()).toContain('登记')
    expect(await history.innerText()).toContain(USER.name)
    // The map under the detail, drawn (MapLibre's canvas) with the responder's pin.
    await user.getByTestId('responder-map').locator('canvas').first().waitFor()
    await user.getByTestId('responder-map').locator('.maplibregl-marker').first().waitFor()
    await screenshot(user, 'responders-03-detail-and-map')
  })

  it('exports the register as a real .xlsx', async () => {
    await inputOf(user, 'filter-name').fill('')
    await user.getByTestId('filter-search').click()
    await expect.poll(() => user.locator('.ant-table-row').count()).toBeGreaterThan(1)
    const [download] = await Promise.all([
      user.waitForEvent('download'),
      user.getByTestId('responder-export').click(),
    ])
    expect(download.suggestedFilename()).toBe('急救人员列表.xlsx')
    const file = path.join(tmp, 'export.xlsx')
    await download.saveAs(file)
    const [head, ...body] = await readBook(file)
    expect(head.slice(0, 5)).toEqual(['姓名', '性别', '年龄', '出生日期', '电话'])
    const all = await listed(token)
    expect(body).toHaveLength(all.count)
    const col = (name: string) => head.indexOf(name)
    const mine = body.find((r) => r[col('姓名')] === CONSOLE_USER.name)
    if (!mine) throw new Error('the registered responder is not in the export')
    expect(mine[col('电话')]).toBe('138****0021')
    expect(mine[col('急救资质')]).toBe('专业')
    expect(mine[col('证书编号')]).toBe(CERT)
    expect(mine[col('证书有效期')]).toBe(expiry)
    expect(mine[col('证书状态')]).toBe('有效')
    expect(mine[col('派单状态')]).toBe('可派单')
    expect(body.every((r) => r[col('所在机构')] === ORG)).toBe(true)
  })

  it('imports a sheet with a bad row: refused whole, 导入失败文件.xlsx says why; the fixed sheet imports', async () => {
    await user.getByTestId('responder-import-button').click()
    const popover = user.getByTestId('responder-import')
    await popover.waitFor()
    await screenshot(user, 'responders-04-import-popover')
    const upload = popover.locator('input[type=file]')
    const [download] = await Promise.all([
      user.waitForEvent('download'),
      upload.setInputFiles({
        name: 'responders.xlsx',
        mimeType: XLSX,
        buffer: await sheet([...IMPORTED, BAD_ROW]),
      }),
    ])
    await toast(user, '导入失败')
    expect(download.suggestedFilename()).toBe('导入失败文件.xlsx')
    const failed = path.join(tmp, 'failed.xlsx')
    await download.saveAs(failed)
    const [head, ...rows] = await readBook(failed)
    expect(head).toEqual([...TEMPLATE, '失败原因'])
    const reasons = new Map(rows.map((r) => [r[0], r[TEMPLATE.length] ?? '']))
    expect(reasons.get(BAD_NAME)).toContain('性别须为男或女')
    for (const [name] of IMPORTED) expect(reasons.get(name)).toBe('')
    // Nothing went in, the good rows neither.
    for (const name of [...IMPORTED.map((r) => r[0]), BAD_NAME])
      expect((await listed(token, name)).count).toBe(0)

    if (!(await popover.isVisible())) await user.getByTestId('responder-import-button').click()
    await upload.setInputFiles({
      name: 'responders-fixed.xlsx',
      mimeType: XLSX,
      buffer: await sheet(IMPORTED),
    })
    await toast(user, '导入成功！')
    for (const [name] of IMPORTED) expect((await listed(token, name)).count).toBe(1)
    expect((await listed(token, BAD_NAME)).count).toBe(0)
    await filterTable(user, 'filter-name', IMPORTED[0][0])
    const row = user.locator('.ant-table-row', { hasText: IMPORTED[0][0] })
    expect(await row.innerText()).toContain('ZJ-IMP-0001')
    await row.click()
    await expect.poll(() => user.getByTestId('responder-history').innerText()).toContain('导入')
    await screenshot(user, 'responders-05-imported')
  })

  it('the certificate expires by the clock (证书过期 in the list and the history), and 续期 brings it back', async () => {
    // The day after the expiry, 10:00 in China: past the daily certificate check's hour.
    const dayAfter = new Date(Date.parse(`${expiry}T00:00:00Z`) + DAY).toISOString().slice(0, 10)
    const target = Date.parse(`${dayAfter}T02:00:00Z`)
    const moved = await callApi<{ now: string; jobs: Record<string, string> }>(
      base(),
      'POST',
      '/api/v1/dev/clock',
      {
        token: superToken,
        body: { advance_ms: target - Date.now() },
      },
    )
    expect(moved.code, moved.msg).toBe(0)
    expect(moved.data.jobs['responder-certificates']).toBe('ran')
    expect(Math.abs(Date.parse(moved.data.now) - target)).toBeLessThan(60_000)

    // The daily check wrote the expiry into the history, once, as the system.
    const changes = await callApi<{ resource: { kind: string; operator: string | null }[] }>(
      base(),
      'GET',
      `/api/v1/aid-man/${id}/changes/?page=1&page_size=20`,
      { token },
    )
    expect(changes.data.resource.filter((c) => c.kind === 'expired')).toEqual([
      expect.objectContaining({ operator: null }),
    ])

    await filterTable(user, 'filter-name', CONSOLE_USER.name)
    const row = rowOf(user, id)
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('已过期')
    expect(await user.getByTestId(`dispatch-${id}`).innerText()).toBe('证书过期')
    await row.click()
    const history = user.getByTestId('responder-history')
    await expect.poll(() => history.innerText(), { timeout: 10_000 }).toContain('证书过期')
    // Written by the daily check: the system, not a person.
    const expired = history.locator('.ant-timeline-item', { hasText: '证书过期' }).first()
    expect(await expired.innerText()).toContain('系统')
    expect(await user.getByTestId('responder-reason').innerText()).toContain(`证书已于${expiry}过期`)
    await screenshot(user, 'responders-06-expired')

    await user.getByTestId(`responder-renew-${id}`).click()
    const renew = user.getByTestId('responder-renew-modal')
    await inputOf(user, 'responder-renew-expire').waitFor()
    const renewed = chinaDate(366)
    await typeDate(user, 'responder-renew-expire', renewed)
    await renew.locator('input[type=file]').setInputFiles(certificate())
    await renew.locator('.image-upload-preview img').waitFor()
    await screenshot(user, 'responders-07-renew')
    await dialogOk(user).click()
    await toast(user, '修改成功！')
    await renew.waitFor({ state: 'hidden' })
    await expect.poll(() => user.getByTestId(`dispatch-${id}`).innerText()).toBe('可派单')
    const text = await row.innerText()
    expect(text).toContain(renewed)
    expect(text).toContain('有效')
    await expect.poll(() => history.innerText()).toContain('证书续期')
    expect((await listed(token, CONSOLE_USER.name)).resource[0]).toMatchObject({
      certificate_status: 1,
      dispatch_state: 'ready',
    })
    await screenshot(user, 'responders-08-renewed')
  })

  it('shows the responders on the dashboard: layer 5 in the legend, its markers', async () => {
    await user.goto('/watchBoard/dashboard')
    await user.getByTestId('dashboard-page').waitFor()
    const legend = user.getByTestId('legend-responder')
    await legend.waitFor()
    expect(await legend.isChecked()).toBe(true)
    expect(await legend.locator('xpath=ancestor::label[1]').innerText()).toContain('急救人员')
    // The devices drawn and the map at rest (it has flown to the member's region) before moving it.
    const canvas = user.getByTestId('dashboard-map-canvas')
    await expect.poll(() => canvas.getAttribute('data-drawn'), { timeout: 20_000 }).not.toBeNull()
    await mapIdle(user)
    await user.evaluate(
      ([lon, lat]) => {
        ;(window as DashboardHooks).__aedDashboardMap?.jumpTo({ center: [lon, lat], zoom: 16 })
      },
      [HOME.lon, HOME.lat] as const,
    )
    await mapIdle(user)
    // What is drawn at the responder's place: their marker, on top.
    const hitsAtHome = async () => {
      const p = await mapProject(user, HOME.lon, HOME.lat)
      return user.evaluate(([x, y]) => (window as DashboardHooks).__aedDashboardHits?.(x, y) ?? [], [
        p.x,
        p.y,
      ] as const)
    }
    await expect.poll(hitsAtHome, { timeout: 15_000 }).toContainEqual({ kind: 'marker', id })
    const box = await user.getByTestId('dashboard-map-canvas').boundingBox()
    if (!box) throw new Error('the map is not on screen')
    const at = await mapProject(user, HOME.lon, HOME.lat)
    const x = Math.round(box.x + at.x)
    const y = Math.round(box.y + at.y)
    const shot = await user.screenshot({ clip: { x: x - 2, y: y - 2, width: 5, height: 5 } })
    const colour = pixelAt(decodePng(shot), 2, 2)
    expect(near(colour, rgbOf('#13a8a8')), `the marker is ${colour}, not the ready teal`).toBe(true)
    await user.mouse.click(x, y)
    const popup = user.getByTestId('dashboard-marker-popup')
    await expect.poll(() => popup.innerText()).toContain(CONSOLE_USER.name)
    expect(await popup.innerText()).toContain('可派单')
    await screenshot(user, 'responders-09-dashboard-layer')

    // Unticked, the layer is gone from the map.
    await legend.uncheck()
    await expect.poll(hitsAtHome).not.toContainEqual({ kind: 'marker', id })
    await legend.check()
  })

  it('a read-only member changes nothing, by the console or the API', async () => {
    const page = await signedIn(b, READ_ONLY, '/aidManManagement/aidMan')
    await page.getByTestId('responders-page').waitFor()
    await filterTable(page, 'filter-name', CONSOLE_USER.name)
    await rowOf(page, id).click()
    await expect.poll(() => page.getByTestId('responder-detail').innerText()).toContain(CONSOLE_USER.phone)
    expect(await page.getByTestId('responder-export').count()).toBe(1)
    for (const tool of ['responder-add', 'responder-import-button'])
      expect(await page.getByTestId(tool).count(), tool).toBe(0)
    for (const action of ['edit', 'pause', 'resume', 'renew', 'delete'])
      expect(await page.locator(`[data-testid^="responder-${action}-"]`).count(), action).toBe(0)
    await screenshot(page, 'responders-10-read-only')
    // The dialog's first submit check (暂无权限! for a read-only member) has no way in here: with
    // neither 登记 nor 编辑 the console opens no responder form to this member. Its writes are
    // refused by the server instead, each with code -2.

    const ro = await apiSignIn(base(), READ_ONLY, DEMO_PASSWORD)
    const detail = await callApi<Record<string, unknown> & { account: Record<string, unknown> }>(
      base(),
      'GET',
      `/api/v1/aid-man/${id}`,
      { token },
    )
    const form = {
      account: { ...detail.data.account, phone: CONSOLE_USER.phone },
      aid_aptitude: 1,
      certificate_num: CERT,
      certificate_expire: chinaDate(400),
      certificate_img: detail.data.certificate_img,
      agency_id: detail.data.agency_id,
      status: 1,
    }
    const imported = new FormData()
    imported.append(
      'import_file',
      new Blob([new Uint8Array(await sheet([BAD_ROW]))], { type: XLSX }),
      'r.xlsx',
    )
    const writes: [string, string, unknown][] = [
      ['POST', '/api/v1/aid-man/', { ...form, account: { ...form.account, phone: '13957100009' } }],
      ['PUT', `/api/v1/aid-man/${id}`, form],
      [
        'PUT',
        `/api/v1/aid-man/${id}/certificate/`,
        { certificate_expire: chinaDate(500), certificate_img: form.certificate_img },
      ],
      ['PUT', `/api/v1/aid-man/${id}/availability/`, { paused: true, reason: '休假' }],
      ['DELETE', `/api/v1/aid-man/${id}`, undefined],
      ['POST', '/api/v1/aid-man/import', imported],
    ]
    for (const [method, url, body] of writes) {
      const r = await callApi(base(), method, url, { token: ro, body })
      expect(r.code, `${method} ${url}: ${r.msg}`).toBe(-2)
    }
    // Nothing changed: the responder is there, valid and dispatchable.
    expect((await listed(token, CONSOLE_USER.name)).resource[0]).toMatchObject({
      id,
      certificate_status: 1,
      dispatch_state: 'ready',
    })
  })
})
