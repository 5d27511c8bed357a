import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inputOf } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { consoleApi, consoleToken, credentialLink, healthyPass } from './support/device.ts'
import { openSignedIn } from './support/session.ts'

const b = useBrowser()

type ListedDevice = { id: number; device_sn: string; status: number; disable_abnormal_display: number }

/** A date `days` from now, YYYY-MM-DD. */

/** A normal demo device, from the end of the list so that other journeys' devices are left alone. */
async function pickDevice(token: string): Promise<ListedDevice> {
  const page = await consoleApi<{ resource: ListedDevice[] }>(
    b.baseURL(),
    token,
    '/api/v1/device/?status=0&page=1&page_size=100',
  )
  const found = page.resource.findLast((d) => d.status === 0 && d.disable_abnormal_display === 0)
  if (!found) throw new Error('no normal demo device')
  return found
}

/** The tab's row of the device that says all of `texts`, reloading (filters stay in the URL) until it does. */
async function rowShowing(page: Page, sn: string, texts: string[]): Promise<Locator> {
  const rows = page.locator('.ant-table-row', { hasText: sn })
  let seen = ''
  for (const end = Date.now() + 20_000; Date.now() < end; ) {
    await page.locator('.ant-table-row, .ant-empty').first().waitFor()
    for (const row of await rows.all()) {
      seen = await row.innerText()
      if (texts.every((t) => seen.includes(t))) return row
    }
    await page.waitForTimeout(500)
    await page.reload()
  }
  throw new Error(`no row of ${sn} showed ${texts.join(', ')}: ${seen}`)
}

describe('event pages journey', () => {
  it('a failed self-test shows on 故障事件 当前, is handled with a note, and after a pass moves to 历史 with its duration; export downloads an .xlsx', async () => {
    const page = await openSignedIn(b, '13800000000')
    const token = await consoleToken(page)
    const listed = await pickDevice(token)
    const sn = listed.device_sn
    const { device } = await credentialLink(b.baseURL(), token, listed)
    await device.send('heartbeat', { battery: 92 })
    await device.send('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] })

    // The menu leads to the page; the serial filter narrows it to the device.
    await page.goto('/eventManagement/fault')
    await page.getByTestId('events-page-fault').waitFor()
    await inputOf(page, 'filter-device_sn').fill(sn)
    await page.getByTestId('filter-search').click()
    const open = await rowShowing(page, sn, ['E02 电池故障', '待机自检', '故障'])
    expect(await open.getByText('故障', { exact: true }).getAttribute('class')).toContain('ant-tag-purple')
    await screenshot(page, 'events-01-fault-current')

    const note = `已更换电池 ${Date.now()}`
    await open.locator('[data-testid^="event-handle-"]').click()
    const dialog = page.getByTestId('event-handle-modal')
    await dialog.getByTestId('event-handle-note').fill(note)
    await screenshot(page, 'events-02-handle-dialog')
    await dialog.getByRole('button', { name: /确\s*定/ }).click()
    await page.getByText('处理成功！').first().waitFor()
    await rowShowing(page, sn, [note, '系统超级管理员'])
    await screenshot(page, 'events-03-fault-handled')

    // The pass (with fresh consumables, so no warning follows) closes the fault.
    await device.send('selftest', healthyPass())
    await page.getByTestId('event-tab-history').click()
    await page.waitForURL(/tab=history/)
    const past = await rowShowing(page, sn, [note, '已恢复'])
    expect(await past.innerText()).toMatch(/\d+秒|\d+分/)
    await screenshot(page, 'events-04-fault-history')
    await page.getByTestId('event-tab-current').click()
    await expect
      .poll(async () => page.locator('.ant-table-row', { hasText: sn }).count(), { timeout: 10_000 })
      .toBe(0)

    await page.getByTestId('event-tab-history').click()
    await rowShowing(page, sn, [note])
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('event-export').click(),
    ])
    expect(download.suggestedFilename()).toBe('故障事件.xlsx')
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'events-')), 'faults.xlsx')
    await download.saveAs(file)
    const { default: ExcelJS } = await import('exceljs')
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(file)
    const sheet = book.worksheets[0]
    expect(sheet.getRow(1).values).toContain('持续时长')
    const serials = sheet.getColumn(1).values.slice(2).map(String)
    expect(serials).toEqual([sn])

    // The other three pages render their tabs and columns (looked at in the screenshots).
    for (const [route, kind, shot] of [
      ['earlyWarn', 'warning', 'events-05-early-warn'],
      ['locationOffset', 'offset', 'events-06-location-offset'],
      ['offline', 'offline', 'events-07-offline-history'],
    ] as const) {
      await page.goto(`/eventManagement/${route}${kind === 'offline' ? '?tab=history' : ''}`)
      await page.getByTestId(`events-page-${kind}`).waitFor()
      await page.locator('.ant-table-row, .ant-empty').first().waitFor()
      await screenshot(page, shot)
    }
  })
})
