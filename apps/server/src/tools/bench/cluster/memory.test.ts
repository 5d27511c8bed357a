import { expect, it } from 'vitest'
import { type MemorySample, memoryGrowth, memoryTrend } from './memory.ts'

// The soak's memory verdict: a saw-tooth with no trend is flat, a steady rise is growth.

/** Samples every 5 s for `minutes`, rss in MB from `mb(s)`. */
const samples = (minutes: number, mb: (s: number) => number): MemorySample[] =>
  Array.from({ length: (minutes * 60) / 5 + 1 }, (_, k) => ({
    s: k * 5,
    role: 'server-0',
    pid: 1,
    rssKb: mb(k * 5) * 1024,
    cpu: 0,
  }))

it('finds no trend in a saw-tooth whose minute means differ by more than 10 %', () => {
  // A garbage collector's saw-tooth: 300 MB rising to 420 every 7 minutes, then collected.
  const saw = samples(30, (s) => 300 + ((s % 420) / 420) * 120)
  const [g] = memoryGrowth(saw, 300)
  expect(Math.abs(g.growth)).toBeGreaterThan(10)
  expect(Math.abs(g.trend)).toBeLessThan(3)
})

it('finds a steady rise as growth over the run', () => {
  // 300 MB rising 2 MB a minute: 50 MB over the 25 minutes after the warm-up, about 16 % of the mean.
  const rise = samples(30, (s) => 300 + (2 * s) / 60)
  const trend = memoryTrend(rise, 'server-0', 300)
  expect(trend).toBeGreaterThan(14)
  expect(trend).toBeLessThan(17)
})
