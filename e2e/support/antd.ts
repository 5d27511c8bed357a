import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

/**
 * Opens a select, finds the item and clicks it once the dropdown has settled (a click during its
 * opening animation can miss), until the select shows the text.
 */
async function pickUntilShown(
  page: Page,
  testId: string,
  text: string,
  item: (select: Locator) => Promise<Locator>,
) {
  const select = page.getByTestId(testId)
  for (let attempt = 0; attempt < 3; attempt++) {
    await select.click()
    const target = await item(select)
    await target.waitFor()
    await page.waitForTimeout(200)
    await target.click()
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

/** Picks the option with this text in an antd Select. */
export function pickOption(page: Page, testId: string, text: string) {
  return pickUntilShown(page, testId, text, async () =>
    page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first(),
  )
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

/** Searches an antd TreeSelect and picks the node with this title. */
export function pickTreeOption(page: Page, testId: string, text: string) {
  return pickUntilShown(page, testId, text, async (select) => {
    await select.locator('input').fill(text)
    return page.locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: text }).first()
  })
}

/** The text input of a field by test id, whether the id sits on the input or on its wrapper. */
export function inputOf(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first()
}

/** Filters a list page's table by the text of a filter field and waits until only matching rows show. */
export async function filterTable(page: Page, testId: string, text: string) {
  await inputOf(page, testId).fill(text)
  await page.getByTestId('filter-search').click()
  await expect
    .poll(async () => {
      const rows = await page.locator('.ant-table-row').allInnerTexts()
      return rows.length > 0 && rows.every((r) => r.includes(text))
    })
    .toBe(true)
}

/**
 * Types into a searchable antd Select and picks the option with this text: long lists are
 * virtual, so an option far down does not exist until the search brings it into view.
 */
export function pickSearchedOption(page: Page, testId: string, text: string) {
  return pickUntilShown(page, testId, text, async () => {
    await page.keyboard.type(text)
    return page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first()
  })
}
