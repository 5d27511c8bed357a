import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialogOk, inputOf, pickOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { openSignedIn } from './support/session.ts'

const b = useBrowser()

/** One POST the receiver got: its Standard Webhooks headers and raw body. */
type Received = { id: string; timestamp: string; signature: string; body: string }

/**
 * An integrator's endpoint on 127.0.0.1 (the e2e server runs with WEBHOOK_ALLOW_PRIVATE): records
 * each POST and answers `status` (204 until a test says otherwise).
 */
function startReceiver() {
  const received: Received[] = []
  const state = { status: 204 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      })
      res.writeHead(state.status).end()
    })
  })
  return { server, received, state }
}

/** Standard Webhooks: v1,base64(HMAC-SHA256(key, "id.timestamp.body")), the key being whsec_'s base64. */
function signs(secret: string, r: Received) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = crypto
    .createHmac('sha256', key)
    .update(`${r.id}.${r.timestamp}.${r.body}`)
    .digest('base64')
  return r.signature.split(' ').includes(`v1,${expected}`)
}

const AGENCY = '南京市鼓楼区红十字会'

describe('webhooks in the console', () => {
  const receiver = startReceiver()
  let url = ''
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/aed/webhook`
  })
  afterAll(async () => {
    receiver.server.closeAllConnections()
    await new Promise((r) => receiver.server.close(r))
  })

  let page: Awaited<ReturnType<typeof b.open>>
  /** The webhook secret the console showed once. */
  let secret = ''

  it('gives an organisation a push URL, shows its secret once, and delivers a signed test event', async () => {
    page = await openSignedIn(b, '13800000000')
    await page.goto('/systemManagement/serviceConfig')
    await page.getByTestId('service-add').click()
    await pickOption(page, 'service-agency', AGENCY)
    const services = page.getByTestId('service-services')
    await services.getByText('开放接口').click()
    expect(await page.getByTestId('service-push-url').count()).toBe(0)
    await services.getByText('事件推送').click()
    await inputOf(page, 'service-push-url').fill('ftp://127.0.0.1/aed')
    await dialogOk(page).click()
    await page.getByText('推送地址须为http(s)网址').waitFor()
    await inputOf(page, 'service-push-url').fill(url)
    await screenshot(page, 'webhooks-01-push-url')
    await dialogOk(page).click()
    await page.getByText('添加成功！').waitFor()

    // The secret, once: copy it now, it is not shown again.
    await inputOf(page, 'issued-push-secret').waitFor()
    const issued = page.locator('.ant-modal-wrap:visible', { hasText: '请保存推送密钥' })
    secret = await inputOf(page, 'issued-push-secret').inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    await issued.getByText('推送密钥只显示这一次').waitFor()
    await screenshot(page, 'webhooks-02-secret-once')
    await issued.getByRole('button', { name: '我已保存' }).click()
    await inputOf(page, 'issued-push-secret').waitFor({ state: 'detached' })

    const row = page.locator('.ant-table-row', { hasText: AGENCY })
    await row.getByRole('button', { name: '修改' }).click()
    await inputOf(page, 'service-secret').waitFor()
    expect(await inputOf(page, 'service-push-url').inputValue()).toBe(url)
    expect(await page.locator('.ant-modal-wrap:visible').innerText()).not.toContain(secret)
    await page
      .locator('.ant-modal-wrap:visible')
      .getByRole('button', { name: /取\s?消/ })
      .click()

    // 推送记录: send a test event and watch it arrive.
    await row.getByRole('button', { name: '推送记录' }).click()
    const drawer = page.getByTestId('delivery-drawer')
    await drawer.getByTestId('delivery-push-url').getByText(url).waitFor()
    await drawer.getByTestId('delivery-test').click()
    await page.getByText('测试事件已发送').waitFor()
    const delivered = drawer.locator('.ant-table-row', { hasText: 'webhook.test' })
    await delivered.getByText('已送达').waitFor({ timeout: 20_000 })
    // The cells after the expand button: time, event, attempts, status code, time taken, next try, state.
    const cells = async () => (await delivered.locator('td').allInnerTexts()).slice(1)
    const attemptsAndState = async () => {
      const [, , attempts, , , , state] = await cells()
      return [attempts, state]
    }
    const [, event, attempts, status, took, next] = await cells()
    expect([event, attempts, status, next]).toEqual(['webhook.test', '1', '204', '-'])
    expect(Number(took)).toBeGreaterThanOrEqual(0)

    expect(receiver.received).toHaveLength(1)
    const [got] = receiver.received
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'webhook.test',
      data: { message: 'AED Cloud test event' },
    })
    expect(signs(secret, got)).toBe(true)

    await delivered.getByRole('button', { name: /展开行|Expand row/i }).click()
    await drawer.getByText('"type": "webhook.test"').waitFor()
    await screenshot(page, 'webhooks-03-delivery-log')

    // 重新发送: the same webhook-id again.
    await delivered.getByRole('button', { name: '重新发送' }).click()
    await page.getByText('已重新发送').waitFor()
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2)
    expect(receiver.received[1].id).toBe(got.id)
    // A resend starts the delivery's attempts afresh: one attempt, delivered again.
    await expect.poll(() => attemptsAndState(), { timeout: 20_000 }).toEqual(['1', '已送达'])
  })

  it('shows a push disabled by a 410 in the log, the list and the dialog, and 恢复推送 sends what waited', async () => {
    receiver.state.status = 410
    const drawer = page.getByTestId('delivery-drawer')
    await drawer.getByTestId('delivery-test').click()
    await page.getByText('测试事件已发送').waitFor()
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(3)
    // The list learns of it on 刷新; the drawer then names the reason and stops offering a test event.
    await expect
      .poll(
        async () => {
          await drawer.getByTestId('delivery-refresh').click()
          return drawer.getByTestId('push-disabled-alert').count()
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1)
    await drawer.getByText('推送已停用：接收方返回410').waitFor()
    expect(await drawer.getByTestId('delivery-test').isDisabled()).toBe(true)
    const waiting = drawer.locator('.ant-table-row').first()
    await waiting.getByText('待发送').waitFor()
    expect(await waiting.locator('td').nth(4).innerText()).toBe('410')
    expect(await waiting.locator('td').nth(6).innerText()).toBe('恢复推送后')
    await screenshot(page, 'webhooks-04-delivery-log-disabled')
    await drawer.locator('.ant-drawer-close').click()

    const row = page.locator('.ant-table-row', { hasText: AGENCY })
    await row.getByText('已停用推送：接收方返回410').waitFor()
    await row.getByRole('button', { name: '修改' }).click()
    const alert = page.locator('.ant-modal-wrap:visible').getByTestId('push-disabled-alert')
    await alert.waitFor()
    await screenshot(page, 'webhooks-05-dialog-push-disabled')

    receiver.state.status = 204
    await alert.getByRole('button', { name: '恢复推送' }).click()
    await page.getByText('已恢复推送').waitFor()
    await alert.waitFor({ state: 'detached' })
    await page
      .locator('.ant-modal-wrap:visible')
      .getByRole('button', { name: /取\s?消/ })
      .click()
    await row.getByText('已停用推送').waitFor({ state: 'detached' })
    // The delivery that waited goes out first once the endpoint is enabled.
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(4)
    expect(JSON.parse(receiver.received[3].body)).toMatchObject({ type: 'webhook.test' })
  })

  it('regenerates the webhook secret in 修改: shown once, and the next delivery is signed with it', async () => {
    const row = page.locator('.ant-table-row', { hasText: AGENCY })
    await row.getByRole('button', { name: '修改' }).click()
    const dialog = page.locator('.ant-modal-wrap:visible', { hasText: '修改' })
    await dialog.getByRole('button', { name: '重新生成推送密钥' }).click()
    await page.locator('.ant-modal-confirm', { hasText: '重新生成推送密钥？' }).waitFor()
    await dialogOk(page).click()
    await inputOf(page, 'issued-push-secret').waitFor()
    const renewed = await inputOf(page, 'issued-push-secret').inputValue()
    expect(renewed).toMatch(/^whsec_/)
    expect(renewed).not.toBe(secret)
    await page.getByRole('button', { name: '我已保存' }).click()
    await inputOf(page, 'issued-push-secret').waitFor({ state: 'detached' })
    // The dialog stays open, its push URL kept.
    expect(await inputOf(page, 'service-push-url').inputValue()).toBe(url)
    await dialog.getByRole('button', { name: /取\s?消/ }).click()

    await row.getByRole('button', { name: '推送记录' }).click()
    const drawer = page.getByTestId('delivery-drawer')
    await drawer.getByTestId('delivery-test').click()
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(5)
    const last = receiver.received[4]
    expect(signs(renewed, last)).toBe(true)
    expect(signs(secret, last)).toBe(false)
  })
})
