import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { dialogOk, inputOf, pickOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { signIn } from './support/session.ts'

const b = useBrowser()

/** A real 64x40 PNG (a red cover with a white bar), made here so the upload's content check sees a PNG. */
function coverPng(): Buffer {
  const w = 64
  const h = 40
  const raw = Buffer.alloc((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3
      const bar = y > 16 && y < 24
      raw[o] = bar ? 255 : 220
      raw[o + 1] = bar ? 255 : 38
      raw[o + 2] = bar ? 255 : 38
    }
  }
  const crc = (buf: Buffer) => {
    let c = ~0
    for (const byte of buf) {
      c ^= byte
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
    }
    return ~c >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const td = Buffer.concat([Buffer.from(type), data])
    const c = Buffer.alloc(4)
    c.writeUInt32BE(crc(td))
    return Buffer.concat([len, td, c])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe('system management pages', () => {
  let page: Awaited<ReturnType<typeof b.open>>

  it('publishes a first-aid classroom article with a cover and rich text', async () => {
    page = await b.open('/user/login')
    await signIn(page, '13800000000')
    await page.waitForURL(/\/watchBoard\/dashboard/)
    await page.goto('/systemManagement/classroom')
    await page.getByTestId('classroom-add').click()
    await pickOption(page, 'classroom-category', '急救知识库')
    await page.getByTestId('classroom-title').fill('AED使用四步法')
    await page
      .locator('.ant-modal input[type=file]')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: coverPng() })
    await page.locator('.ant-modal img[src^="/files/"]').waitFor()
    await page.getByTestId('classroom-link').fill('https://www.redcross.org.cn/aed')
    await page.getByTestId('classroom-describe').fill('开机、贴片、分析、电击：按语音提示操作。')
    await page.getByText('富文本').click()
    await page.getByTestId('rich-text').click()
    await page.keyboard.type('第一步：打开AED电源，按语音提示操作。')
    await screenshot(page, 'system-01-classroom-article')
    await dialogOk(page).click()
    await page.getByText('添加成功！').waitFor()
    await page.locator('.ant-table-row', { hasText: 'AED使用四步法' }).waitFor()
  })

  it('saves the system settings', async () => {
    await page.goto('/systemManagement/settings')
    await page.getByTestId('settings-page').waitFor()
    await page.getByTestId('settings-sound').getByText('关闭').click()
    await pickOption(page, 'settings-offset', '5')
    await page.getByTestId('settings-save').click()
    await page.getByText('保存成功').waitFor()
    await screenshot(page, 'system-02-settings')
  })

  it('gives an organisation services and shows its credentials when editing', async () => {
    await page.goto('/systemManagement/serviceConfig')
    await page.getByTestId('service-add').click()
    await pickOption(page, 'service-agency', '杭州市西湖区急救中心')
    await page.getByTestId('service-services').getByText('开放接口').click()
    await page.getByTestId('service-state').getByText('启用').click()
    await dialogOk(page).click()
    await page.getByText('添加成功！').waitFor()
    const row = page.locator('.ant-table-row', { hasText: '杭州市西湖区急救中心' })
    await row.waitFor()
    await row.getByRole('button', { name: '修改' }).click()
    const secret = inputOf(page, 'service-secret')
    await secret.waitFor()
    expect(await secret.inputValue()).toMatch(/^[0-9a-f]{48}$/)
    expect((await inputOf(page, 'service-token').inputValue()).length).toBeGreaterThan(40)
    await screenshot(page, 'system-03-service-credentials')
  })
})
