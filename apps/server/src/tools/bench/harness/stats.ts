// The benchmarks' statistics.

/** Ascending, as a copy. */
export const ascending = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)

/** The p-th percentile (0-100) of ascending `sorted`: the value at floor(p% of n); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
    : Number.NaN
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = ascending(xs)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** The mean; 0 when empty. */
export const mean = (xs: readonly number[]) => xs.reduce((x, y) => x + y, 0) / Math.max(1, xs.length)
