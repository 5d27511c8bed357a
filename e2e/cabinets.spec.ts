import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { dialogOk, filterTable, inputOf, pickTreeOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { cabinetLink, findCabinet } from './support/cabinet.ts'
import { consoleApi, consoleToken } from './support/device.ts'
import { signedIn } from './support/session.ts'

// The test browser lets pages play sound without a click, as a console left open on a duty desk would.
const b = useBrowser({ args: ['--autoplay-policy=no-user-gesture-required'] })
const ORG = '杭州市西湖区急救中心'
// Fresh numbers each run; the bad one breaks the 6-32 letters or digits rule.
const STAMP = Date.now().toString(36).toUpperCase()
const CAB1 = `CE${STAMP}01`
const CAB2 = `CE${STAMP}02`
const BAD = `CE-${STAMP}`
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-cabinets-'))

async function importFile(rows: [string, string][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('救护箱导入')
  sheet.addRow(['救护箱编号', '绑定AED'])
  for (const r of rows) sheet.addRow(r)
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** An installed AED of the organisation that sits in no cabinet. */
async function freeAed(token: string): Promise<string> {
  const [devices, cabinets] = await Promise.all([
    consoleApi<{ resource: { device_sn: string; agency_name: string }[] }>(
      b.baseURL(),
      token,
      '/api/v1/device/?page=1&page_size=500',
    ),
    consoleApi<{ resource: { device_sn: string | null }[] }>(
      b.baseURL(),
      token,
      '/api/v1/cabinet/?page=1&page_size=500',
    ),
  ])
  const taken = new Set(cabinets.resource.map((c) => c.device_sn))
  const free = devices.resource.filter((d) => d.agency_name === ORG && !taken.has(d.device_sn))
  const sn = free.at(-3)?.device_sn
  if (!sn) throw new Error(`no free AED in ${ORG}`)
  return sn
}

describe('cabinet journey', () => {
  let page: Page
  let aed = ''

  it('imports cabinets: a refused row comes back in the failure file, the fixed file goes in', async () => {
    page = await signedIn(b, '13800000000', '/deviceManagement/cabinet')
    await page.getByTestId('cabinets-page').waitFor()
    await page.locator('.ant-table-row').first().waitFor()
    await screenshot(page, 'cabinets-01-list')

    await page.getByTestId('cabinet-import-button').click()
    await page.getByTestId('cabinet-import').waitFor()
    await pickTreeOption(page, 'cabinet-import-agency', ORG)
    await screenshot(page, 'cabinets-02-import-popover')
    const upload = page.locator('[data-testid="cabinet-import"] input[type=file]')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      upload.setInputFiles({
        name: 'cabinets.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await importFile([
          [CAB1, ''],
          [CAB2, ''],
          [BAD, ''],
        ]),
      }),
    ])
    await page.getByText('导入失败').first().waitFor()
    expect(download.suggestedFilename()).toBe('导入失败文件.xlsx')
    const failed = path.join(tmp, 'failed.xlsx')
    await download.saveAs(failed)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(failed)
    const sheet = book.worksheets[0]
    expect(sheet.getRow(1).values).toEqual([undefined, '救护箱编号', '绑定AED', '失败原因'])
    const reasons = new Map<string, string>()
    sheet.eachRow((row, n) => {
      if (n > 1) reasons.set(String(row.getCell(1).value), String(row.getCell(3).value ?? ''))
    })
    expect(reasons.get(BAD)).toContain('救护箱编号格式不正确')
    expect(reasons.get(CAB1)).toBe('')

    if (!(await page.getByTestId('cabinet-import').isVisible()))
      await page.getByTestId('cabinet-import-button').click()
    await upload.setInputFiles({
      name: 'cabinets-fixed.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await importFile([
        [CAB1, ''],
        [CAB2, ''],
      ]),
    })
    await page.getByText('导入成功！').first().waitFor()
    await filterTable(page, 'filter-cabinet_sn', STAMP)
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(2)
    const rows = (await page.locator('.ant-table-row').allInnerTexts()).join('\n')
    expect(rows).toContain(ORG)
    expect(rows).not.toContain(BAD)
    await screenshot(page, 'cabinets-03-imported')
  })

  it('binds an AED of the organisation, the model shown from the serial as it is typed', async () => {
    aed = await freeAed(await consoleToken(page))
    await page.getByTestId(`cabinet-bind-${CAB1}`).click()
    await inputOf(page, 'bind-sn').waitFor()
    await inputOf(page, 'bind-sn').fill(aed)
    await expect.poll(() => inputOf(page, 'bind-model').inputValue()).not.toBe('')
    await screenshot(page, 'cabinets-04-bind')
    await dialogOk(page).click()
    await page.getByText('绑定成功！').first().waitFor()
    await page.getByTestId('bind-modal').waitFor({ state: 'hidden' })
    await page.locator('.ant-table-row', { hasText: CAB1 }).getByText(aed).waitFor()
  })

  it('the door opens: an orange alarm and a message with confirm for the organisation, nothing for a sibling', async () => {
    const member = await signedIn(b, '13800000021')
    const sibling = await signedIn(b, '13800000022')
    for (const p of [member, sibling])
      await p.locator('[data-testid="message-bell"][data-live="1"]').waitFor()
    const token = await consoleToken(page)
    const listed = await findCabinet(b.baseURL(), token, CAB1)
    const cabinet = await cabinetLink(b.baseURL(), token, listed.id, CAB1)
    await cabinet.hello()
    await cabinet.status(0, true)
    await cabinet.open()

    const popup = member.getByTestId('alarm-popup')
    await popup.waitFor({ timeout: 20_000 })
    expect(await popup.getAttribute('data-colour')).toBe('orange')
    const card = member.locator('[data-testid^="alarm-"][data-type="4"]', { hasText: CAB1 }).first()
    await card.waitFor()
    expect(await card.innerText()).toContain('开门')
    await screenshot(member, 'cabinets-05-door-alarm-orange')

    // The message centre holds it with its 'confirm' button (once the popup is closed).
    for (const close of await member.locator('[data-testid^="alarm-close-"]').all()) await close.click()
    await popup.waitFor({ state: 'detached' })
    await member.getByTestId('message-bell').click()
    const message = member.locator('[data-testid^="message-"][data-confirmed]', { hasText: CAB1 }).first()
    await message.waitFor({ timeout: 15_000 })
    const action = message.locator('[data-testid^="message-action-"]')
    expect(await action.getAttribute('data-action')).toBe('confirm')
    expect(await action.innerText()).toMatch(/确\s?认/)
    await screenshot(member, 'cabinets-06-door-message-confirm')

    // The sibling organisation hears nothing of it: no alarm, no message.
    expect(await sibling.locator('[data-testid^="alarm-"]', { hasText: CAB1 }).count()).toBe(0)
    for (const close of await sibling.locator('[data-testid^="alarm-close-"]').all()) await close.click()
    await sibling.getByTestId('message-bell').click()
    await sibling.waitForTimeout(1500)
    expect(
      await sibling.locator('[data-testid^="message-"][data-confirmed]', { hasText: CAB1 }).count(),
    ).toBe(0)
    expect(await sibling.locator('[data-testid^="alarm-"]', { hasText: CAB1 }).count()).toBe(0)
    await screenshot(sibling, 'cabinets-07-sibling-quiet')

    // The list shows the door open, as a switch that is no control.
    await page.reload()
    await filterTable(page, 'filter-cabinet_sn', STAMP)
    const door = page.getByTestId(`door-${CAB1}`)
    await expect.poll(() => door.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true')
    await door.click({ force: true })
    expect(await door.getAttribute('aria-checked')).toBe('true')
    await screenshot(page, 'cabinets-08-door-open-in-list')

    await action.click()
    await expect.poll(() => message.getAttribute('data-confirmed'), { timeout: 10_000 }).toBe('1')
    await cabinet.close()
    await cabinet.status(0, true)
    await page.reload()
    await filterTable(page, 'filter-cabinet_sn', STAMP)
    await expect.poll(() => door.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false')
  })

  it('shows the self-checks and the bind history', async () => {
    await page.getByTestId(`cabinet-records-${CAB1}`).click()
    const drawer = page.getByTestId('cabinet-records')
    await drawer.locator('.ant-table-row').first().waitFor()
    await screenshot(page, 'cabinets-09-self-checks')
    await drawer.locator('.ant-drawer-close').click()
    await drawer.waitFor({ state: 'hidden' })

    await page.getByTestId(`cabinet-binds-${CAB1}`).click()
    const history = page.getByTestId('cabinet-binds')
    await history.locator('.ant-table-row', { hasText: aed }).waitFor()
    await screenshot(page, 'cabinets-10-bind-history')
    await history.locator('.ant-modal-close').click()
    await history.waitFor({ state: 'hidden' })
  })

  it('unbinds the AED, then deletes both cabinets', async () => {
    await page.getByTestId(`cabinet-bind-${CAB1}`).click()
    await page.getByTestId('bind-modal').getByText(aed).first().waitFor()
    await dialogOk(page).click()
    await page.getByText('解绑成功！').first().waitFor()
    await page.getByTestId('bind-modal').waitFor({ state: 'hidden' })
    await expect
      .poll(async () => (await page.locator('.ant-table-row', { hasText: CAB1 }).innerText()).includes(aed))
      .toBe(false)

    for (const sn of [CAB1, CAB2])
      await page.locator('.ant-table-row', { hasText: sn }).locator('.ant-checkbox-input').check()
    await page.getByTestId('cabinet-delete').click()
    await page.locator('.ant-modal-confirm', { hasText: '2' }).waitFor()
    await screenshot(page, 'cabinets-11-delete-confirm')
    await page.getByTestId('cabinet-delete-ok').click()
    // The toasts as they are, so a refusal names itself.
    await expect
      .poll(() => page.locator('.ant-message-notice').allInnerTexts(), { timeout: 15_000 })
      .toContainEqual(expect.stringContaining('删除成功！'))
    await expect.poll(() => page.locator('.ant-table-row', { hasText: STAMP }).count()).toBe(0)
    await screenshot(page, 'cabinets-12-deleted')
  })
})
