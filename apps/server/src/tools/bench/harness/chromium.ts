import type { LaunchOptions } from 'playwright-core'

// The browser benchmarks' Chromium: Debian's (CHROMIUM_PATH), headless.

/**
 * Launch options. Playwright gives each launch a fresh --user-data-dir of its own. WebGL runs on
 * SwiftShader; with `gpuCompositing` it composites in the GPU process too (else --disable-gpu).
 */
export function chromiumOptions({ gpuCompositing = false } = {}): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      ...(gpuCompositing ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-gpu']),
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  }
}
