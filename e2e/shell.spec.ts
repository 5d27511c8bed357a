import { describe, expect, it } from 'vitest'
import { screenshot, useBrowser } from './support/browser.ts'
import { openSignedIn, signIn } from './support/session.ts'

const b = useBrowser()

describe('console shell', () => {
  it('redirects a signed-out visit to sign-in with the full original path, then returns there', async () => {
    const page = await b.open('/watchBoard/dashboard?tab=2')
    await page.waitForURL(/\/user\/login/)
    const url = new URL(page.url())
    expect(url.searchParams.get('redirect')).toBe('/watchBoard/dashboard?tab=2')
    await page.waitForFunction(() => document.title === '登录 - AED远程管理云平台')
    await screenshot(page, 'shell-01-login')
    await signIn(page, '13800000000')
    await page.waitForURL(/\/watchBoard\/dashboard\?tab=2$/)
    await page.getByTestId('dashboard-page').waitFor()
    await page.getByTestId('nav-menu').getByText('系统管理').waitFor()
    await screenshot(page, 'shell-02-dashboard')
  })

  it('shows the validation messages and a failed sign-in', async () => {
    const page = await b.open('/user/login')
    await page.getByTestId('login-submit').click()
    await page.getByText('请输入正确的手机号').waitFor()
    await page.getByText('请先阅读隐私协议').waitFor()
    await signIn(page, '13800000000', 'Wrong-pass-1')
    await page.getByText('手机号或密码错误').waitFor()
    expect(new URL(page.url()).pathname).toBe('/user/login')
    await screenshot(page, 'shell-03-failed-sign-in')
  })

  it('asks an account of two organisations which one to sign in to, and switches in the header', async () => {
    const page = await b.open('/user/login')
    await signIn(page, '13800000099')
    const picker = page.getByRole('dialog')
    await picker.waitFor()
    const text = await picker.innerText()
    expect(text).toContain('杭州市西湖区急救中心')
    expect(text).toContain('深圳市南山区急救站')
    // Let the modal's opening animation finish before the picture.
    await page.waitForTimeout(500)
    await screenshot(page, 'shell-04-organisation-picker')
    await picker.getByText('深圳市南山区急救站').click()
    await page.waitForURL(/\/watchBoard\/dashboard/)
    const switcher = page.getByTestId('org-switcher')
    await switcher.waitFor()
    expect(await switcher.innerText()).toContain('深圳市南山区急救站')
    // A read-only general user there: no system management in the menu.
    await page.getByTestId('nav-menu').getByText('监控看板').waitFor()
    expect(await page.getByTestId('nav-menu').innerText()).not.toContain('系统管理')
    await switcher.click()
    await page.locator('.ant-select-item-option', { hasText: '杭州市西湖区急救中心' }).click()
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="org-switcher"]')?.textContent?.includes('杭州'),
    )
    await page.getByTestId('nav-menu').getByText('系统管理').waitFor()
    await screenshot(page, 'shell-05-switched')
  })

  it('switches the language to English and back', async () => {
    const page = await b.open('/user/login')
    await page.getByTestId('language-switch').click()
    await page.getByTestId('lang-en-US').click()
    await page.waitForFunction(() => document.title === 'Sign in - AED remote management cloud platform')
    await signIn(page, '13800000000')
    await page.waitForURL(/\/watchBoard\/dashboard/)
    await page.getByTestId('nav-menu').getByText('System management').waitFor()
    await screenshot(page, 'shell-06-english')
    await page.getByTestId('language-switch').click()
    await page.getByTestId('lang-zh-CN').click()
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="nav-menu"]')?.textContent?.includes('系统管理'),
    )
  })

  it('shows the not-found page with Back Home for an unknown path', async () => {
    const page = await openSignedIn(b, '13800000000')
    await page.goto('/no/such/page')
    await page.getByText('抱歉，您访问的页面不存在。').waitFor()
    await screenshot(page, 'shell-07-not-found')
    await page.getByTestId('back-home').click()
    await page.waitForURL(/\/watchBoard\/dashboard/)
  })

  it('sends a signed-out visit to an unknown path to sign-in, as the guard says', async () => {
    const page = await b.open('/no/such/page')
    await page.waitForURL(/\/user\/login\?redirect=%2Fno%2Fsuch%2Fpage/)
  })

  it('logs out back to the sign-in page, and the old page then needs signing in', async () => {
    const page = await openSignedIn(b, '13800000001')
    await page.getByTestId('user-menu').click()
    await page.getByTestId('logout').click()
    await page.waitForURL((u) => u.pathname === '/user/login')
    await page.goto('/watchBoard/dashboard')
    await page.waitForURL(/\/user\/login\?redirect=/)
  })

  it('turns on SMS dual verification for one account, and its password sign-in then asks for a code', async () => {
    const page = await openSignedIn(b, '13800000024')
    await page.getByTestId('user-menu').click()
    await page.getByTestId('user-security').click()
    const dual = page.getByTestId('security-dual')
    await dual.waitFor()
    expect(await dual.getAttribute('aria-checked')).toBe('false')
    await dual.click()
    await page.getByTestId('security-password').fill('Aed@123456')
    await screenshot(page, 'shell-08-security-settings')
    await page.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').click()
    await page.getByText('保存成功').waitFor()
    await page.getByTestId('user-menu').click()
    await page.getByTestId('logout').click()
    await page.waitForURL((u) => u.pathname === '/user/login')
    await signIn(page, '13800000024')
    await page.getByTestId('login-need-sms').waitFor()
    expect(new URL(page.url()).pathname).toBe('/user/login')
    await screenshot(page, 'shell-09-sms-second-factor')
  })
})
