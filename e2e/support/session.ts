import type { Page } from 'playwright-core'

export const DEMO_PASSWORD = 'Aed@123456'

/** Signs in through the login page as a person would: phone, password, privacy box, submit. */
export async function signIn(page: Page, phone: string, password = DEMO_PASSWORD) {
  await page.getByTestId('login-mobile').fill(phone)
  await page.getByTestId('login-password').fill(password)
  const privacy = page.getByTestId('login-privacy')
  if (!(await privacy.isChecked())) await privacy.check()
  await page.getByTestId('login-submit').click()
}
