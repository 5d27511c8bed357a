import { describe, expect, it } from 'vitest'
import { dialogOk, inputOf, pickOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { png } from './support/png.ts'
import { openSignedIn } from './support/session.ts'

const b = useBrowser()

/** A real 64x40 PNG (a red cover with a white bar), so the upload's content check sees a PNG. */
const coverPng = () => png(64, 40, (_x, y) => (y > 16 && y < 24 ? [255, 255, 255] : [220, 38, 38]))

describe('system management pages', () => {
  let page: Awaited<ReturnType<typeof b.open>>

  it('publishes a first-aid classroom article with a cover and rich text', async () => {
    page = await openSignedIn(b, '13800000000')
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
