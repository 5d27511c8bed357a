import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { dialogOk, filterTable, inputOf, pickTreeOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { png } from './support/png.ts'
import { openSignedIn } from './support/session.ts'

const b = useBrowser()
const ORG = '杭州市西湖区急救中心'
const IMPORT_ORG = '华东区域总代理'
// Fresh serials each run: characters 2-3 '64' make a D100, '65' a B100.
const STAMP = Date.now().toString(36).toUpperCase()
const SN1 = `A64${STAMP}01`
const SN2 = `A64${STAMP}02`
const BAD = `A65${STAMP}03`
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-devices-'))

/** A small solid PNG of the given colour, so the upload's content check sees a real image. */
const solidPng = (r: number, g: number, b: number) => png(48, 32, () => [r, g, b])

/** The import template's three columns with these rows. */
async function importFile(rows: [string, string, string][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('设备导入')
  sheet.addRow(['设备SN', '型号', '固件版本'])
  for (const r of rows) sheet.addRow(r)
  return Buffer.from(await book.xlsx.writeBuffer())
}

async function readBook(file: string) {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(file)
  return book.worksheets[0]
}

/** Types a date into an antd DatePicker and confirms it. */
async function typeDate(page: Page, testId: string, date: string) {
  const input = inputOf(page, testId)
  await input.click()
  await input.fill(date)
  await input.press('Enter')
  await expect.poll(() => input.inputValue()).toBe(date)
}

/** The device dialog: waits for it to be open with its form drawn. */
async function deviceDialog(page: Page) {
  const modal = page.getByTestId('device-modal')
  await inputOf(page, 'device-location').waitFor()
  return modal
}

/** Opens the change dialog of the one listed row (right after a save it must show the saved values). */
async function openChange(page: Page) {
  const row = page.locator('.ant-table-row').first()
  await row.waitFor()
  await row.locator('[data-testid^="device-change-"]').click()
  return deviceDialog(page)
}

/** Saves the device dialog and waits for it to close. */
async function saveDevice(page: Page, done: string) {
  await dialogOk(page).click()
  await page.getByText(done).first().waitFor()
  await page.getByTestId('device-modal').waitFor({ state: 'hidden' })
}

describe('device journeys', () => {
  let page: Page

  it('imports factory devices: a refused row comes back in the failure file, the fixed file goes in', async () => {
    page = await openSignedIn(b, '13800000000')
    await page.goto('/deviceManagement/factory')
    await page.getByTestId('factory-page').waitFor()
    await page.locator('.ant-table-row').first().waitFor()

    await page.getByTestId('factory-import-button').click()
    await page.getByTestId('factory-import').waitFor()
    await pickTreeOption(page, 'import-agency', IMPORT_ORG)
    await screenshot(page, 'devices-01-import-popover')
    const upload = page.locator('[data-testid="factory-import"] input[type=file]')
    const bad = await importFile([
      [SN1, 'D100', 'V1.2.3'],
      [SN2, '', 'V1.2.3'],
      [BAD, 'D100', 'V1.2.3'],
    ])
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      upload.setInputFiles({
        name: 'devices.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: bad,
      }),
    ])
    await page.getByText('导入失败').first().waitFor()
    expect(download.suggestedFilename()).toBe('导入失败文件.xlsx')
    const failed = path.join(tmp, 'failed.xlsx')
    await download.saveAs(failed)
    const sheet = await readBook(failed)
    expect(sheet.getRow(1).values).toEqual([undefined, '设备SN', '型号', '固件版本', '失败原因'])
    const byRow = new Map<string, string>()
    sheet.eachRow((row, n) => {
      if (n > 1) byRow.set(String(row.getCell(1).value), String(row.getCell(4).value ?? ''))
    })
    expect(byRow.get(BAD)).toContain('型号与设备SN不符')
    expect(byRow.get(BAD)).toContain('B100')
    expect(byRow.get(SN1)).toBe('')
    expect(byRow.get(SN2)).toBe('')
    await screenshot(page, 'devices-02-import-refused')

    // The fixed file: the refused row goes, the rest imports as it is.
    const fixed = await importFile([
      [SN1, 'D100', 'V1.2.3'],
      [SN2, '', 'V1.2.3'],
    ])
    // The popover stays open after a refusal; open it again if it closed.
    if (!(await page.getByTestId('factory-import').isVisible()))
      await page.getByTestId('factory-import-button').click()
    await upload.setInputFiles({
      name: 'devices-fixed.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: fixed,
    })
    await page.getByText('导入成功！').first().waitFor()
    await filterTable(page, 'filter-device_sn', STAMP)
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(2)
    const rows = (await page.locator('.ant-table-row').allInnerTexts()).join('\n')
    expect(rows).toContain(IMPORT_ORG)
    expect(rows).toContain('D100')
    expect(rows).not.toContain(BAD)
    await screenshot(page, 'devices-03-imported')
  })

  it('assigns the two new devices to an organisation', async () => {
    for (const sn of [SN1, SN2])
      await page.locator('.ant-table-row', { hasText: sn }).locator('.ant-checkbox-input').check()
    await page.getByTestId('factory-assign').click()
    await page.getByTestId('assign-modal').getByText('已选择 2 台设备').waitFor()
    await pickTreeOption(page, 'assign-agency', ORG)
    await screenshot(page, 'devices-04-assign')
    await dialogOk(page).click()
    await page.getByText('分配成功！').first().waitFor()
    await page.getByTestId('assign-modal').waitFor({ state: 'hidden' })
    // The list (filtered to this run's serials) holds the two, both in that organisation now.
    await expect
      .poll(async () => {
        const rows = await page.locator('.ant-table-row').allInnerTexts()
        return rows.length === 2 && rows.every((r) => r.includes(ORG))
      })
      .toBe(true)
    await screenshot(page, 'devices-05-assigned')
  })

  it('registers one with photos and a map pick, changes, moves and replaces it, then deletes its installation', async () => {
    await page.goto('/deviceManagement/device')
    await page.getByTestId('devices-page').waitFor()
    await page.locator('.ant-table-row').first().waitFor()

    // Register.
    await page.getByTestId('device-register').click()
    const modal = await deviceDialog(page)
    await inputOf(page, 'device-sn').fill(SN1)
    await expect.poll(() => inputOf(page, 'device-model').inputValue()).toBe('D100')
    await modal.locator('.ant-modal-title').click()
    await pickTreeOption(page, 'device-agency', ORG)
    await inputOf(page, 'device-contact').fill('王磊')
    await inputOf(page, 'device-contact-phone').fill('13712345678')
    const year = new Date().getUTCFullYear() + 2
    await typeDate(page, 'device-battery_expire', `${year}-06-30`)
    await typeDate(page, 'device-electrode_sheet_expire', `${year}-03-31`)
    await typeDate(page, 'device-host_expire', `${year + 3}-12-31`)
    await modal
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'near.png',
        mimeType: 'image/png',
        buffer: solidPng(200, 40, 40),
      })
    await modal.locator('.image-upload-preview').first().waitFor()
    await modal
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'far.png',
        mimeType: 'image/png',
        buffer: solidPng(40, 120, 200),
      })
    await expect.poll(() => modal.locator('.image-upload-preview').count()).toBe(2)

    // The map pick: a click on the map places the marker and fills the coordinates.
    const canvas = modal.locator('[data-testid="map-picker"] canvas.maplibregl-canvas')
    await canvas.waitFor()
    const lat = inputOf(page, 'device-lat')
    await expect
      .poll(async () => {
        if (await lat.inputValue()) return true
        const box = await canvas.boundingBox()
        if (box) await page.mouse.click(box.x + box.width / 2 + 30, box.y + box.height / 2 - 20)
        return Boolean(await lat.inputValue())
      })
      .toBe(true)
    expect(await inputOf(page, 'device-lon').inputValue()).not.toBe('')
    await modal.locator('[data-testid="map-picker"] .maplibregl-marker').waitFor()
    // The picked point's address may come from the map service; what is typed here is kept.
    const location = inputOf(page, 'device-location')
    await expect.poll(() => page.locator('.map-picker-hint').innerText()).not.toBe('')
    await location.fill('浙江省杭州市西湖区文三路90号')
    await inputOf(page, 'device-location-desc').fill('一楼大厅服务台旁')
    await modal.locator('.ant-modal-title').click()
    await screenshot(page, 'devices-06-register')
    await saveDevice(page, '添加成功！')
    await filterTable(page, 'filter-device_sn', SN1)
    const row = () => page.locator('.ant-table-row').first()
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1)
    expect(await row().innerText()).toContain('文三路90号')
    await screenshot(page, 'devices-07-registered')

    // Routine change.
    await openChange(page)
    await expect.poll(() => inputOf(page, 'device-sn').inputValue()).toBe(SN1)
    await page.getByTestId('device-update-type').getByText('常规修改').click()
    await inputOf(page, 'device-contact').fill('李娜')
    await screenshot(page, 'devices-08-change')
    await saveDevice(page, '修改成功！')

    // Move: a new address.
    await openChange(page)
    await expect.poll(() => inputOf(page, 'device-contact').inputValue()).toBe('李娜')
    await page.getByTestId('device-update-type').getByText('移动设备').click()
    await inputOf(page, 'device-location').fill('浙江省杭州市西湖区教工路18号')
    await inputOf(page, 'device-location-desc').fill('二楼电梯口')
    await page.getByTestId('device-modal').locator('.ant-modal-title').click()
    await screenshot(page, 'devices-09-move')
    await saveDevice(page, '修改成功！')
    await expect.poll(() => row().innerText()).toContain('教工路18号')

    // Replace with the second new device.
    await openChange(page)
    await expect.poll(() => inputOf(page, 'device-location').inputValue()).toContain('教工路18号')
    await page.getByTestId('device-update-type').getByText('更换设备').click()
    await inputOf(page, 'device-new-sn').fill(SN2)
    await screenshot(page, 'devices-10-replace')
    await saveDevice(page, '修改成功！')
    await filterTable(page, 'filter-device_sn', SN2)
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(1)

    // The change record of the installation: register, change, move, replace.
    await row().locator('[data-testid^="device-detail-"]').click()
    const drawer = page.getByTestId('device-detail')
    await drawer.getByTestId('device-base').getByText(SN2).waitFor()
    const record = drawer.getByTestId('change-record')
    await expect.poll(() => record.locator('.ant-table-row').count()).toBe(4)
    const types = (await record.locator('.ant-table-row').allInnerTexts()).join('\n')
    for (const t of ['注册', '常规修改', '移动设备', '更换设备']) expect(types).toContain(t)
    expect(types).toContain(SN1)
    await record.scrollIntoViewIfNeeded()
    await screenshot(page, 'devices-11-change-record')

    // A routine inspection from the detail shows in its inspection tab.
    await drawer.getByRole('tab', { name: '巡检记录' }).click()
    await drawer.getByTestId('inspection-record').click()
    await page.getByTestId('inspection-content').fill('外观完好，自检通过')
    await screenshot(page, 'devices-11-inspection')
    await dialogOk(page).click()
    await page.getByText('添加成功！').first().waitFor()
    await drawer.getByTestId('records-inspect').getByText('外观完好，自检通过').waitFor()
    await drawer.locator('.ant-drawer-close').click()
    await drawer.waitFor({ state: 'hidden' })

    // Delete the installation: the device leaves the list.
    await row().locator('[data-testid^="device-delete-"]').click()
    await page.locator('.ant-modal-confirm').getByText(SN2).waitFor()
    await screenshot(page, 'devices-12-delete-confirm')
    await dialogOk(page).click()
    await page.getByText('删除成功！').first().waitFor()
    await expect.poll(() => page.locator('.ant-table-row', { hasText: SN2 }).count()).toBe(0)
  })

  it('exports the device list as a spreadsheet that opens', async () => {
    await page.getByTestId('filter-reset').click()
    await page.locator('.ant-table-row').first().waitFor()
    await page.getByTestId('device-export').click()
    const modal = page.getByTestId('device-export-modal')
    await modal.getByText('时间范围').waitFor()
    await screenshot(page, 'devices-13-export')
    const [download] = await Promise.all([page.waitForEvent('download'), dialogOk(page).click()])
    await page
      .getByText(/已导出 \d+ 条/)
      .first()
      .waitFor()
    const file = path.join(tmp, 'devices.xlsx')
    await download.saveAs(file)
    const sheet = await readBook(file)
    const header = sheet.getRow(1).values as unknown[]
    expect(header).toContain('设备SN')
    expect(header).toContain('所属机构')
    expect(sheet.rowCount).toBeGreaterThan(1)
    expect(String(sheet.getRow(2).getCell(1).value ?? '')).toMatch(/^[A-Za-z0-9]{6,32}$/)
  })
})
