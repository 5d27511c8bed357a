import type { Locator, Page } from 'playwright-core'

/** Opens an antd Select by its test id and picks the option with this text, until the select shows it. */
export async function pickOption(page: Page, testId: string, text: string) {
  const select = page.getByTestId(testId)
  for (let attempt = 0; attempt < 3; attempt++) {
    await select.click()
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
      .first()
    await option.waitFor()
    // The dropdown animates open; a click during the animation can miss the option.
    await page.waitForTimeout(200)
    await option.click()
    try {
      await page.waitForFunction(
        ([id, t]) =>
          document.querySelector(`[data-testid="${id}"]`)?.closest('.ant-select')?.textContent?.includes(t),
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

/** Types into the region cascader's search and picks the matching path. */
export async function pickRegion(scope: Locator | Page, page: Page, search: string, path: string) {
  const picker = scope.getByTestId('region-picker')
  await picker.click()
  await picker.locator('input').fill(search)
  await page
    .locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: path })
    .first()
    .click()
}

/** The OK button of the open modal dialog or confirm. */
export function dialogOk(page: Page) {
  return page
    .locator(
      '.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary, .ant-modal-confirm .ant-btn-primary',
    )
    .last()
}

/** Opens an antd TreeSelect by its test id, searches and picks the node with this title, until it shows. */
export async function pickTreeOption(page: Page, testId: string, text: string) {
  const select = page.getByTestId(testId)
  for (let attempt = 0; attempt < 3; attempt++) {
    await select.click()
    await select.locator('input').fill(text)
    const node = page
      .locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: text })
      .first()
    await node.waitFor()
    // The dropdown animates open; a click during the animation can miss the node.
    await page.waitForTimeout(200)
    await node.click()
    try {
      await page.waitForFunction(
        ([id, t]) =>
          document.querySelector(`[data-testid="${id}"]`)?.closest('.ant-select')?.textContent?.includes(t),
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

/** The text input of a field by test id, whether the id sits on the input or on its wrapper. */
export function inputOf(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first()
}
