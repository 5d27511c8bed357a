import type { Locator, Page } from 'playwright-core'

/** Opens an antd Select by its test id and picks the option with this text. */
export async function pickOption(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click()
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click()
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

/** Opens an antd TreeSelect by its test id, searches and picks the node with this title. */
export async function pickTreeOption(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click()
  await page.keyboard.type(text)
  await page.locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: text }).first().click()
}

/** The text input of a field by test id, whether the id sits on the input or on its wrapper. */
export function inputOf(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first()
}
