import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inputOf } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { consoleApi, consoleToken, credentialLink, healthyPass, inDays } from './support/device.ts'
import { openSignedIn } from './support/session.ts'

const b = useBrowser()

type ListedDevice = {
  id: number
  device_sn: string
  status: number
  host_expire: string
  disable_abnormal_display: number
}

/** A date `days` from now, YYYY-MM-DD. */

/** A registered demo device that is normal and whose host does not expire soon. */
async function pickDevice(token: string): Promise<ListedDevice> {
  const page = await consoleApi<{ resource: ListedDevice[] }>(
    b.baseURL(),
    token,
    '/api/v1/device/?status=0&page=1&page_size=100',
  )
  const found = page.resource.find(
    (d) => d.status === 0 && d.disable_abnormal_display === 0 && d.host_expire > inDays(400),
  )
  if (!found) throw new Error('no normal demo device with a distant host expiry')
  return found
}

/** Filters the list to the device, reloading (the filter stays in the URL) until its row says all of `texts`. */
async function rowShowing(page: Page, sn: string, texts: string[]): Promise<Locator> {
  const row = page.locator('.ant-table-row', { hasText: sn })
  if (!page.url().includes(sn)) {
    await inputOf(page, 'filter-device_sn').fill(sn)
    await page.getByTestId('filter-search').click()
  }
  let text = ''
  for (const end = Date.now() + 20_000; Date.now() < end; ) {
    await row.waitFor()
    text = await row.innerText()
    if (texts.every((t) => text.includes(t))) return row
    await page.waitForTimeout(500)
    await page.reload()
  }
  throw new Error(`the row of ${sn} never showed ${texts.join(', ')}: ${text}`)
}

describe('status engine journey', () => {
  it('a device reports a failed and then a passed self-test; the list, the detail and the commands follow', async () => {
    const page = await openSignedIn(b, '13800000000')
    const token = await consoleToken(page)
    const listed = await pickDevice(token)
    const sn = listed.device_sn
    const { secret, device } = await credentialLink(b.baseURL(), token, listed)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)

    await device.send('heartbeat', { battery: 92, rssi: -67 })
    await device.send('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] })

    await page.goto('/deviceManagement/device')
    await page.getByTestId('devices-page').waitFor()
    const failed = await rowShowing(page, sn, ['故障', '不可用'])
    const tag = failed.getByTestId('readiness-not_ready')
    await tag.hover()
    const tip = page.getByTestId('readiness-tip')
    await tip.waitFor()
    expect(await tip.innerText()).toContain('原因：自检故障')
    expect(await tip.innerText()).toContain('最近自检通过')
    await screenshot(page, 'engine-01-fault-not-ready')
    await page.mouse.move(0, 0)

    // The pass brings new consumable dates, so no expiry warning keeps the device from 正常.
    await device.send('selftest', healthyPass())
    const passed = await rowShowing(page, sn, ['正常', '可用'])
    expect(await passed.getByTestId('readiness-ready').innerText()).toBe('可用')
    await screenshot(page, 'engine-02-normal-ready')

    await passed.locator(`[data-testid="device-detail-${listed.id}"]`).click()
    const drawer = page.getByTestId('device-detail')
    const base = drawer.getByTestId('device-base')
    await base.waitFor()
    expect(await base.getByTestId('readiness-ready').innerText()).toBe('可用')
    expect(await base.innerText()).toMatch(/最近自检通过\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
    expect(await base.innerText()).toMatch(/最近上报\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)
    await screenshot(page, 'engine-03-detail-base')

    await drawer.getByRole('tab', { name: '检测记录' }).click()
    const detect = drawer.getByTestId('records-detect')
    await expect.poll(() => detect.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(2)
    const tests = detect.locator('.ant-table-row')
    expect(await tests.nth(0).innerText()).toContain('通过')
    expect(await tests.nth(1).innerText()).toContain('未通过')
    expect(await tests.nth(1).innerText()).toContain('E02')
    await screenshot(page, 'engine-04-detect-records')

    await drawer.getByRole('tab', { name: '故障' }).click()
    const faults = drawer.getByTestId('records-fault')
    const fault = faults.locator('.ant-table-row', { hasText: 'E02' }).first()
    await fault.waitFor()
    const cells = await fault.locator('td').allInnerTexts()
    expect(cells).toContain('电池故障')
    // Check time and recovery time both filled: the pass closed the fault.
    expect(cells.filter((c) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(c))).toHaveLength(2)
    await screenshot(page, 'engine-05-fault-recovered')

    // Remote self-test: created, handed to the device in its next answer, answered by its ack.
    await drawer.getByRole('tab', { name: '远程指令' }).click()
    const commands = drawer.getByTestId('device-commands')
    await drawer.getByTestId('command-selftest').click()
    await page.getByText('指令已创建，设备连接后执行').first().waitFor()
    await commands.getByTestId('command-state-pending').waitFor()
    const answer = await device.send('heartbeat', { battery: 91 })
    const cmd = answer.cmds.find((c) => c.name === 'selftest')
    expect(cmd).toBeDefined()
    await commands.getByTestId('command-state-sent').waitFor({ timeout: 15_000 })
    await device.send('ack', { cmd_id: cmd?.cmd_id, ok: true })
    await commands.getByTestId('command-state-done').waitFor({ timeout: 15_000 })

    // A locate the device cannot do: it fails with the device's error.
    await drawer.getByTestId('command-locate').click()
    await commands.getByTestId('command-state-pending').waitFor()
    const next = await device.send('heartbeat', { battery: 91 })
    const locate = next.cmds.find((c) => c.name === 'locate')
    expect(locate).toBeDefined()
    await device.send('ack', { cmd_id: locate?.cmd_id, ok: false, error: 'GPS 无信号' })
    const failedRow = commands.locator('.ant-table-row', { hasText: '获取定位' })
    await failedRow.getByTestId('command-state-failed').waitFor({ timeout: 15_000 })
    expect(await failedRow.innerText()).toContain('GPS 无信号')
    await screenshot(page, 'engine-06-commands')
  })
})
