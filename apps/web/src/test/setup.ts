import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'
import '../app/signInTexts'
import { loadConsoleTexts } from '../i18n/consoleTexts'
import '../lib/dayjsLocale'

afterEach(() => cleanup())

// Component tests render console pages without the providers and the layout route that load their texts.
await loadConsoleTexts()

// Pages are lazy chunks: the first one a test file opens is compiled on demand, which can take
// longer than testing-library's default second on a busy machine.
configure({ asyncUtilTimeout: 5000 })

// antd reads these browser APIs that jsdom lacks.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList
}
class RO {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= RO as unknown as typeof ResizeObserver

// jsdom does not implement pseudo-element styles, which antd's modals ask for.
const computedStyle = window.getComputedStyle.bind(window)
window.getComputedStyle = (element: Element) => computedStyle(element)
