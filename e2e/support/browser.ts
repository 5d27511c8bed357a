import fs from 'node:fs'
import path from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'

const shots = path.resolve(import.meta.dirname, '../screenshots')

/** Debian's Chromium, headless, with the flags this closed network needs (and a spec's `extraArgs`). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  })
}

/**
 * One browser per spec file; each test opens its own context (fresh storage) with `open()`.
 * `args` adds Chromium flags for this spec only, e.g. `--autoplay-policy=no-user-gesture-required`;
 * `server` names a server of the spec's own (support/server.ts) instead of the shared one.
 */
export function useBrowser({ args = [], server }: { args?: string[]; server?: () => string } = {}) {
  let browser: Browser
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    browser = await launchChromium(args)
  })
  afterAll(async () => {
    await browser?.close()
  })
  const baseURL = server ?? (() => inject('baseURL'))
  return {
    baseURL,
    /** A fresh browser context at 1920x1080 in the given locale, on `path`. */
    async open(pathname = '/', locale = 'zh-CN'): Promise<Page> {
      const context = await browser.newContext({
        baseURL: baseURL(),
        locale,
        viewport: { width: 1920, height: 1080 },
      })
      contexts.push(context)
      const page = await context.newPage()
      await page.goto(pathname)
      return page
    },
  }
}

/** Saves a full-page screenshot under e2e/screenshots/ for a person to look at. */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(shots, { recursive: true })
  // Pictures of settled screens: no loading spinner, opening animations done.
  await page.waitForFunction(() => document.querySelectorAll('.ant-spin-spinning').length === 0, null, {
    timeout: 10_000,
  })
  await page.waitForTimeout(400)
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}
