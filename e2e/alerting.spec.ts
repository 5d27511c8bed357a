import { ALARM_MSG_TYPES } from '@aed/contracts/message'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from './support/browser.ts'
import { consoleApi, consoleToken, credentialLink } from './support/device.ts'
import { signedIn } from './support/session.ts'

// The test browser lets pages play sound without a click, as a console left open on a duty desk would.
const b = useBrowser({ args: ['--autoplay-policy=no-user-gesture-required'] })

type ListedDevice = { id: number; device_sn: string }

/** A registered demo device (the last of the first page, away from the other journeys' pick). */
async function pickDevice(token: string): Promise<ListedDevice> {
  const page = await consoleApi<{ resource: ListedDevice[] }>(
    b.baseURL(),
    token,
    '/api/v1/device/?page=1&page_size=50',
  )
  const found = page.resource.at(-1)
  if (!found) throw new Error('no demo device')
  return found
}

type ListedMessage = { id: number; msg_type: number }

/** The member's newest alarm messages (rescue, cabinet door), as the message centre lists them. */
async function alarmIds(token: string): Promise<number[]> {
  const page = await consoleApi<{ resource: ListedMessage[] }>(
    b.baseURL(),
    token,
    '/api/v1/system/msg-center?page=1&page_size=100',
  )
  return page.resource.filter((m) => ALARM_MSG_TYPES.includes(m.msg_type)).map((m) => m.id)
}

/** The bell's unconfirmed count (the badge's title holds the number even above 99). */
async function bellCount(page: Page): Promise<number> {
  const sup = page.getByTestId('message-count').locator('sup')
  if ((await sup.count()) === 0) return 0
  return Number(await sup.first().getAttribute('title'))
}

const audioPlaying = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="alarm-audio"]')
    return audio !== null && !audio.paused
  })
/** How far the alarm sound has played (it loops a 1 s tone, so this moves while it sounds). */
const audioTime = (page: Page) =>
  page.evaluate(
    () => document.querySelector<HTMLAudioElement>('[data-testid="alarm-audio"]')?.currentTime ?? 0,
  )

/** The alarm card of the device's rescue in the popup, and the message id it carries. */
async function alarmOf(page: Page, sn: string) {
  const card = page.locator('[data-testid^="alarm-m"]', { hasText: sn }).first()
  await card.waitFor({ timeout: 20_000 })
  const testId = (await card.getAttribute('data-testid')) ?? ''
  return { card, msgId: Number(testId.replace('alarm-m', '')) }
}

describe('alerting journey', () => {
  it('a rescue starts: the popup opens red with sound, the bell rises, details opens the dashboard and confirms for everyone', async () => {
    const page = await signedIn(b, '13800000000')
    // A second member on duty, in another browser context (its own storage and socket).
    const duty = await signedIn(b, '13800000002')
    const token = await consoleToken(page)
    const listed = await pickDevice(token)
    const sn = listed.device_sn
    const { device } = await credentialLink(b.baseURL(), token, listed)
    // Both consoles are live (socket authenticated, count pushed) before the rescue starts.
    for (const p of [page, duty]) await p.locator('[data-testid="message-bell"][data-live="1"]').waitFor()
    const before = await bellCount(page)
    // Alarms up to now were sent before the sockets were live: the popup shows only later ones.
    const lastAlarmBefore = Math.max(0, ...(await alarmIds(token)))

    await device.send('usage', {
      rescue_event_id: `e2e-rescue-${Date.now()}`,
      event_time: Date.now(),
      event_desc: '开机',
    })

    const popup = page.getByTestId('alarm-popup')
    await popup.waitFor({ timeout: 20_000 })
    const { card, msgId } = await alarmOf(page, sn)
    expect(msgId).toBeGreaterThan(0)
    expect(await popup.getAttribute('data-colour')).toBe('red')
    expect(await card.getAttribute('data-type')).toBe('2')
    expect(await card.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(255, 77, 79)')
    expect(await card.innerText()).toContain('急救告警')
    await expect.poll(() => audioPlaying(page), { timeout: 10_000 }).toBe(true)
    const playedFrom = await audioTime(page)
    await expect.poll(() => audioTime(page), { timeout: 5000 }).not.toBe(playedFrom)
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBeGreaterThan(before)
    await screenshot(page, 'alerting-01-popup-red')

    // The duty member's console gets the same alarm.
    const dutyAlarm = await alarmOf(duty, sn)
    expect(dutyAlarm.msgId).toBe(msgId)

    await page.getByTestId(`alarm-action-m${msgId}`).click()
    await page.waitForURL(
      (u) =>
        u.pathname === '/watchBoard/dashboard' &&
        u.searchParams.get('event_type') === '2' &&
        Number(u.searchParams.get('event_id')) > 0 &&
        u.searchParams.get('formMsg') === '1',
    )
    await card.waitFor({ state: 'detached' })
    // The sound lasts while an alarm is open: other alarms may have come meanwhile (a demo
    // device's), which the server knows of. With the last of them closed the popup goes and the
    // sound stops.
    const others = (await alarmIds(token)).filter((id) => id > lastAlarmBefore && id !== msgId)
    await expect.poll(() => audioPlaying(page)).toBe(others.length > 0)
    for (const id of others) await page.getByTestId(`alarm-close-m${id}`).click()
    await popup.waitFor({ state: 'detached' })
    await expect.poll(() => audioPlaying(page)).toBe(false)
    await screenshot(page, 'alerting-02-dashboard-from-details')

    // Confirmed for the second member too: live in the popup, and in the message centre.
    await expect
      .poll(() => duty.getByTestId(`alarm-action-m${msgId}`).isDisabled(), { timeout: 15_000 })
      .toBe(true)
    for (const close of await duty.locator('[data-testid^="alarm-close-"]').all()) await close.click()
    await duty.getByTestId('alarm-popup').waitFor({ state: 'detached' })
    expect(await audioPlaying(duty)).toBe(false)
    await duty.getByTestId('message-bell').click()
    const row = duty.getByTestId(`message-${msgId}`)
    await row.waitFor()
    expect(await row.getAttribute('data-confirmed')).toBe('1')
    expect(await row.innerText()).toContain(sn)
    expect(await row.innerText()).toContain('系统超级管理员')
    expect(await duty.getByTestId(`message-action-${msgId}`).isDisabled()).toBe(true)
    await screenshot(duty, 'alerting-03-confirmed-for-second-member')
  })
})
