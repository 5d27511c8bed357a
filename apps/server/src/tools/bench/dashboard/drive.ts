import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { sleep } from '../harness/servers.ts'
import { newContext, type Storage } from './browser.ts'
import { firstView } from './first-view.ts'
import { BEIJING, SHANGHAI, SHOTS } from './options.ts'

// 3. The map driven with the mouse, as a user pans and zooms it; and the screenshots of
// `--shots` at street level and over a province.

/**
 * Where a place is on the screen now, from the map's own projection (the page puts the map on
 * window.__aedDashboardMap). The demo's datum is GCJ-02, which the map draws unshifted.
 */
export async function pixelOf(page: Page, p: { lon: number; lat: number }) {
  const box = (await page.locator('[data-testid=dashboard-map-canvas]').boundingBox())!
  const at = await page.evaluate(
    ([lon, lat]) =>
      (
        window as unknown as { __aedDashboardMap: { project(l: [number, number]): { x: number; y: number } } }
      ).__aedDashboardMap.project([lon, lat]),
    [p.lon, p.lat] as [number, number],
  )
  return { x: box.x + at.x, y: box.y + at.y }
}

/** 3. Drives the map with the mouse for about `seconds`: wheel in to street level, drags, wheel out, a cluster click. */
export async function drive(page: Page, seconds: number) {
  const box = (await page.locator('[data-testid=dashboard-map-canvas]').boundingBox())!
  const end = Date.now() + seconds * 1000
  type BenchMap = {
    getCenter(): { lng: number; lat: number }
    getZoom(): number
    jumpTo(v: { center: [number, number]; zoom: number }): void
  }
  const opening = await page.evaluate(() => {
    const map = (window as unknown as { __aedDashboardMap: BenchMap }).__aedDashboardMap
    const c = map.getCenter()
    return { center: [c.lng, c.lat] as [number, number], zoom: map.getZoom() }
  })
  // A place's pixel now; off the map (after a wandering loop), the opening view comes back first.
  const at = async (p: { lon: number; lat: number }) => {
    let xy = await pixelOf(page, p)
    const inside = (q: { x: number; y: number }) =>
      q.x > box.x + 40 && q.x < box.x + box.width - 40 && q.y > box.y + 40 && q.y < box.y + box.height - 40
    if (!inside(xy)) {
      // In braces: jumpTo returns the map, which Playwright would serialise as the result, a task
      // of 100-250 ms on the page's main thread that the frames would count.
      await page.evaluate((v) => {
        ;(window as unknown as { __aedDashboardMap: BenchMap }).__aedDashboardMap.jumpTo(v)
      }, opening)
      await sleep(300)
      xy = await pixelOf(page, p)
    }
    return xy
  }
  const drag = async (dx: number, dy: number) => {
    const x = box.x + box.width / 2
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + dx, y + dy, { steps: 20 })
    await page.mouse.up()
    await sleep(150)
  }
  while (Date.now() < end) {
    // Wheel in at Shanghai to street level (each step ~0.6 of a zoom level), pan about, and out.
    const sh = await at(SHANGHAI)
    await page.mouse.move(sh.x, sh.y)
    let wheels = 0
    for (; wheels < 20 && Date.now() < end; wheels++) {
      await page.mouse.wheel(0, -500)
      await sleep(200)
    }
    // The drive must have moved the map: a page that ignores the mouse draws no frames at all.
    const deepest = await page.evaluate(() =>
      (window as unknown as { __aedDashboardMap: BenchMap }).__aedDashboardMap.getZoom(),
    )
    if (wheels === 20 && deepest < opening.zoom + 4) {
      const shot = path.join(os.tmpdir(), 'aed-bench-dashboard-drive-failed.png')
      await page.screenshot({ path: shot })
      throw new Error(
        `the wheel did not zoom the map in (zoom ${deepest.toFixed(1)} after it; the page: ${shot})`,
      )
    }
    await drag(300, 120)
    await drag(-420, -200)
    await page.mouse.move(sh.x, sh.y)
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, 500)
      await sleep(150)
    }
    await sleep(400)
    // A cluster (Beijing's) clicked: the map eases to where it splits. Clicked beside the rescues
    // drawn over it, which would open their popup instead.
    const bj = await at(BEIJING)
    const onCluster = await page.evaluate(
      ([x0, y0]) => {
        const hits = (
          window as unknown as { __aedDashboardHits?: (x: number, y: number) => { kind: string }[] }
        ).__aedDashboardHits
        for (let r = 0; r <= 24 && hits; r += 3)
          for (let a = 0; a < 360; a += 30) {
            const x = x0 + r * Math.cos((a * Math.PI) / 180)
            const y = y0 + r * Math.sin((a * Math.PI) / 180)
            if (hits(x, y)[0]?.kind === 'cluster') return { dx: x - x0, dy: y - y0 }
          }
        return null
      },
      [bj.x - box.x, bj.y - box.y],
    )
    if (!onCluster) throw new Error("no pixel of Beijing's cluster is clear of what is drawn over it")
    await page.mouse.click(bj.x + onCluster.dx, bj.y + onCluster.dy)
    await sleep(1200)
    await drag(-250, 160)
    await drag(250, -160)
    await page.mouse.move(bj.x, bj.y)
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, 500)
      await sleep(120)
    }
    await sleep(500)
  }
}

/** `--shots`: street level in Shanghai, then the Yangtze delta, in a new first view. */
export async function streetAndProvinceShots(
  browser: Browser,
  base: string,
  storage: Storage,
  timeline: boolean,
) {
  const context = await newContext(browser, base, timeline, storage)
  const p2 = await context.newPage()
  await firstView(p2, timeline)
  const sh = await pixelOf(p2, SHANGHAI)
  await p2.mouse.move(sh.x, sh.y)
  for (let i = 0; i < 19; i++) {
    await p2.mouse.wheel(0, -500)
    await sleep(200)
  }
  await sleep(2500)
  await p2.screenshot({ path: path.join(SHOTS, 'dashboard-100k-street.png') })
  // The Yangtze delta at zoom 6.5: province borders, city dots and names under the clusters.
  await p2.evaluate(() => {
    ;(window as unknown as { __aedDashboardMap: { jumpTo(v: object): void } }).__aedDashboardMap.jumpTo({
      center: [119.5, 31],
      zoom: 6.5,
    })
  })
  await sleep(2500)
  await p2.screenshot({ path: path.join(SHOTS, 'dashboard-100k-province.png') })
}
