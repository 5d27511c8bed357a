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

/** A new browser context signed in as the phone's member, once the console has landed on the dashboard. */
export async function openSignedIn(
  b: { open(pathname: string): Promise<Page> },
  phone: string,
): Promise<Page> {
  const page = await b.open('/user/login')
  await signIn(page, phone)
  await page.waitForURL(/\/watchBoard\/dashboard/)
  return page
}

/**
 * A new browser context signed in as the phone's member, on `at` (the dashboard it lands on, or
 * another page), once the shell's message bell is there.
 */
export async function signedIn(
  b: { open(pathname: string): Promise<Page> },
  phone: string,
  at = '/watchBoard/dashboard',
): Promise<Page> {
  const page = await openSignedIn(b, phone)
  if (at !== '/watchBoard/dashboard') await page.goto(at)
  await page.getByTestId('message-bell').waitFor()
  return page
}
