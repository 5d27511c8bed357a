import type { Page } from 'playwright-core'
import { log, ms } from '../harness/report.ts'
import { ascending, percentile } from '../harness/stats.ts'

// The frames of a drive, recorded in the page, and what they come to.

/** Frame recorder: requestAnimationFrame deltas, long animation frames and long tasks. */
export async function startFrames(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>
    const frames: number[] = []
    const loaf: { d: number; b: number; scripts: string[] }[] = []
    const long: number[] = []
    w.__bench = { frames, loaf, long, stop: false }
    let last = performance.now()
    const tick = (t: number) => {
      frames.push(t - last)
      last = t
      if (!(w.__bench as { stop: boolean }).stop) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
    try {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries() as (PerformanceEntry & {
          blockingDuration: number
          renderStart: number
          styleAndLayoutStart: number
          scripts: { sourceURL: string; sourceFunctionName: string; duration: number; invoker: string }[]
        })[])
          loaf.push({
            d: e.duration,
            b: e.blockingDuration,
            scripts: [
              `tasks ${(e.renderStart ? e.renderStart - e.startTime : e.duration).toFixed(0)}ms` +
                ` frame callbacks ${(e.renderStart ? e.styleAndLayoutStart - e.renderStart : 0).toFixed(0)}ms` +
                ` style, layout, paint ${(e.renderStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0).toFixed(0)}ms`,
            ].concat(
              e.scripts
                .filter((s) => s.duration > 10)
                .map(
                  (s) =>
                    `${s.invoker} ${s.sourceFunctionName}@${s.sourceURL.split('/').pop()} ${s.duration.toFixed(0)}ms`,
                ),
            ),
          })
      }).observe({ type: 'long-animation-frame' })
    } catch {}
    try {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) long.push(e.duration)
      }).observe({ type: 'longtask' })
    } catch {}
  })
}

export async function stopFrames(page: Page) {
  return page.evaluate(() => {
    const b = (
      window as unknown as {
        __bench: {
          frames: number[]
          loaf: { d: number; b: number; scripts: string[] }[]
          long: number[]
          stop: boolean
        }
      }
    ).__bench
    b.stop = true
    return { frames: b.frames.slice(1), loaf: b.loaf, long: b.long }
  })
}

/** The three longest animation frames of a drive, with the scripts that ran over 10 ms in each. */
export function logLongFrames(loaf: { d: number; scripts: string[] }[]) {
  const worst = [...loaf].sort((x, y) => y.d - x.d).slice(0, 3)
  for (const w of worst) log(`  long frame ${ms(w.d)} ms: ${w.scripts.join('; ')}`)
}

export type FrameStats = {
  n: number
  max: number
  p99: number
  p95: number
  over50: number
  over100: number
  loaf: number
  loafMax: number
  loaf100: number
  long: number
  longMax: number
}

/** A drive's frame durations, long animation frames and long tasks, summed up. */
export function frameStats(r: {
  frames: number[]
  loaf: { d: number; b: number }[]
  long: number[]
}): FrameStats {
  const f = ascending(r.frames)
  return {
    n: f.length,
    max: f.at(-1) ?? Number.NaN,
    p99: percentile(f, 99),
    p95: percentile(f, 95),
    over50: f.filter((x) => x > 50).length,
    over100: f.filter((x) => x > 100).length,
    loaf: r.loaf.length,
    loafMax: Math.max(0, ...r.loaf.map((x) => x.d)),
    loaf100: r.loaf.filter((x) => x.d > 100).length,
    long: r.long.length,
    longMax: Math.max(0, ...r.long),
  }
}
