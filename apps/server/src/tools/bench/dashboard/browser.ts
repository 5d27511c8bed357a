import type { Browser, BrowserContext, Page } from 'playwright-core'

// The dashboard bench's browser contexts and what it reads of a page.

/** A signed-in context's cookies and local storage. */
export type Storage = Awaited<ReturnType<BrowserContext['storageState']>>

const VIEWPORT = { width: 1920, height: 1080 }

/** A fresh browser context on the server at `base` (signed in with `storageState`); `timeline` hooks the map's events. */
export async function newContext(browser: Browser, base: string, timeline: boolean, storageState?: Storage) {
  const context = await browser.newContext({
    baseURL: base,
    locale: 'zh-CN',
    viewport: VIEWPORT,
    storageState,
  })
  // Every resource of the first view is kept (the default buffer holds 250).
  // (And tsx's helper for the named functions of the callbacks evaluated in the page.)
  await context.addInitScript({
    content: 'performance.setResourceTimingBufferSize(10000); window.__name = (f) => f',
  })
  if (timeline) await context.addInitScript({ content: TIMELINE_SCRIPT })
  return context
}

/**
 * `--timeline`: the map's renders, source data and idle events as they happen (the map is hooked
 * when the page puts it on window.__aedDashboardMap), to count the frames between data and drawn.
 */
const TIMELINE_SCRIPT = `(() => {
  const events = []
  window.__mapEvents = events
  let map
  Object.defineProperty(window, '__aedDashboardMap', {
    configurable: true,
    get: () => map,
    set: (m) => {
      map = m
      if (!m) return
      const at = (what) => events.push([performance.now(), what])
      m.on('render', () => at('render'))
      m.on('idle', () => at('idle'))
      m.on('load', () => at('load'))
      m.on('sourcedata', (e) => { if (e.tile || e.sourceDataType === 'content') at('sourcedata ' + e.sourceId + (e.tile ? ' tile' : ' ' + e.sourceDataType)) })
      m.on('styledata', () => at('styledata'))
      m.on('resize', () => at('resize'))
      m.on('movestart', () => at('movestart'))
    },
  })
})()`

export type Res = {
  name: string
  transferSize: number
  encodedBodySize: number
  decodedBodySize: number
  responseEnd: number
  initiatorType: string
}

/** The page's resource timings. */
export const resources = (page: Page): Promise<Res[]> =>
  page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
      name: e.name,
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
      decodedBodySize: e.decodedBodySize,
      responseEnd: e.responseEnd,
      initiatorType: e.initiatorType,
    })),
  )
